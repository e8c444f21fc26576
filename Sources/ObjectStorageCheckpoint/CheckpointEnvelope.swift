//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// What both checkpoint kinds provide to the envelope and the store.
protocol CheckpointDocument: Codable, Sendable {
    /// What names the transfer (bucket, key, local file…).
    associatedtype Identity: CheckpointComparable
    /// The envelope's `kind`.
    static var kind: String { get }
    /// The transfer the checkpoint belongs to: one of another identity is discarded before anything else is
    /// compared.
    var identity: Identity { get }
    /// Why the content is inconsistent, or `nil`.
    func contentProblem() -> String?
    /// The field that could carry a credential, or `nil`.
    func sensitiveField() -> String?
}

/// The file format: one JSON object with sorted keys,
/// `{"data":{…},"digest":"<sha256 hex of the data bytes>","format":"swift-object-storage.checkpoint",`
/// `"kind":"download"|"upload","version":1}` and a final newline.
///
/// The digest covers the exact bytes of the `data` value *as they appear in the file*, located by a
/// small scanner, so it never depends on how a JSON library re-serialises. The writer produces those
/// bytes canonically (sorted keys, no insignificant whitespace, integers only, CRC64s as decimal
/// strings), so equal checkpoints give byte-identical files.
enum CheckpointEnvelope {
    static let format = "swift-object-storage.checkpoint"
    static let version = 1

    /// The canonical bytes of `document`'s data.
    static func dataBytes<Document: CheckpointDocument>(_ document: Document) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(document))
    }

    /// The whole file.
    static func encode<Document: CheckpointDocument>(_ document: Document) throws -> [UInt8] {
        let data = try dataBytes(document)
        let digest = ByteEncoding.hex(Hashing.SHA256.hash(data))
        var bytes = Array("{\"data\":".utf8)
        bytes.reserveCapacity(data.count + 160)
        bytes += data
        bytes += Array(
            ",\"digest\":\"\(digest)\",\"format\":\"\(format)\",\"kind\":\"\(Document.kind)\",\"version\":\(version)}\n"
                .utf8
        )
        return bytes
    }

    private struct Header: Decodable {
        var format: String?
        var kind: String?
        var version: Int?
        var digest: String?

        private enum CodingKeys: String, CodingKey {
            case format, kind, version, digest
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.format = try? container.decodeIfPresent(String.self, forKey: .format)
            self.kind = try? container.decodeIfPresent(String.self, forKey: .kind)
            self.version = try? container.decodeIfPresent(Int.self, forKey: .version)
            self.digest = try? container.decodeIfPresent(String.self, forKey: .digest)
        }
    }

    /// Parses and authenticates a file: format, kind, version, digest, schema. Returns the document
    /// or the reason it cannot be used. Content consistency is checked by the caller.
    static func decode<Document: CheckpointDocument>(
        _ bytes: [UInt8],
        as type: Document.Type
    ) -> Result<Document, CheckpointInvalidReason> {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes))
        } catch DecodingError.typeMismatch {
            return .failure(CheckpointInvalidReason(code: .wrongFormat, message: "the file is JSON but not an object"))
        } catch {
            return .failure(
                CheckpointInvalidReason(
                    code: .malformed,
                    message: "the file (\(bytes.count) bytes) is not a complete JSON document (truncated or corrupt)"
                )
            )
        }
        guard header.format == format else {
            return .failure(
                CheckpointInvalidReason(
                    code: .wrongFormat,
                    field: "format",
                    message: "format is \(header.format.map { "'\($0)'" } ?? "missing"), expected '\(format)'"
                )
            )
        }
        guard header.kind == Document.kind else {
            return .failure(
                CheckpointInvalidReason(
                    code: .wrongKind,
                    field: "kind",
                    message: "kind is \(header.kind.map { "'\($0)'" } ?? "missing"), expected '\(Document.kind)'"
                )
            )
        }
        guard header.version == version else {
            return .failure(
                CheckpointInvalidReason(
                    code: .unsupportedVersion,
                    field: "version",
                    message:
                        "version \(header.version.map(String.init) ?? "missing") is not supported "
                        + "(this build reads \(version))"
                )
            )
        }
        guard let span = JSONMemberScanner.valueRange(ofMember: "data", in: bytes) else {
            return .failure(
                CheckpointInvalidReason(code: .malformed, field: "data", message: "no single 'data' object")
            )
        }
        let data = bytes[span]
        let digest = ByteEncoding.hex(Hashing.SHA256.hash(data))
        guard let recorded = header.digest, recorded.lowercased() == digest else {
            return .failure(
                CheckpointInvalidReason(
                    code: .digestMismatch,
                    field: "digest",
                    message: "the SHA-256 of data is \(digest), the checkpoint says \(header.digest ?? "nothing")"
                )
            )
        }
        do {
            return .success(try JSONDecoder().decode(Document.self, from: Data(data)))
        } catch {
            return .failure(
                CheckpointInvalidReason(
                    code: .malformed,
                    field: "data",
                    message: "data does not match the version \(version) \(Document.kind) schema: \(error)"
                )
            )
        }
    }
}

/// Finds the bytes of one member's value in a top-level JSON object, without re-serialising.
enum JSONMemberScanner {
    /// The byte range of the value of top-level member `name`; `nil` when the input is not an
    /// object, the member is absent or appears twice, or the JSON is malformed.
    static func valueRange(ofMember name: String, in bytes: [UInt8]) -> Range<Int>? {
        let wanted = Array(name.utf8)
        var index = 0
        skipWhitespace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipWhitespace(bytes, &index)
        var found: Range<Int>?
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return nil }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index + 1
            guard let keyEnd = skipString(bytes, &index) else { return nil }
            let key = bytes[keyStart..<keyEnd]
            skipWhitespace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace(bytes, &index)
            let valueStart = index
            guard skipValue(bytes, &index) else { return nil }
            if key.elementsEqual(wanted) {
                guard found == nil else { return nil }
                found = valueStart..<index
            }
            skipWhitespace(bytes, &index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace(bytes, &index)
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            return found
        }
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
        {
            index += 1
        }
    }

    /// At an opening quote: moves past the closing quote and returns the closing quote's index.
    private static func skipString(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                let end = index
                index += 1
                return end
            default: index += 1
            }
        }
        return nil
    }

    private static func skipValue(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString(bytes, &index) != nil
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString(bytes, &index) != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
                if depth == 0 { return true }
            }
            return false
        default:
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
                    return index > start
                default: index += 1
                }
            }
            return index > start
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// A bucket configuration file given to a `set` command: the services' XML, or aws-cli's JSON.
struct ConfigurationFile {
    var bytes: [UInt8]
    /// The file's name, as messages show it.
    var name: String
    /// The command, as messages start (`cors`, `lifecycle`).
    var command: String
    /// What the file should hold, as messages name it (`CORS configuration`).
    var kind: String

    /// Whether the file is JSON: its first character that is not white space is `{`.
    var isJSON: Bool {
        let first = self.bytes.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        return first == UInt8(ascii: "{")
    }

    /// The file's JSON as `type`.
    ///
    /// - Throws: ``CLIError/invalidInput(_:)`` with the parser's words (which give the line), or the path of the
    ///   value that does not fit.
    func decodeJSON<Value: Decodable>(_ type: Value.Type) throws(CLIError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(self.bytes))
        } catch {
            throw .invalidInput("\(self.command): \(self.name) is not a \(self.kind) in JSON: \(Self.describe(error))")
        }
    }

    /// The file's XML document.
    ///
    /// - Throws: ``CLIError/invalidInput(_:)`` naming the line of the first syntax error.
    func xmlRoot() throws(CLIError) -> XMLNode {
        do {
            return try XMLNode.parse(self.bytes)
        } catch {
            let line = error.line.map { " at line \($0)" } ?? ""
            throw .invalidInput("\(self.command): \(self.name) is not well-formed XML\(line): \(error.message)")
        }
    }

    /// Reads FILE, or standard input for `-`.
    ///
    /// - Throws: ``CLIError`` (not found) when the file cannot be read.
    static func contents(of file: String, command: String) throws(CLIError) -> (bytes: [UInt8], name: String) {
        if file == "-" { return (Array(FileHandle.standardInput.readDataToEndOfFile()), "standard input") }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError(status: .notFound, message: "\(command): cannot read '\(file)'")
        }
        return (Array(data), "'\(file)'")
    }

    /// A decoding error as a sentence fragment: the JSON parser's own words (which give the line), or the path
    /// of the value that does not fit.
    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        case .keyNotFound(let key, let context):
            return "\(Self.path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(Self.path(context.codingPath)) is not what it should be (\(context.debugDescription))"
        @unknown default:
            return "\(decoding)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}

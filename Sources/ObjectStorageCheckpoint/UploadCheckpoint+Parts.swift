//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageSigning

extension UploadCheckpoint {
    /// The most parts a multipart upload may have on OSS, OBS and S3.
    package static let maximumPartCount = 10_000

    /// How the source file is cut into parts (index = part number − 1).
    package var layout: PartLayout {
        PartLayout(uncheckedStart: 0, length: max(source.size, 0), partSize: max(partSize, 1))
    }

    /// The number of parts: `ceil(size / partSize)`, and 1 for an empty file (a multipart upload
    /// needs at least one part, which is then empty).
    package var partCount: Int { max(1, layout.partCount) }

    /// The byte range of the source file that part `number` carries.
    ///
    /// - Parameter number: A part number in `1...partCount`.
    /// - Returns: The half-open range of file offsets (empty for an out-of-range number, and for the
    ///   single part of an empty file).
    package func range(ofPart number: Int) -> Range<Int64> {
        layout.localRange(ofPart: number - 1)
    }

    /// The recorded part `number`, if the server acknowledged it.
    ///
    /// - Parameter number: A part number.
    /// - Returns: The record, or `nil`.
    package func part(number: Int) -> UploadedPart? {
        let (slot, found) = position(of: number)
        return found ? parts[slot] : nil
    }

    /// Records a part the server acknowledged, replacing any earlier record of the same number.
    ///
    /// - Parameter part: The part; its size must be the size ``range(ofPart:)`` gives.
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` for a number outside `1...partCount` or
    ///   a size that does not match the layout.
    package mutating func recordPart(_ part: UploadedPart) throws(CheckpointError) {
        guard part.number >= 1, part.number <= partCount else {
            throw .invalidCheckpoint("part number \(part.number) is outside 1...\(partCount)")
        }
        let expected = range(ofPart: part.number).count
        guard part.size == Int64(expected) else {
            throw .invalidCheckpoint("part \(part.number) has \(part.size) bytes, the layout says \(expected)")
        }
        let (slot, found) = position(of: part.number)
        if found { parts[slot] = part } else { parts.insert(part, at: slot) }
    }

    /// Forgets part `number`, so it is uploaded again.
    ///
    /// - Parameter number: A part number.
    package mutating func removePart(number: Int) {
        let (slot, found) = position(of: number)
        if found { parts.remove(at: slot) }
    }

    /// The part numbers still to upload, ascending.
    package var missingPartNumbers: [Int] {
        var missing = [Int]()
        var next = parts.startIndex
        for number in 1...partCount {
            if next < parts.endIndex, parts[next].number == number {
                next += 1
            } else {
                missing.append(number)
            }
        }
        return missing
    }

    /// The bytes the server has acknowledged (the sum of the recorded parts' sizes).
    package var bytesCompleted: Int64 { parts.reduce(0) { $0 + $1.size } }

    /// Whether every part is recorded.
    package var isComplete: Bool { parts.count == partCount }

    /// The whole file's CRC64, combined from the per-part CRC64s in order (with ``partCRC64Polynomial``);
    /// `nil` while parts are missing or any part has no CRC64.
    ///
    /// - Returns: The combined CRC64, or `nil`.
    package func combinedCRC64() -> UInt64? {
        guard isComplete else { return nil }
        return CRC64.combine(parts.lazy.map { ($0.crc64, $0.size) }, polynomial: partCRC64Polynomial)
    }

    /// The polynomial of the parts' CRCs: S3's CRC-64/NVME for an upload created for S3's full-object checksum
    /// (its parameters name `x-amz-checksum-algorithm: CRC64NVME`), CRC-64/XZ otherwise.
    package var partCRC64Polynomial: CRC64.Polynomial {
        parameters.additionalHeaders[S3ChecksumHeader.algorithm] == "CRC64NVME" ? .nvme : .xz
    }

    /// A part as ListParts reports it.
    package struct ServerPart: Hashable, Sendable {
        /// The part number.
        package var number: Int
        /// The ETag the server lists.
        package var etag: String
        /// The size the server lists.
        package var size: Int64

        /// Creates a server part.
        ///
        /// - Parameters:
        ///   - number: The part number.
        ///   - etag: The listed ETag.
        ///   - size: The listed size.
        package init(number: Int, etag: String, size: Int64) {
            self.number = number
            self.etag = etag
            self.size = size
        }
    }

    /// Keeps a recorded part only if the server lists it with the same ETag (compared without
    /// quotes, case-insensitively) and the same size; every other recorded part is forgotten and
    /// will be uploaded again. Parts the server has but the checkpoint does not record are ignored
    /// (re-uploading a part number replaces it).
    ///
    /// - Parameter serverParts: Every part ListParts returned (all pages).
    /// - Returns: The part numbers that were forgotten, ascending.
    @discardableResult
    package mutating func reconcile(withServerParts serverParts: [ServerPart]) -> [Int] {
        var listed = [Int: ServerPart]()
        for part in serverParts { listed[part.number] = part }
        var dropped = [Int]()
        parts.removeAll { part in
            guard let server = listed[part.number], server.size == part.size,
                Self.sameETag(server.etag, part.etag)
            else {
                dropped.append(part.number)
                return true
            }
            return false
        }
        return dropped
    }

    static func sameETag(_ a: String, _ b: String) -> Bool {
        func bare(_ etag: String) -> String {
            var text = Substring(etag)
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            return text.trimmingPrefixAndSuffix("\"").lowercased()
        }
        return bare(a) == bare(b)
    }

    /// The slot of `number` in ``parts`` (binary search) and whether it is there.
    private func position(of number: Int) -> (slot: Int, found: Bool) {
        parts.sortedPosition(of: number, by: \.number)
    }
}

extension Substring {
    fileprivate func trimmingPrefixAndSuffix(_ character: Character) -> String {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}

extension UploadCheckpoint: CheckpointDocument {
    static var kind: String { "upload" }

    func contentProblem() -> String? {
        guard partSize > 0 else { return "part size \(partSize) must be positive" }
        guard source.size >= 0 else { return "source size \(source.size) is negative" }
        guard !uploadId.isEmpty else { return "the upload id is empty" }
        guard partCount <= Self.maximumPartCount else {
            return "\(partCount) parts of \(partSize) bytes exceed \(Self.maximumPartCount) parts"
        }
        guard CheckpointRules.isAbsoluteNormalised(identity.sourcePath) else {
            return "source path '\(identity.sourcePath)' is not absolute and normalised"
        }
        var previous = 0
        for part in parts {
            guard part.number > previous, part.number <= partCount else {
                return "part \(part.number) is out of order or outside 1...\(partCount)"
            }
            guard part.size == Int64(range(ofPart: part.number).count) else {
                return "part \(part.number) has \(part.size) bytes, the layout says \(range(ofPart: part.number).count)"
            }
            previous = part.number
        }
        return nil
    }

    func sensitiveField() -> String? {
        if let field = CheckpointRules.endpointProblem(identity.endpoint) { return field }
        for name in parameters.additionalHeaders.keys where ObjectParameters.isSensitiveHeader(name) {
            return "additionalHeaders[\(name)]"
        }
        return nil
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageSigning

/// The persisted state of a resumable download: which transfer it is, which object version it
/// reads, how the bytes are cut into parts, where the temp file is, and which parts are already in
/// the temp file together with their CRC64.
///
/// The engine's life cycle:
/// 1. Probe the object, build an ``Identity`` and ``ObjectState``, and
///    `CheckpointStore.load(at:expecting:)`. On `.loaded`, run ``verifyCompletedParts()`` (saves do not sync
///    the temp file, so a power loss can take the bytes of recorded parts), then keep going with the stored part
///    size (changing `partSize` between runs never throws progress away); on `.discarded`, delete
///    `previous?.tempFilePath` if any and create a fresh checkpoint with
///    ``init(identity:object:partSize:tempFilePath:)``.
/// 2. Preallocate the temp file to ``expectedTempFileSize`` (`ftruncate`) and sync it and its directory
///    *before* the first save: on load the temp file's real size must equal it.
/// 3. For each missing part (``missingParts``), fetch ``PartLayout/range(ofPart:)`` with
///    `If-Match`, `pwrite` at ``PartLayout/localRange(ofPart:)``, then ``markPartCompleted(_:crc64:)``
///    and save. Parts complete in any order; a killed process loses none, and a power loss only those whose
///    bytes had not reached the disk (step 1 finds them).
/// 4. When ``isComplete``, compare ``combinedCRC64()`` with the object's CRC64, fsync, rename the
///    temp file over the destination, and remove the checkpoint.
///
/// The data model holds no credentials; an endpoint with a query or user info is refused on save.
package struct DownloadCheckpoint: Codable, Hashable, Sendable {
    /// Which download this is. Two checkpoints with different identities never resume each other.
    package struct Identity: Codable, Hashable, Sendable {
        /// The vendor's name (`oss`, `obs`, `s3`...).
        package var vendor: String
        /// The endpoint, `scheme://host[:port]`: no path query (a signature), no user info.
        package var endpoint: String
        /// The bucket (empty for a presigned URL that has none).
        package var bucket: String
        /// The object key (for a presigned URL: its path, never its query).
        package var key: String
        /// The version asked for, if any.
        package var versionId: String?
        /// The byte range asked for, if any.
        package var range: CheckpointByteRange?
        /// The destination file: absolute and normalised (see ``CheckpointPaths/absolute(_:)``).
        package var destinationPath: String

        /// Creates an identity.
        ///
        /// - Parameters:
        ///   - vendor: The vendor's name.
        ///   - endpoint: `scheme://host[:port]`.
        ///   - bucket: The bucket.
        ///   - key: The object key.
        ///   - versionId: The version asked for, if any.
        ///   - range: The byte range asked for, if any.
        ///   - destinationPath: The absolute destination path.
        package init(
            vendor: String,
            endpoint: String,
            bucket: String,
            key: String,
            versionId: String? = nil,
            range: CheckpointByteRange? = nil,
            destinationPath: String
        ) {
            self.vendor = vendor
            self.endpoint = endpoint
            self.bucket = bucket
            self.key = key
            self.versionId = versionId
            self.range = range
            self.destinationPath = destinationPath
        }

        /// The name of the first field that differs from `other`, or `nil` when equal.
        ///
        /// - Parameter other: Another identity.
        /// - Returns: `vendor`, `endpoint`, `bucket`, `key`, `versionId`, `range` or `destinationPath`.
        package func firstDifference(from other: Identity) -> String? {
            if let field = firstObjectDifference(from: other) { return field }
            if versionId != other.versionId { return "versionId" }
            if range != other.range { return "range" }
            if destinationPath != other.destinationPath { return "destinationPath" }
            return nil
        }
    }

    /// The object as the probe (HEAD, or a `bytes=0-0` GET) described it.
    package struct ObjectState: Codable, Hashable, Sendable {
        /// The whole object's size in bytes.
        package var size: Int64
        /// The ETag header, verbatim (sent back as `If-Match`).
        package var etag: String
        /// The Last-Modified header, verbatim, if the server sent one.
        package var lastModified: String?
        /// The whole object's CRC-64, if the service offered one: OSS's and OBS's CRC-64/XZ
        /// (`x-oss-hash-crc64ecma` / `x-obs-hash-crc64ecma`) or S3's CRC-64/NVME (`x-amz-checksum-crc64nvme`),
        /// as ``crc64Polynomial`` says. The parts' CRCs (``CompletedPart/crc64``) use the same polynomial.
        package var crc64: UInt64?
        /// The polynomial of ``crc64`` and of every part's CRC; `.xz` when the service offered none.
        package var crc64Polynomial: CRC64.Polynomial
        /// The version the server reported, if any.
        package var versionId: String?

        /// Creates an object state.
        ///
        /// - Parameters:
        ///   - size: The object's size.
        ///   - etag: The ETag header.
        ///   - lastModified: The Last-Modified header.
        ///   - crc64: The whole object's CRC-64.
        ///   - crc64Polynomial: The polynomial of `crc64` and of the parts' CRCs.
        ///   - versionId: The version the server reported.
        package init(
            size: Int64,
            etag: String,
            lastModified: String? = nil,
            crc64: UInt64? = nil,
            crc64Polynomial: CRC64.Polynomial = .xz,
            versionId: String? = nil
        ) {
            self.size = size
            self.etag = etag
            self.lastModified = lastModified
            self.crc64 = crc64
            self.crc64Polynomial = crc64Polynomial
            self.versionId = versionId
        }

        /// The first field showing that `probe` is a different object version: `size` and `etag`
        /// always; `lastModified`, `versionId` and `crc64` when both sides have them.
        ///
        /// - Parameter probe: A fresh probe of the object.
        /// - Returns: The field name, or `nil` when the probe describes the same version.
        package func firstDifference(from probe: ObjectState) -> String? {
            if size != probe.size { return "size" }
            if etag != probe.etag { return "etag" }
            if let a = lastModified, let b = probe.lastModified, a != b { return "lastModified" }
            if let a = versionId, let b = probe.versionId, a != b { return "versionId" }
            if let a = crc64, let b = probe.crc64, a != b || crc64Polynomial != probe.crc64Polynomial {
                return "crc64"
            }
            return nil
        }

        private enum CodingKeys: String, CodingKey {
            case size, etag, lastModified, crc64, crc64Polynomial, versionId
        }

        /// Decodes an object state (`crc64` is a decimal string).
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` for a missing field or a malformed CRC64.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.size = try container.decode(Int64.self, forKey: .size)
            self.etag = try container.decode(String.self, forKey: .etag)
            self.lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
            self.crc64 = try container.decodeCRC64IfPresent(forKey: .crc64)
            switch try container.decodeIfPresent(String.self, forKey: .crc64Polynomial) {
            case nil, "xz": self.crc64Polynomial = .xz
            case "nvme": self.crc64Polynomial = .nvme
            case let other?:
                throw DecodingError.dataCorruptedError(
                    forKey: .crc64Polynomial,
                    in: container,
                    debugDescription: "unknown CRC-64 polynomial '\(other)'"
                )
            }
            self.versionId = try container.decodeIfPresent(String.self, forKey: .versionId)
        }

        /// Encodes the object state (`crc64` as a decimal string, absent fields omitted).
        ///
        /// - Parameter encoder: The encoder.
        /// - Throws: Whatever the encoder throws.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(size, forKey: .size)
            try container.encode(etag, forKey: .etag)
            try container.encodeIfPresent(lastModified, forKey: .lastModified)
            try container.encodeCRC64(crc64, forKey: .crc64)
            // Written only when it is not the polynomial a checkpoint without the field means.
            if crc64Polynomial == .nvme { try container.encode("nvme", forKey: .crc64Polynomial) }
            try container.encodeIfPresent(versionId, forKey: .versionId)
        }
    }

    /// A part whose bytes are in the temp file, with their CRC64.
    package struct CompletedPart: Codable, Hashable, Sendable {
        /// The zero-based part index.
        package var index: Int
        /// The CRC64 of the part's bytes.
        package var crc64: UInt64

        /// Creates a completed part.
        ///
        /// - Parameters:
        ///   - index: The zero-based part index.
        ///   - crc64: The CRC64 of its bytes.
        package init(index: Int, crc64: UInt64) {
            self.index = index
            self.crc64 = crc64
        }

        private enum CodingKeys: String, CodingKey {
            case index, crc64
        }

        /// Decodes a part (`crc64` is a decimal string).
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` for a missing field or a malformed CRC64.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.index = try container.decode(Int.self, forKey: .index)
            self.crc64 = try container.decodeCRC64(forKey: .crc64)
        }

        /// Encodes the part (`crc64` as a decimal string).
        ///
        /// - Parameter encoder: The encoder.
        /// - Throws: Whatever the encoder throws.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encodeCRC64(crc64, forKey: .crc64)
        }
    }

    /// Which download this is.
    package var identity: Identity
    /// The object version being downloaded.
    package var object: ObjectState
    /// The part size in bytes (kept from the first run on resume).
    package internal(set) var partSize: Int64
    /// The temp file that receives the parts: absolute, in the destination's directory.
    package internal(set) var tempFilePath: String
    /// The parts already in the temp file, sorted by index, without duplicates.
    package internal(set) var completedParts: [CompletedPart]

    /// Creates the checkpoint of a download that has not fetched anything yet.
    ///
    /// - Parameters:
    ///   - identity: Which download this is.
    ///   - object: The object as just probed.
    ///   - partSize: The part size (> 0).
    ///   - tempFilePath: The temp file (absolute, in the destination's directory, not the
    ///     destination itself), usually ``CheckpointPaths/downloadTempFile(destination:)``.
    /// - Throws: ``CheckpointError`` `.invalidCheckpoint` for a part size ≤ 0, a range the object
    ///   cannot satisfy, or paths that are relative or misplaced.
    package init(identity: Identity, object: ObjectState, partSize: Int64, tempFilePath: String) throws(CheckpointError)
    {
        self.identity = identity
        self.object = object
        self.partSize = partSize
        self.tempFilePath = tempFilePath
        self.completedParts = []
        if let problem = self.contentProblem() { throw .invalidCheckpoint(problem) }
    }

    /// The object offsets this download covers: the resolved range, or the whole object.
    package var transferRange: Range<Int64> {
        if let range = identity.range {
            return range.resolved(objectSize: object.size) ?? 0..<0
        }
        return 0..<max(object.size, 0)
    }

    /// How the transfer is cut into parts.
    package var layout: PartLayout {
        let range = transferRange
        let length = range.upperBound - range.lowerBound
        return PartLayout(uncheckedStart: range.lowerBound, length: length, partSize: max(partSize, 1))
    }

    /// The size the temp file must have (the transfer length): preallocate it to this.
    package var expectedTempFileSize: Int64 { layout.length }
}

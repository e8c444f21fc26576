//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The ETag S3-style services give an object made by a multipart upload: the hexadecimal MD5 of the parts'
/// binary MD5s, concatenated in part order, then `-` and the number of parts (`"9b2cf535f27731c974343645a3985328-3"`).
///
/// It checks the whole object once the part boundaries are known: every part but the last has the upload's
/// part size. The ETag alone does not say that size; ``admits(partSize:objectSize:)`` tells which sizes fit.
struct MultipartETag: Sendable, Hashable {
    /// The lowercase hexadecimal MD5 of the part MD5s.
    var digest: String
    /// The number of parts.
    var partCount: Int

    /// Reads `etag` (quoted or not, any case); `nil` for a weak ETag or any other form.
    init?(_ etag: String?) {
        guard let text = ETagDigest.strongValue(etag), let dash = text.firstIndex(of: "-") else { return nil }
        let digest = text[..<dash]
        let count = text[text.index(after: dash)...]
        guard digest.utf8.count == 32, ByteEncoding.bytes(fromHex: String(digest)) != nil,
            count.utf8.count <= 5, count.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let partCount = Int(count), (1...10_000).contains(partCount)
        else { return nil }
        self.digest = digest.lowercased()
        self.partCount = partCount
    }

    /// The ETag of an object whose parts have these binary MD5s, in part order.
    init(partDigests: [[UInt8]]) {
        self.digest = ByteEncoding.hex(Hashing.MD5.hash(partDigests.flatMap { $0 }))
        self.partCount = partDigests.count
    }

    /// `<digest>-<partCount>`, unquoted.
    var text: String { "\(self.digest)-\(self.partCount)" }

    /// Whether parts of `partSize` bytes (the last one shorter or equal) cut an object of `objectSize` bytes into
    /// exactly ``partCount`` parts.
    func admits(partSize: Int64, objectSize: Int64) -> Bool {
        guard partSize > 0, objectSize > 0 else { return false }
        let (floor, floorOverflows) = partSize.multipliedReportingOverflow(by: Int64(self.partCount - 1))
        let (full, fullOverflows) = partSize.multipliedReportingOverflow(by: Int64(self.partCount))
        return !floorOverflows && floor < objectSize && (fullOverflows || objectSize <= full)
    }

    /// The ETag of a multipart object made of parts with these ETags (`nil` unless each is a plain hex MD5).
    static func of(partETags: [String]) -> MultipartETag? {
        guard !partETags.isEmpty else { return nil }
        var digests: [[UInt8]] = []
        digests.reserveCapacity(partETags.count)
        for etag in partETags {
            guard let hex = ETagDigest.md5(etag), let bytes = ByteEncoding.bytes(fromHex: hex) else { return nil }
            digests.append(bytes)
        }
        return MultipartETag(partDigests: digests)
    }
}

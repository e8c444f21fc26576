//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning
import Synchronization

/// The MD5s of the parts fetched in one round of a download, by part index.
final class PartMD5s: Sendable {
    private let digests = Mutex<[Int: [UInt8]]>([:])

    func record(_ md5: [UInt8], ofPart index: Int) {
        self.digests.withLock { $0[index] = md5 }
    }

    var all: [Int: [UInt8]] { self.digests.withLock { $0 } }
}

/// How a download checks an object whose ETag is a ``MultipartETag``: the object's part size, and whether the
/// download's own parts are the object's parts, so that each part's MD5 is taken as its bytes arrive.
///
/// The service says the part size when it answers a HEAD with `?partNumber=1` with that part's length and
/// `x-amz-mp-parts-count` (S3). Where it does not (Ceph RGW ignores the parameter; a presigned URL cannot add
/// it), the sizes the common tools upload with are tried: a size that reproduces the ETag proves the bytes, and
/// one that does not proves nothing, since the object may have been uploaded in parts of another size.
struct MultipartETagCheck: Sendable {
    let etag: MultipartETag
    let objectSize: Int64
    /// The part size the service reported, if it did.
    let reportedPartSize: Int64?
    /// The download's part size when its parts may be the object's (the whole object, and a size the ETag admits
    /// and the service did not contradict); the MD5 of each is collected in ``streamed``.
    let streamedPartSize: Int64?
    let streamed: PartMD5s?
    /// Whether the file may be read back for the parts whose MD5 was not taken as they arrived
    /// (``TransferOptions/IntegrityCheck/full``).
    let readsBack: Bool

    /// The part sizes of aws cli and boto3 (8 MiB), rclone (5 MiB), s3cmd (15 MiB), minio-go and mc (16 MiB), and
    /// the larger ones that tools pick for big objects, tried when the service does not report the part size.
    static let commonPartSizes: [Int64] = [8, 5, 15, 16, 10, 32, 64, 100, 128].map { $0 << 20 }

    /// At most this many part sizes are tried (each one not streamed costs a read of the whole file).
    static let maximumCandidates = 3

    init(etag: MultipartETag, objectSize: Int64, reportedPartSize: Int64?, layout: PartLayout, readsBack: Bool) {
        self.etag = etag
        self.readsBack = readsBack
        self.objectSize = objectSize
        self.reportedPartSize = reportedPartSize
        // Two part sizes cut the object at the same places when they are equal, or when both hold all of it.
        let sameCuts = { (one: Int64, other: Int64) in one == other || (one >= objectSize && other >= objectSize) }
        let aligned =
            layout.start == 0 && etag.admits(partSize: layout.partSize, objectSize: objectSize)
            && sameCuts(reportedPartSize ?? layout.partSize, layout.partSize)
        self.streamedPartSize = aligned ? reportedPartSize ?? layout.partSize : nil
        self.streamed = aligned ? PartMD5s() : nil
    }

    /// The part sizes to try, most likely first: the reported one alone, or the download's own and the common
    /// ones that the ETag admits.
    var candidates: [Int64] {
        guard self.readsBack else { return [self.streamedPartSize].compactMap { $0 } }
        if let reported = self.reportedPartSize { return [reported] }
        var sizes: [Int64] = []
        for size in [self.streamedPartSize].compactMap({ $0 }) + Self.commonPartSizes
        where !sizes.contains(size) && self.etag.admits(partSize: size, objectSize: self.objectSize) {
            sizes.append(size)
        }
        return Array(sizes.prefix(Self.maximumCandidates))
    }

    /// Checks the file against the ETag.
    ///
    /// - Returns: `.multipartETag` when a part size reproduces it; `.none` when the part size is unknown and no
    ///   candidate does.
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when the service reported the part size and the
    ///   bytes do not reproduce the ETag; a file-system error when the file cannot be read.
    func verify(_ file: DownloadTempFile, logger: Logger) throws(ObjectStorageError) -> TransferResult.Verification {
        let candidates = self.candidates
        var last = ""
        var readBack = 0
        defer {
            logger.debug(
                "checked the multipart ETag",
                metadata: ["os.part_sizes_tried": "\(candidates)", "os.parts_read_back": "\(readBack)"]
            )
        }
        for partSize in candidates {
            let streamed = partSize == self.streamedPartSize ? self.streamed?.all ?? [:] : [:]
            var digests: [[UInt8]] = []
            digests.reserveCapacity(self.etag.partCount)
            for index in 0..<self.etag.partCount {
                if let md5 = streamed[index] {
                    digests.append(md5)
                    continue
                }
                guard self.readsBack else {
                    return .none(reason: "parts fetched by an earlier run have no MD5, which only a second read checks")
                }
                let first = Int64(index) * partSize
                readBack += 1
                digests.append(try file.md5(of: first..<min(first + partSize, self.objectSize)))
            }
            let computed = MultipartETag(partDigests: digests)
            if computed == self.etag { return .multipartETag(computed.text, partSize: partSize) }
            last = computed.text
        }
        if self.reportedPartSize != nil, !candidates.isEmpty {
            throw .integrityMismatch(
                checksum: "multipart ETag",
                expected: self.etag.text,
                actual: last,
                operation: "ResumableDownload"
            )
        }
        guard self.readsBack else {
            return .none(
                reason: "the download's parts are not known to be the object's, and only a second read of the file "
                    + "checks other part sizes"
            )
        }
        let tried = candidates.map { $0 % (1 << 20) == 0 ? "\($0 >> 20) MiB" : "\($0) bytes" }.joined(separator: ", ")
        return .none(
            reason: "the multipart ETag's part size is unknown (the service does not report it) and "
                + (tried.isEmpty ? "no common part size fits" : "no part size tried (\(tried)) reproduces it")
        )
    }
}

extension ResumableDownloadStrategy {
    /// The check of a whole-object download whose ETag is a multipart one, when nothing stronger applies (a
    /// CRC-64 from the service); `nil` otherwise. Asks the service for the part size with one HEAD.
    func multipartETagCheck(
        _ probe: ResumableDownloadSource.Probe,
        layout: PartLayout,
        range: Range<Int64>
    ) async -> MultipartETagCheck? {
        let object = probe.object
        guard self.options.verifiesIntegrity, object.crc64 == nil, object.size > 0, range == 0..<object.size,
            let etag = MultipartETag(object.etag), ETagDigest.encryption(in: probe.headers) == nil
        else { return nil }
        let reported = etag.partCount > 1 ? await self.reportedPartSize(of: etag, object: object) : object.size
        return MultipartETagCheck(
            etag: etag,
            objectSize: object.size,
            reportedPartSize: reported,
            layout: layout,
            readsBack: self.options.integrityCheck == .full
        )
    }

    /// The length of part 1 from a `?partNumber=1` HEAD, if the answer names the ETag's part count and the length
    /// fits it; `nil` for a presigned URL, a service that ignores the parameter, or any failure.
    private func reportedPartSize(of etag: MultipartETag, object: DownloadCheckpoint.ObjectState) async -> Int64? {
        guard case .object(let bucket, let key) = self.source else { return nil }
        var operation = OperationRequest(name: "HeadObject", method: .HEAD, bucket: bucket, key: key)
        operation.query("partNumber", "1")
        operation.query("versionId", self.options.versionID ?? object.versionId)
        operation.header("If-Match", object.etag)
        do {
            let response = try await self.client.execute(operation, logger: self.logger)
            guard
                let count = response.headers.first(name: "x-amz-mp-parts-count").flatMap({ Int($0) }),
                count == etag.partCount,
                let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }),
                etag.admits(partSize: length, objectSize: object.size)
            else { return nil }
            return length
        } catch {
            self.logger.debug("no part size from ?partNumber=1", metadata: ["os.error": "\(error)"])
            return nil
        }
    }
}

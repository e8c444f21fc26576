//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTransport

/// Fetches one part of a resumable download into the temp file.
///
/// Each GET carries `Range` and `If-Match` (and the pinned version id); the answer's ETag, status and
/// `Content-Range` are checked before a byte is written (``PartWriter``). With the default transport the body is
/// taken on the network event loop as it arrives, with no hop to a task per buffer (that hop, and the thread
/// switch behind it, cost a third of the CPU of a download), and written with direct I/O. A connection that drops
/// mid-part is resumed from the byte reached, with a fresh retry budget whenever the failed attempt moved the
/// retry policy's `progressResetBytes` (64 KiB by default).
struct PartFetcher: Sendable {
    let client: ObjectStorageClient
    let source: ResumableDownloadSource
    let layout: PartLayout
    let object: DownloadCheckpoint.ObjectState
    let versionID: String?
    let file: DownloadTempFile
    let logger: Logger
    /// Whether parts may be written with direct I/O (not when the file is read back to verify it).
    let writesDirectly: Bool
    /// Where each part's MD5 goes when the parts are the object's multipart-upload parts (see
    /// ``MultipartETagCheck``); `nil` otherwise.
    let partMD5s: PartMD5s?
    /// The direct-write buffers the parts share.
    let directBuffers = DirectWriteBufferPool()

    /// `If-Match` needs a strong validator: a weak ETag never matches, so it is checked on the answer instead.
    private var ifMatch: String? {
        self.object.etag.isEmpty || self.object.etag.hasPrefix("W/") ? nil : self.object.etag
    }

    /// Downloads part `index`, counting its bytes with `reporter`; returns its CRC-64.
    func fetch(part index: Int, reporter: TransferProgressReporter) async throws -> (index: Int, crc64: UInt64) {
        let writer = PartWriter(
            range: self.layout.range(ofPart: index),
            layoutStart: self.layout.start,
            object: self.object,
            file: self.file,
            reporter: reporter,
            directBuffers: self.writesDirectly ? self.directBuffers : nil,
            hashesMD5: self.partMD5s != nil
        )
        var logger = self.logger
        logger[metadataKey: "os.part"] = "\(index)"
        let end = writer.range.upperBound
        do {
            // One request path: each attempt asks for the part from the byte reached, so an attempt that moved
            // bytes (kept in the file) restores the retry budget by the policy.
            try await self.client.send(
                self.source.get(range: nil, ifMatch: self.ifMatch, versionID: self.versionID),
                logger: logger,
                keptBytes: { writer.position },
                prepare: { operation, _ in
                    operation.header("Range", "bytes=\(writer.position)-\(end - 1)")
                    operation.consumer = writer
                },
                read: { _ in
                    let position = writer.position
                    guard position == end else {
                        throw TransportError(
                            code: .connectionClosed,
                            message: "the body ended at offset \(position) of a part ending at \(end)"
                        )
                    }
                }
            )
            try await writer.finish()
            if let partMD5s = self.partMD5s, let md5 = writer.md5 { partMD5s.record(md5, ofPart: index) }
            return (index, writer.crc64)
        } catch let error as ServiceError where error.statusCode == 412 {
            await writer.abandon()
            throw ObjectChangedSignal(reason: "If-Match \(self.object.etag) failed (412)")
        } catch {
            await writer.abandon()
            throw error
        }
    }
}

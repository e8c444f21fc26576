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
/// mid-part is resumed from the byte reached, with a fresh retry budget whenever the failed attempt made progress.
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
        while true {
            let before = writer.position
            do {
                try await self.client.withRetries(replayable: true, logger: logger) { attempt in
                    try await self.attempt(writer, attempt: attempt, logger: logger)
                }
                try await writer.finish()
                if let partMD5s = self.partMD5s, let md5 = writer.md5 { partMD5s.record(md5, ofPart: index) }
                return (index, writer.crc64)
            } catch {
                // Progress was made before the budget ran out: keep going from the byte reached.
                guard writer.position > before, Self.isResumable(error) else {
                    await writer.abandon()
                    throw error
                }
                logger.debug("resuming the part", metadata: ["os.offset": "\(writer.position)"])
            }
        }
    }

    private static func isResumable(_ error: any Error) -> Bool {
        switch error {
        case let error as TransportError: return error.code.isTransient
        case let error as ServiceError: return error.retryDecision.shouldRetry
        default: return false
        }
    }

    /// One GET from the writer's position to the part's end.
    private func attempt(_ writer: PartWriter, attempt: Int, logger: Logger) async throws {
        let range = "bytes=\(writer.position)-\(writer.range.upperBound - 1)"
        do {
            try await self.client.consumeDownloadGET(
                self.source,
                range: range,
                ifMatch: self.ifMatch,
                versionID: self.versionID,
                attempt: attempt,
                consumer: writer,
                logger: logger
            )
        } catch let error as ServiceError where error.statusCode == 412 {
            throw ObjectChangedSignal(reason: "If-Match \(self.object.etag) failed (412)")
        }
        let position = writer.position
        guard position == writer.range.upperBound else {
            throw TransportError(
                code: .connectionClosed,
                message: "the body ended at offset \(position) of a part ending at \(writer.range.upperBound)"
            )
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// The transfer engine `cp` uses, one function per direction: the resumable `uploadFile` and
/// `resumableDownload` engines for files, a server-side `CopyObject` between objects.
enum CopyTransfer {
    /// Local file → object with the resumable upload engine, reporting progress on `bar`.
    ///
    /// A cancelled task (Ctrl-C) keeps the checkpoint, so rerunning the same command resumes.
    static func upload(
        file path: String,
        to destination: ObjectURL,
        contentType: String?,
        flags: TransferFlags,
        client: ObjectStorageClient,
        bar: ProgressBar
    ) async throws {
        var request = UploadFileRequest(bucket: destination.bucket, key: destination.key ?? "", filePath: path)
        request.contentType = contentType
        request.enableCheckpoint = flags.checkpoint
        request.checkpointFilePath = flags.checkpointFile
        request.enableMD5Check = flags.md5
        request.storageClass = flags.storageClass.map { StorageClass(rawValue: $0) }
        request.acl = flags.acl.map { ObjectACL(rawValue: $0) }
        request.metadata = Dictionary(flags.metadata.map { ($0.key, $0.value) }) { first, _ in first }
        if let partSize = flags.partSize { request.partSize = partSize.bytes }
        if let concurrency = flags.concurrency { request.concurrency = concurrency }
        let size = try fileSize(path)
        let result = try await reporting(bar) {
            try await client.uploadFile(request, progress: bar.handler, logger: bar.logger)
        }
        let totalParts = result.isMultipart ? result.partsUploaded + result.partsReused : 1
        // Reused parts are whole parts, except possibly the last one: an upper bound, clamped to the file.
        let reused = result.isMultipart ? min(Int64(result.partsReused) * result.partSize, size) : 0
        bar.finish(
            totalBytes: size,
            reusedBytes: reused,
            transferredBytes: size - reused,
            parts: (result.partsReused, totalParts),
            restarts: result.restarts
        )
    }

    /// Object → local file with the resumable download engine, reporting progress on `bar`. The file
    /// appears only when complete; a cancelled task (Ctrl-C) keeps the checkpoint for a rerun.
    static func download(
        from source: ObjectURL,
        toFile path: String,
        flags: TransferFlags,
        client: ObjectStorageClient,
        bar: ProgressBar
    ) async throws {
        var options = ResumableDownloadOptions()
        options.enableCheckpoint = flags.checkpoint
        options.checkpointFilePath = flags.checkpointFile
        if let partSize = flags.partSize { options.partSize = partSize.bytes }
        if let concurrency = flags.concurrency { options.concurrency = concurrency }
        let result = try await reporting(bar) {
            try await client.resumableDownload(
                bucket: source.bucket,
                key: source.key ?? "",
                to: path,
                options: options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
        let reusedParts = result.partSize > 0 ? Int((result.bytesReused + result.partSize - 1) / result.partSize) : 0
        bar.finish(
            totalBytes: Int64(result.range.count),
            reusedBytes: result.bytesReused,
            transferredBytes: result.bytesDownloaded,
            parts: (min(reusedParts, result.partCount), result.partCount),
            restarts: result.restarts
        )
    }

    /// Object → object in the same service: one server-side `CopyObject`.
    static func copy(from source: ObjectURL, to destination: ObjectURL, client: ObjectStorageClient) async throws {
        try await client.copyObject(
            CopyObjectRequest(
                sourceBucket: source.bucket,
                sourceKey: source.key ?? "",
                bucket: destination.bucket,
                key: destination.key ?? ""
            )
        )
    }

    /// Runs a transfer, ending the bar's line if it fails or is interrupted.
    private static func reporting<T>(_ bar: ProgressBar, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            bar.interrupt()
            throw error
        }
    }

    private static func fileSize(_ path: String) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}

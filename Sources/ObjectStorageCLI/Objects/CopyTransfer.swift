//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

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
        var attributes = UploadAttributes(contentType: contentType)
        attributes.storageClass = flags.storageClass.map { StorageClass(rawValue: $0) }
        attributes.acl = flags.acl.map { ObjectACL(rawValue: $0) }
        attributes.metadata = Dictionary(flags.metadata.map { ($0.key, $0.value) }) { first, _ in first }
        let result = try await reporting(bar) {
            try await client.uploadFile(
                from: path,
                bucket: destination.bucket,
                key: destination.key ?? "",
                attributes: attributes,
                options: flags.options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
        bar.finish(result)
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
        let result = try await reporting(bar) {
            try await client.resumableDownload(
                bucket: source.bucket,
                key: source.key ?? "",
                to: path,
                options: flags.options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
        bar.finish(result)
    }

    /// Object → object in the same service: one server-side `CopyObject`.
    static func copy(from source: ObjectURL, to destination: ObjectURL, client: ObjectStorageClient) async throws {
        try await client.copyObject(
            bucket: destination.bucket,
            key: destination.key ?? "",
            sourceBucket: source.bucket,
            sourceKey: source.key ?? ""
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
}

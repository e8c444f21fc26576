//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorage

/// What a small backup tool does with the SDK, each with only `import ObjectStorage`.
public struct Backups: Sendable {
    public let client: ObjectStorageClient
    public let bucket: String

    public init(client: ObjectStorageClient, bucket: String) {
        self.client = client
        self.bucket = bucket
    }

    /// A client configured by the environment, as `objstore` is (`OSS_ENDPOINT`, `OSS_REGION`, the OSS keys).
    public static func fromEnvironment(bucket: String) throws -> Backups {
        Backups(client: ObjectStorageClient(configuration: try .environment(.oss)), bucket: bucket)
    }

    /// A link that lets anyone download `key` for ten minutes (OSS V4 with the environment's credentials).
    public func shareLink(_ key: String) async throws -> String {
        try await self.client.presign(bucket: self.bucket, key: key, expires: .seconds(600)).url
    }

    /// Uploads `file` in 5 MiB parts, 8 at a time, resuming from its checkpoint after a crash.
    public func backUp(
        _ file: String,
        as key: String,
        progress: @escaping TransferProgressHandler
    ) async throws
        -> TransferResult
    {
        let options = TransferOptions(partSize: 5 << 20, concurrency: 8, enableCheckpoint: true)
        return try await self.client.uploadFile(
            from: file,
            bucket: self.bucket,
            key: key,
            options: options,
            progress: progress
        )
    }

    /// Downloads `key` to `file`, resuming from its checkpoint after a crash.
    public func restore(_ key: String, to file: String) async throws -> TransferResult {
        let options = TransferOptions(concurrency: 8, enableCheckpoint: true)
        return try await self.client.resumableDownload(bucket: self.bucket, key: key, to: file, options: options)
    }
}

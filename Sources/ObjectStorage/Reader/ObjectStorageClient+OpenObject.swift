//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import Synchronization

extension ObjectStorageClient {
    /// Opens an object for random access: one GET of its last ``ObjectReader/Options/endCacheSize`` bytes learns
    /// its size and ETag and fills the tail cache.
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: A specific version, which every read then asks for.
    ///   - options: The caches and the read-ahead.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: A reader pinned to the object as it is now.
    /// - Throws: ``ServiceError`` (`NoSuchKey`...), ``ObjectStorageError`` with
    ///   ``ObjectStorageError/Code/unsupported`` when the server ignores `Range`.
    public func openObject(
        bucket: String,
        key: String,
        versionID: String? = nil,
        options: ObjectReader.Options = ObjectReader.Options(),
        logger: Logger? = nil
    ) async throws -> ObjectReader {
        try await self.openReader(.object(bucket: bucket, key: key), versionID: versionID, options, logger)
    }

    /// Opens the object a presigned GET URL names for random access (every read sends that URL, with its own
    /// `Range` and `If-Match`).
    ///
    /// - Parameters:
    ///   - presignedURL: A presigned GET URL, valid as long as the reader is used.
    ///   - options: The caches and the read-ahead.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: A reader pinned to the object as it is now.
    /// - Throws: As ``openObject(bucket:key:versionID:options:logger:)``.
    public func openObject(
        presignedURL: String,
        options: ObjectReader.Options = ObjectReader.Options(),
        logger: Logger? = nil
    ) async throws -> ObjectReader {
        try await self.openReader(.presigned(url: presignedURL), versionID: nil, options, logger)
    }

    private func openReader(
        _ source: ResumableDownloadSource,
        versionID: String?,
        _ options: ObjectReader.Options,
        _ logger: Logger?
    ) async throws -> ObjectReader {
        let opened = try await ObjectReaderOpening.open(
            source,
            versionID: versionID,
            client: self,
            tailSize: options.endCacheSize,
            logger: logger
        )
        let reader = ObjectReader(client: self, source: source, opened: opened, options: options, logger: logger)
        reader.state.withLock { $0.requests = 1 }
        return reader
    }
}

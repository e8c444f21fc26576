//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DirectoryJob {
    /// Transfers one object; returns the stamp to record when it differs from the planned one (a download's or a
    /// copy's ETag as the service answered it).
    func move(
        _ source: DirectoryEntry,
        key: String?,
        path: String?,
        isLarge: Bool,
        options: TransferOptions
    ) async throws
        -> String?
    {
        switch self.direction {
        case .upload:
            guard let file = source.path, let key else { return nil }
            _ = try await self.client.uploadFile(
                from: file,
                bucket: self.bucket,
                key: key,
                attributes: self.attributes,
                options: options,
                logger: self.logger
            )
            return nil
        case .copy:
            guard let key, let sourceKey = source.key, let origin = self.copySource else { return nil }
            if origin.client == nil, !isLarge, let etag = source.etag {
                // A small object inside one service: one CopyObject pinned to the listed ETag, as a small download
                // is one GET pinned to it; no HeadObject of its own.
                _ = try await self.client.copyObject(
                    bucket: self.bucket,
                    key: key,
                    sourceBucket: origin.bucket,
                    sourceKey: sourceKey,
                    sourceVersionID: source.versionID,
                    sourceIfMatch: etag,
                    attributes: self.attributes,
                    condition: options.writeCondition,
                    logger: self.logger
                )
                return etag
            }
            let result = try await self.client.resumableCopy(
                bucket: self.bucket,
                key: key,
                from: origin.client,
                sourceBucket: origin.bucket,
                sourceKey: sourceKey,
                sourceVersionID: source.versionID,
                attributes: self.attributes,
                options: options,
                logger: self.logger
            )
            return source.etag ?? result.etag
        case .download:
            guard let path, let key = source.key, let root = self.root else { return nil }
            let destination = try LocalPaths.destination(of: path, under: root, creating: true)
            if isLarge {
                let result = try await self.client.resumableDownload(
                    bucket: self.bucket,
                    key: key,
                    versionID: source.versionID,
                    to: destination,
                    options: options,
                    logger: self.logger
                )
                if let lastModified = source.lastModified {
                    TemporaryFile.setModificationTime(of: destination, to: lastModified)
                }
                return result.etag
            }
            var request = GetObjectRequest(bucket: self.bucket, key: key)
            request.ifMatch = source.etag
            request.versionID = source.versionID
            let attributes = try await self.client.download(
                request,
                to: destination,
                through: destination.name + Self.partialSuffix,
                listedSize: source.size,
                logger: self.logger
            )
            return attributes.etag
        }
    }

    /// Whether the file's MD5 is `md5` (hexadecimal).
    static func file(_ path: String, size: Int64, hasMD5 md5: String) throws -> Bool {
        let digest = try FileRegionDigest.compute(path: path, range: 0..<size)
        guard let md5Base64 = digest.md5Base64, let bytes = Data(base64Encoded: md5Base64) else { return false }
        return ByteEncoding.hex(Array(bytes)) == md5
    }

}

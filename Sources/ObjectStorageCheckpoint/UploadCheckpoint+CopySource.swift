//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension UploadCheckpoint {
    /// The object a server-side multipart copy reads: every UploadPartCopy names it with `If-Match` on ``etag``,
    /// so a source replaced between two parts fails the copy instead of mixing two versions, and a checkpoint
    /// whose source no longer has this ETag is discarded.
    package struct CopySource: Codable, Hashable, Sendable {
        /// The source bucket.
        package var bucket: String
        /// The source key.
        package var key: String
        /// The source version, when the caller named one.
        package var versionID: String?
        /// The source's ETag as the service reported it when the copy started.
        package var etag: String
        /// For a copy streamed through the client from another endpoint, the source's vendor and endpoint
        /// (`oss https://oss-cn-hangzhou.aliyuncs.com`); absent for a server-side copy.
        package var endpoint: String?

        /// Creates a copy source.
        ///
        /// - Parameters:
        ///   - bucket: The source bucket.
        ///   - key: The source key.
        ///   - versionID: The source version, if named.
        ///   - etag: The source's ETag.
        ///   - endpoint: For a streamed copy, the source's vendor and endpoint.
        package init(bucket: String, key: String, versionID: String?, etag: String, endpoint: String? = nil) {
            self.bucket = bucket
            self.key = key
            self.versionID = versionID
            self.etag = etag
            self.endpoint = endpoint
        }
    }
}

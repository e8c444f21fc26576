//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// The transfer engine `cp` uses, one function per direction, so each can move to the resumable
/// engines (`uploadFile`, `resumableDownload`, multipart copy) on its own.
enum CopyTransfer {
    /// Local file → object: one `PutObject` streamed from the file.
    static func upload(
        file path: String,
        to destination: ObjectURL,
        contentType: String?,
        client: ObjectStorageClient
    ) async throws {
        var request = PutObjectRequest(bucket: destination.bucket, key: destination.key ?? "", body: .file(path: path))
        request.contentType = contentType
        try await client.putObject(request)
    }

    /// Object → local file: one `GetObject` into a temporary file renamed over `path` when complete.
    static func download(from source: ObjectURL, toFile path: String, client: ObjectStorageClient) async throws {
        try await client.getObject(GetObjectRequest(bucket: source.bucket, key: source.key ?? ""), toFile: path)
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
}

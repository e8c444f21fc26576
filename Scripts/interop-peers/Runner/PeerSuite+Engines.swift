//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTransport

/// The resumable engines against the peer, checkpoint on: a transfer paused (its task cancelled) while a
/// request is held, then resumed from its checkpoint by a second call.
extension PeerSuite {
    /// uploadFile: 5 MiB parts (S3's minimum), one at a time; paused when part 2 is sent, so part 1 is
    /// recorded in the checkpoint. The resumed call sends only parts 2 and 3; GET returns the file's bytes.
    func uploadFilePausedAndResumed() async throws {
        let key = "engine-upload.bin"
        let bytes = Pattern.bytes(count: 2 * Self.partSize + 4321, seed: 9)
        try await self.withPausedUpload(key: key, bytes: bytes) { path in
            let checkpoint = try Files.load(path + ".ucp")
            try require(!checkpoint.isEmpty, "no checkpoint after the pause")
            let result = try await self.client.uploadFile(
                from: path,
                bucket: self.bucket,
                key: key,
                options: Self.uploadOptions
            )
            try require(result.isMultipart, "the resumed upload is not multipart")
            try require(
                result.partsReused == 1 && result.partsTransferred == 2,
                "reused \(result.partsReused) and sent \(result.partsTransferred) parts; expected 1 and 2"
            )
            try require(
                result.bytesReused == Int64(Self.partSize)
                    && result.bytesTransferred == Int64(bytes.count - Self.partSize),
                "reused \(result.bytesReused) and sent \(result.bytesTransferred) bytes"
            )
            let (_, body) = try await self.get(key)
            try require(body == bytes, "GET returned \(body.count) bytes that differ from the file (\(bytes.count))")
            try require((try? Files.load(path + ".ucp")) == nil, "the checkpoint was not removed")
            let etag = try result.etag.orFail("the result has no ETag")
            try require(!etag.isEmpty && etag != "\"\"", "the result's ETag is empty")
            if self.peer.keepsMultipartETag {
                let head = try await self.client.headObject(bucket: self.bucket, key: key)
                try require(head.etag == etag, "the result's ETag \(etag) is not HEAD's \(head.etag ?? "nil")")
            }
        }
    }

    /// resumableDownload: 256 KiB parts, one at a time; paused when the fourth part is requested, so three
    /// parts are kept. The resumed call fetches only the rest; the file equals the object.
    func resumableDownloadPausedAndResumed(key: String, bytes: [UInt8], upload: Bool) async throws {
        if upload { try await self.put(key, bytes) }
        let path = self.scratch("engine-download.bin")
        defer {
            Files.remove(path)
            Files.remove(path + ".dcp")
            Files.remove(path + ".part")
        }
        let options = TransferOptions(partSize: 256 * 1024, concurrency: 1, enableCheckpoint: true)
        try await self.pause(heldAfter: 3, matching: HoldingTransport.rangedGet) { client in
            _ = try await client.resumableDownload(bucket: self.bucket, key: key, to: path, options: options)
        }
        try require(!(try Files.load(path + ".dcp")).isEmpty, "no checkpoint after the pause")

        let result = try await self.client.resumableDownload(bucket: self.bucket, key: key, to: path, options: options)
        try require(
            result.bytesReused == 3 * options.partSize,
            "kept \(result.bytesReused) bytes; expected the 3 parts done before the pause"
        )
        try require(
            result.bytesTransferred == Int64(bytes.count) - result.bytesReused,
            "fetched \(result.bytesTransferred) bytes again"
        )
        let downloaded = try Files.load(path)
        try require(downloaded == bytes, "the file (\(downloaded.count) bytes) differs from the object")
    }

    /// resumableDownload of an object uploaded in 5 MiB parts, with the default 8 MiB parts (the part size comes
    /// from `?partNumber=1` or is found among the common ones, and the file is read back) and with 5 MiB parts (each
    /// part's MD5 is taken as it arrives): a peer that keeps the multipart ETag gets it verified both times.
    func resumableDownloadVerifiesMultipartETag() async throws {
        let key = "multipart-etag.bin"
        let bytes = Pattern.bytes(count: 2 * Self.partSize + 4321, seed: 12)
        let source = try self.sourceFile(key, bytes)
        defer { Self.removeSourceFile(source) }
        let upload = try await self.client.uploadFile(
            from: source,
            bucket: self.bucket,
            key: key,
            options: TransferOptions(partSize: Int64(Self.partSize), concurrency: 2)
        )
        try require(upload.isMultipart, "the upload was not multipart")
        let etag = try await self.client.headObject(bucket: self.bucket, key: key).etag.orFail("HEAD has no ETag")
        let bare = String(etag.filter { $0 != "\"" }).lowercased()
        for partSize in [TransferOptions.defaultPartSize, Int64(Self.partSize)] {
            let path = self.scratch("multipart-etag-\(partSize).bin")
            defer { Files.remove(path) }
            let result = try await self.client.resumableDownload(
                bucket: self.bucket,
                key: key,
                to: path,
                options: TransferOptions(partSize: partSize, enableCheckpoint: false)
            )
            try require(try Files.load(path) == bytes, "the file differs from the object (\(partSize)-byte parts)")
            if self.peer.keepsMultipartETag {
                try require(
                    result.verification == .multipartETag(bare, partSize: Int64(Self.partSize)),
                    "\(partSize)-byte parts: verified \(result.verification), expected the multipart ETag \(bare)"
                )
            }
        }
    }

    /// uploadFile's options in these checks: 5 MiB parts (S3's minimum), one at a time, checkpoint on.
    static let uploadOptions = TransferOptions(partSize: Int64(partSize), concurrency: 1, enableCheckpoint: true)

    /// Writes `bytes` to a scratch file named after `key` and returns its path.
    func sourceFile(_ key: String, _ bytes: [UInt8]) throws -> String {
        let path = self.scratch(key)
        try Files.store(bytes, to: path)
        return path
    }

    /// Removes a file of ``sourceFile(_:_:)`` and its checkpoint.
    static func removeSourceFile(_ path: String) {
        Files.remove(path)
        Files.remove(path + ".ucp")
    }

    /// Writes `bytes` to a scratch file, starts uploadFile of it to `key` and pauses it while part 2 is held (so
    /// part 1 is in the checkpoint), runs `body` with the file's path, then removes the file and its checkpoint.
    func withPausedUpload(key: String, bytes: [UInt8], _ body: (String) async throws -> Void) async throws {
        let path = try self.sourceFile(key, bytes)
        defer { Self.removeSourceFile(path) }
        let bucket = self.bucket
        try await self.pause(heldAfter: 1, matching: HoldingTransport.uploadPart) { client in
            _ = try await client.uploadFile(from: path, bucket: bucket, key: key, options: Self.uploadOptions)
        }
        try await body(path)
    }

    /// Runs `transfer` through a client whose transport holds every matching request after the first
    /// `limit`, cancels the transfer once one is held, and requires that it stopped as a pause.
    func pause(
        heldAfter limit: Int,
        matching: @escaping @Sendable (TransportRequest) -> Bool,
        _ transfer: @escaping @Sendable (ObjectStorageClient) async throws -> Void
    ) async throws {
        let (held, continuation) = AsyncStream.makeStream(of: Void.self)
        let transport = HoldingTransport(
            base: AsyncHTTPClientTransport.shared,
            limit: limit,
            matching: matching,
            held: continuation
        )
        let client = ObjectStorageClient(configuration: self.client.configuration, transport: transport)
        let task = Task {
            // A transfer that ends before a request is held ends the wait too.
            defer { continuation.finish() }
            try await transfer(client)
        }
        for await _ in held { break }
        task.cancel()
        switch await task.result {
        case .success:
            throw CheckFailure("the transfer finished although a request was held")
        case .failure(let error):
            try require(error is CancellationError, "the paused transfer threw \(error), not CancellationError")
        }
    }
}

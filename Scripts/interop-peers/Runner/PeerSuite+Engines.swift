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
        let path = self.scratch("engine-upload.bin")
        try Files.store(bytes, to: path)
        defer {
            Files.remove(path)
            Files.remove(path + ".ucp")
        }
        let options = TransferOptions(partSize: Int64(Self.partSize), concurrency: 1, enableCheckpoint: true)
        let bucket = self.bucket
        try await self.pause(heldAfter: 1, matching: HoldingTransport.uploadPart) { client in
            _ = try await client.uploadFile(from: path, bucket: bucket, key: key, options: options)
        }
        let checkpoint = try Files.load(path + ".ucp")
        try require(!checkpoint.isEmpty, "no checkpoint after the pause")

        let result = try await self.client.uploadFile(from: path, bucket: bucket, key: key, options: options)
        try require(result.isMultipart, "the resumed upload is not multipart")
        try require(
            result.partsReused == 1 && result.partsTransferred == 2,
            "reused \(result.partsReused) and sent \(result.partsTransferred) parts; expected 1 and 2"
        )
        try require(
            result.bytesReused == Int64(Self.partSize) && result.bytesTransferred == Int64(bytes.count - Self.partSize),
            "reused \(result.bytesReused) and sent \(result.bytesTransferred) bytes"
        )
        let (_, body) = try await self.get(key)
        try require(body == bytes, "GET returned \(body.count) bytes that differ from the file (\(bytes.count))")
        try require((try? Files.load(path + ".ucp")) == nil, "the checkpoint was not removed")
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

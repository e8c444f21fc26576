//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// The server-side copy engine against the peer: a multipart copy (UploadPartCopy) paused while part 2 is held,
/// then resumed from its checkpoint by a second call.
extension PeerSuite {
    /// 5 MiB parts, one at a time, multipart forced, checkpoint at `checkpoint`.
    static func copyOptions(checkpoint: String) -> TransferOptions {
        var options = TransferOptions(partSize: Int64(Self.partSize), concurrency: 1, enableCheckpoint: true)
        options.checkpointFilePath = checkpoint
        options.forceMultipart = true
        return options
    }

    /// resumableCopy: 5 MiB parts, one at a time, multipart forced; paused when part 2 is sent, so part 1 is
    /// recorded. The resumed call copies only parts 2 and 3; GET of the copy returns the source's bytes. A peer
    /// without UploadPartCopy must make the copy fail with its error and leave no multipart upload behind.
    func copyPausedAndResumed() async throws {
        let bytes = Pattern.bytes(count: 2 * Self.partSize + 4321, seed: 21)
        try await self.put("copy-source.bin", bytes)
        let checkpoint = self.scratch("copy.ccp")
        defer {
            Files.remove(checkpoint)
            Files.remove(checkpoint + ".lock")
        }
        let options = Self.copyOptions(checkpoint: checkpoint)
        let bucket = self.bucket
        guard self.peer.copiesParts else {
            do {
                _ = try await self.client.resumableCopy(
                    bucket: bucket,
                    key: "copy.bin",
                    sourceBucket: bucket,
                    sourceKey: "copy-source.bin",
                    options: options
                )
                throw CheckFailure("the copy succeeded on a peer that is not expected to copy parts")
            } catch let error as ObjectStorageError {
                try require(error.code == .invalidResponse, "the copy failed with \(error), not invalidResponse")
            }
            var pending = 0
            for try await page in self.client.listMultipartUploads(bucket: bucket) { pending += page.uploads.count }
            try require(pending == 0, "\(pending) multipart uploads left behind by the failed copy")
            try require((try? Files.load(checkpoint)) == nil, "the failed copy left its checkpoint")
            return
        }
        try await self.pause(heldAfter: 1, matching: HoldingTransport.uploadPart) { client in
            _ = try await client.resumableCopy(
                bucket: bucket,
                key: "copy.bin",
                sourceBucket: bucket,
                sourceKey: "copy-source.bin",
                options: options
            )
        }
        try require(!(try Files.load(checkpoint)).isEmpty, "no checkpoint after the pause")
        let result = try await self.client.resumableCopy(
            bucket: bucket,
            key: "copy.bin",
            sourceBucket: bucket,
            sourceKey: "copy-source.bin",
            options: options
        )
        try require(
            result.isMultipart && result.partsReused == 1 && result.partsTransferred == 2,
            "reused \(result.partsReused) and copied \(result.partsTransferred) parts; expected 1 and 2"
        )
        let (_, body) = try await self.get("copy.bin")
        try require(body == bytes, "GET of the copy returned \(body.count) bytes that differ from the source")
        try require((try? Files.load(checkpoint)) == nil, "the checkpoint was not removed")
    }

    /// resumableCopy paused after part 1, then the source replaced: the next call finds another ETag, aborts the
    /// old upload and copies the new source whole (one restart), never a mix of the two.
    func copySourceReplacedBetweenRuns() async throws {
        guard self.peer.copiesParts else { return }
        try await self.put("copy-replaced.bin", Pattern.bytes(count: 2 * Self.partSize + 99, seed: 22))
        let checkpoint = self.scratch("copy-replaced.ccp")
        defer {
            Files.remove(checkpoint)
            Files.remove(checkpoint + ".lock")
        }
        let options = Self.copyOptions(checkpoint: checkpoint)
        let bucket = self.bucket
        let copy: @Sendable (ObjectStorageClient) async throws -> TransferResult = { client in
            try await client.resumableCopy(
                bucket: bucket,
                key: "copy-replaced-copy.bin",
                sourceBucket: bucket,
                sourceKey: "copy-replaced.bin",
                options: options
            )
        }
        try await self.pause(heldAfter: 1, matching: HoldingTransport.uploadPart) { _ = try await copy($0) }
        let replacement = Pattern.bytes(count: 2 * Self.partSize + 12_345, seed: 23)
        try await self.put("copy-replaced.bin", replacement)
        let result = try await copy(self.client)
        try require(result.restarts == 1, "the copy restarted \(result.restarts) times; expected 1")
        let (_, body) = try await self.get("copy-replaced-copy.bin")
        try require(body == replacement, "the copy (\(body.count) bytes) is not the replaced source")
        var pending = 0
        for try await page in self.client.listMultipartUploads(bucket: bucket) { pending += page.uploads.count }
        try require(pending == 0, "\(pending) multipart uploads left behind")
    }

    /// resumableCopy from another client (the same peer, reached as another account would be): streamed through
    /// this process, 5 MiB parts. By default each part goes from its GET straight into its UploadPart (no
    /// Content-MD5; the part's ETag is compared with the MD5 of the bytes); with enableMD5Check each part is read
    /// whole and carries its Content-MD5. Both copies must read back as the source.
    func streamedCopy() async throws {
        let bytes = Pattern.bytes(count: 2 * Self.partSize + 777, seed: 23)
        try await self.put("streamed-source.bin", bytes)
        for checksContentMD5 in [false, true] {
            var options = TransferOptions(partSize: Int64(Self.partSize), concurrency: 2)
            options.forceMultipart = true
            options.enableMD5Check = checksContentMD5
            let key = checksContentMD5 ? "streamed-md5.bin" : "streamed.bin"
            let result = try await self.client.resumableCopy(
                bucket: self.bucket,
                key: key,
                from: self.client,
                sourceBucket: self.bucket,
                sourceKey: "streamed-source.bin",
                options: options
            )
            try require(
                result.partCount == 3 && result.contentMD5Verified == checksContentMD5,
                "\(key): \(result.partCount) parts, contentMD5Verified \(result.contentMD5Verified)"
            )
            let (_, body) = try await self.get(key)
            try require(body == bytes, "GET of \(key) returned \(body.count) bytes that differ from the source")
        }
    }
}

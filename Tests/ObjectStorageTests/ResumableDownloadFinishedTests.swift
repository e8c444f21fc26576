//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Resumable download: killed after the rename, before the checkpoint was removed")
struct ResumableDownloadFinishedTests {
    static let partSize: Int64 = 128 * 1024

    /// Leaves the state a SIGKILL between the final rename and the checkpoint's removal leaves: the
    /// checkpoint records every part, the temp file is gone, the destination holds `destinationBytes`.
    static func killedAfterRename(
        _ client: ObjectStorageClient,
        counting: CountingTransport,
        content: [UInt8],
        destination: String,
        destinationBytes: [UInt8]
    ) async throws {
        let paused = try await pauseDownload(
            client,
            counting: counting,
            bucket: "done",
            key: "k",
            to: destination,
            options: smallPartOptions(partSize: partSize, concurrency: 1),
            afterBytes: 500_000
        )
        try #require(paused)
        // A foreign expectation returns the authentic checkpoint as `previous`.
        let foreign = DownloadCheckpoint.Expectation(
            identity: DownloadCheckpoint.Identity(
                vendor: "x",
                endpoint: "x",
                bucket: "x",
                key: "x",
                destinationPath: "x"
            ),
            object: DownloadCheckpoint.ObjectState(size: 0, etag: "x")
        )
        let checkpointPath = destination + ".dcp"
        var checkpoint = try #require(
            CheckpointStore(logger: .scanning).load(at: checkpointPath, expecting: foreign).previous
        )
        #expect(!checkpoint.missingParts.isEmpty)
        for index in checkpoint.missingParts {
            let range = checkpoint.layout.localRange(ofPart: index)
            try checkpoint.markPartCompleted(
                index,
                crc64: CRC64.checksum(
                    Array(content[Int(range.lowerBound)..<Int(range.upperBound)]),
                    polynomial: checkpoint.object.crc64Polynomial
                )
            )
        }
        try CheckpointStore(logger: .scanning).save(checkpoint, to: checkpointPath)
        try FileManager.default.removeItem(atPath: destination + ".part")
        try Data(destinationBytes).write(to: URL(fileURLWithPath: destination))
        counting.reset()
    }

    @Test("the complete destination is kept: nothing is fetched again", arguments: [ClientDialect.ossV4, .s3, .obs])
    func completeDestinationFinishes(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024 + 777, seed: 51)
        let counting = DownloadBox<CountingTransport>()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: counting.transportFactory)
            try await client.createBucket(bucket: "done")
            try await client.putObject(PutObjectRequest(bucket: "done", key: "k", body: .bytes(content)))
            let destination = scratch.file("done.bin")
            let transport = try #require(counting.value)
            try await Self.killedAfterRename(
                client,
                counting: transport,
                content: content,
                destination: destination,
                destinationBytes: content
            )

            let result = try await client.resumableDownload(
                bucket: "done",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: Self.partSize)
            )
            #expect(transport.received == 0)
            #expect(result.bytesTransferred == 0)
            #expect(result.bytesReused == Int64(content.count))
            #expect(try fileBytes(destination) == content)
            #expect(!fileExists(destination + ".dcp"))
            #expect(!fileExists(destination + ".part"))
            switch dialect.provider {
            case .oss: #expect(result.verification == .crc64(CRC64.checksum(content)))
            case .s3: #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
            default: #expect(result.verification == .md5(ByteEncoding.hex(Hashing.MD5.hash(content))))
            }
        }
    }

    @Test("a destination with other bytes is downloaded again", arguments: [ClientDialect.ossV4, .s3])
    func damagedDestinationRestarts(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024, seed: 52)
        var damaged = content
        damaged[1_500_000] ^= 0x01
        let counting = DownloadBox<CountingTransport>()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: counting.transportFactory)
            try await client.createBucket(bucket: "done")
            try await client.putObject(PutObjectRequest(bucket: "done", key: "k", body: .bytes(content)))
            let destination = scratch.file("damaged.bin")
            let transport = try #require(counting.value)
            try await Self.killedAfterRename(
                client,
                counting: transport,
                content: content,
                destination: destination,
                destinationBytes: damaged
            )

            let result = try await client.resumableDownload(
                bucket: "done",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: Self.partSize)
            )
            #expect(result.bytesTransferred == Int64(content.count))
            #expect(result.bytesReused == 0)
            #expect(try fileBytes(destination) == content)
            #expect(!fileExists(destination + ".dcp"))
        }
    }
}

@Suite("Resumable download: file-system errors name their reason")
struct ResumableDownloadFileSystemErrorTests {
    @Test("a checkpoint that cannot be locked names the system's reason")
    func lockFailureNamesReason() async throws {
        let scratch = try ScratchDirectory()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            // /sys refuses new files (EACCES, or EROFS where it is mounted read-only).
            let options = TransferOptions(enableCheckpoint: true, checkpointFilePath: "/sys/h8-lock-test.dcp")
            do {
                _ = try await client.resumableDownload(bucket: "b", key: "k", to: scratch.file("d"), options: options)
                Issue.record("the download started")
            } catch let error as ObjectStorageError {
                #expect(error.code == .fileSystem)
                #expect(error.message.hasPrefix("cannot lock the checkpoint '/sys/h8-lock-test.dcp': "), "\(error)")
                #expect(error.message.contains("(errno "), "\(error)")
            }
        }
    }
}

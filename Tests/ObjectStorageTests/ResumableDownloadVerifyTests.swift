//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Resumable download: re-verifying kept parts on resume")
struct ResumableDownloadVerifyTests {
    /// How a recorded part's bytes are spoiled behind the checkpoint's back.
    enum Damage: String, CustomStringConvertible {
        /// One byte flipped: damaged on disk.
        case flippedByte
        /// The whole part reads as zeros: its bytes never reached the disk before a power loss (checkpoints are
        /// saved without syncing the temp file, which is preallocated).
        case neverWritten
        var description: String { rawValue }
    }

    @Test(
        "a part recorded done whose bytes in the temp file are wrong is fetched again",
        arguments: [ClientDialect.ossV4, .s3],
        [Damage.flippedByte, .neverWritten]
    )
    func damagedKeptPartIsRefetched(_ dialect: ClientDialect, damage: Damage) async throws {
        let scratch = try ScratchDirectory()
        let partSize: Int64 = 128 * 1024
        let content = testBytes(2 * 1024 * 1024, seed: 31)
        let counting = DownloadBox<CountingTransport>()
        let handler = InMemoryLogHandler()
        var logger = Logger.scanning(label: "rd-verify", alsoTo: handler)
        logger.logLevel = .debug
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(logger: logger, transport: counting.transportFactory)
            try await client.createBucket(bucket: "verify")
            try await client.putObject(PutObjectRequest(bucket: "verify", key: "k", body: .bytes(content)))
            let destination = scratch.file("kept.bin")
            // One part at a time: after 1.1 MB the first eight parts (1 MiB) are recorded done.
            let options = smallPartOptions(partSize: partSize, concurrency: 1)
            let paused = try await pauseDownload(
                client,
                counting: try #require(counting.value),
                bucket: "verify",
                key: "k",
                to: destination,
                options: options,
                afterBytes: 1_100_000
            )
            try #require(paused)

            // Damage part 1 in the temp file, behind the checkpoint's back.
            let temp = try FileHandle(forUpdating: URL(fileURLWithPath: destination + ".part"))
            switch damage {
            case .flippedByte:
                try temp.seek(toOffset: UInt64(partSize) + 10)
                let original = try #require(try temp.read(upToCount: 1)?.first)
                try temp.seek(toOffset: UInt64(partSize) + 10)
                try temp.write(contentsOf: Data([original ^ 0xFF]))
            case .neverWritten:
                try temp.seek(toOffset: UInt64(partSize))
                try temp.write(contentsOf: Data(count: Int(partSize)))
            }
            try temp.close()

            let result = try await client.resumableDownload(
                bucket: "verify",
                key: "k",
                to: destination,
                options: options
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.bytesReused > 0)
            #expect(result.bytesReused % partSize == 0)
            #expect(result.bytesReused <= 1_100_000 - partSize)
            #expect(result.bytesReused + result.bytesTransferred == Int64(content.count))
            if case .none = result.verification {
                Issue.record("the final bytes were not verified: \(result.verification)")
            }
            let notice = handler.entries.first { $0.message.description.contains("fetching them again") }
            #expect(notice?.metadata["os.parts"]?.description == "[1]")
        }
    }

    @Test("an intact temp file keeps every recorded part")
    func intactPartsAreKept() async throws {
        let scratch = try ScratchDirectory()
        let partSize: Int64 = 128 * 1024
        let content = testBytes(1024 * 1024 + 5, seed: 32)
        let counting = DownloadBox<CountingTransport>()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: counting.transportFactory)
            try await client.createBucket(bucket: "verify")
            try await client.putObject(PutObjectRequest(bucket: "verify", key: "k", body: .bytes(content)))
            let destination = scratch.file("intact.bin")
            let options = smallPartOptions(partSize: partSize, concurrency: 1)
            let counter = try #require(counting.value)
            let paused = try await pauseDownload(
                client,
                counting: counter,
                bucket: "verify",
                key: "k",
                to: destination,
                options: options,
                afterBytes: 600_000
            )
            try #require(paused)
            counter.reset()
            let result = try await client.resumableDownload(
                bucket: "verify",
                key: "k",
                to: destination,
                options: options
            )
            #expect(try fileBytes(destination) == content)
            // Parts 0...3 (512 KiB) were recorded before the pause at 600,000 bytes and are kept.
            #expect(result.bytesReused >= 4 * partSize)
            #expect(counter.received == Int64(content.count) - result.bytesReused)
        }
    }

    @Test("OBS: a whole-object CRC-64 in x-obs-hash-crc64ecma is verified", arguments: [true, false])
    func obsCRC64(_ matches: Bool) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(1024 * 1024 + 17, seed: 33)
        let crc = CRC64.checksum(content)
        let advertised = matches ? crc : crc ^ 0x8000
        // The local server keeps no CRC-64 in the OBS dialect: add the header OBS sends to its HEAD answers.
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            HeadHeaderTransport(base: base, name: "x-obs-hash-crc64ecma", value: String(advertised))
        }
        try await LocalObjectServer.withRunning(vendor: .obs, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "obs-crc")
            try await client.putObject(PutObjectRequest(bucket: "obs-crc", key: "k", body: .bytes(content)))
            let destination = scratch.file("obs.bin")
            let options = smallPartOptions(partSize: 256 * 1024)
            if matches {
                let result = try await client.resumableDownload(
                    bucket: "obs-crc",
                    key: "k",
                    to: destination,
                    options: options
                )
                #expect(result.verification == .crc64(crc))
                #expect(result.crc64 == crc)
                #expect(try fileBytes(destination) == content)
            } else {
                let error = await #expect(throws: ObjectStorageError.self) {
                    try await client.resumableDownload(bucket: "obs-crc", key: "k", to: destination, options: options)
                }
                #expect(error?.code == .integrityMismatch)
                #expect(!fileExists(destination))
            }
        }
    }
}

extension ResumableDownloadVerifyTests {
    @Test("S3: the object's x-amz-checksum-crc64nvme is asked for and verified, with no MD5 pass")
    func s3CRC64NVME() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(10 * 1024 * 1024 + 5, seed: 34)
        let (logger, log) = ResumableDownloadMultipartETagTests.debugLogger()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(logger: logger)
            try await client.createBucket(bucket: "nvme")
            // Uploaded in parts: the server combines the parts' CRCs into the object's (FULL_OBJECT).
            let source = scratch.file("source.bin")
            try Data(content).write(to: URL(fileURLWithPath: source))
            let upload = try await client.uploadFile(
                from: source,
                bucket: "nvme",
                key: "k",
                options: TransferOptions(partSize: 5 * 1024 * 1024, concurrency: 2)
            )
            #expect(upload.partCount == 3)
            let destination = scratch.file("down.bin")
            let result = try await client.resumableDownload(
                bucket: "nvme",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: 3 * 1024 * 1024),
                logger: logger
            )
            #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
            #expect(result.crc64 == nil)
            #expect(try fileBytes(destination) == content)
            #expect(ResumableDownloadMultipartETagTests.partsReadBack(log) == nil)
        }
    }

    @Test("S3: a CRC-64/NVME that does not match the bytes fails the download and leaves no file")
    func s3CRC64NVMEMismatch() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(1024 * 1024 + 3, seed: 35)
        let wrong = CRC64.base64(CRC64.checksum(content, polynomial: .nvme) ^ 1)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            HeadHeaderTransport(base: base, name: "x-amz-checksum-crc64nvme", value: wrong)
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "nvme")
            try await client.putObject(PutObjectRequest(bucket: "nvme", key: "k", body: .bytes(content)))
            let destination = scratch.file("bad.bin")
            let error = await #expect(throws: ObjectStorageError.self) {
                try await client.resumableDownload(
                    bucket: "nvme",
                    key: "k",
                    to: destination,
                    options: smallPartOptions(partSize: 256 * 1024)
                )
            }
            #expect(error?.code == .integrityMismatch)
            #expect(error?.message.contains("CRC-64/NVME") == true, "\(String(describing: error))")
            #expect(!fileExists(destination))
        }
    }

    @Test("S3: a COMPOSITE checksum (a checksum of part checksums) is not taken for the object's; the ETag is")
    func s3CompositeChecksumIsIgnored() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(700 * 1024, seed: 36)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            HeadHeaderTransport(base: base, name: "x-amz-checksum-type", value: "COMPOSITE")
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "nvme")
            try await client.putObject(PutObjectRequest(bucket: "nvme", key: "k", body: .bytes(content)))
            let destination = scratch.file("down.bin")
            let result = try await client.resumableDownload(
                bucket: "nvme",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: 256 * 1024)
            )
            #expect(result.verification == .md5(ByteEncoding.hex(Hashing.MD5.hash(content))))
            #expect(try fileBytes(destination) == content)
        }
    }
}

/// Adds one header to every HEAD answer.
struct HeadHeaderTransport: HTTPTransport {
    let base: any HTTPTransport
    let name: String
    let value: String

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        var response = try await base.execute(request, deadline: deadline, logger: logger)
        if request.method == .HEAD { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }
}

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

@Suite("Resumable download: an S3 multipart object is verified against its multipart ETag")
struct ResumableDownloadMultipartETagTests {
    static let mebibyte: Int64 = 1 << 20

    /// The server plays one without S3's `x-amz-checksum-crc64nvme` (Ceph RGW 16, `rclone serve s3`): with it, a
    /// download checks that checksum instead of the ETag.
    static func withoutS3Checksums(_ configuration: inout LocalObjectServer.Configuration) {
        configuration.keepsS3Checksums = false
    }

    /// Uploads `content` in parts of `partSize` and returns the object's ETag, unquoted.
    static func uploadInParts(
        _ client: ObjectStorageClient,
        _ content: [UInt8],
        partSize: Int64,
        source: String
    ) async throws -> String {
        try await client.createBucket(bucket: "mpu")
        try Data(content).write(to: URL(fileURLWithPath: source))
        let upload = try await client.uploadFile(
            from: source,
            bucket: "mpu",
            key: "k",
            options: TransferOptions(partSize: partSize, concurrency: 2)
        )
        try #require(upload.partCount == Int((Int64(content.count) + partSize - 1) / partSize))
        let etag = try #require(upload.etag)
        return String(etag.filter { $0 != "\"" })
    }

    @Test(
        "the service reports the part size: the parts' MD5s reproduce the ETag, streamed or read back",
        arguments: [5 << 20, 1 << 20, 8 << 20] as [Int64]
    )
    func reportedPartSize(downloadPartSize: Int64) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(Int(2 * Self.mebibyte * 5 + 1234), seed: 41)
        let (logger, log) = Self.debugLogger()
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: Self.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(logger: logger)
            let etag = try await Self.uploadInParts(
                client,
                content,
                partSize: 5 * Self.mebibyte,
                source: scratch.file("source.bin")
            )
            #expect(etag.hasSuffix("-3"))
            let destination = scratch.file("down.bin")
            let result = try await Self.download(client, to: destination, partSize: downloadPartSize)
            #expect(result.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            #expect(try fileBytes(destination) == content)
            // Parts of the object's size are hashed as they arrive; other sizes read the file back, part by part.
            #expect(Self.partsReadBack(log) == (downloadPartSize == 5 * Self.mebibyte ? "0" : "3"))
        }
    }

    /// Downloads object `k` of bucket `mpu` with a checkpoint and parts of `partSize`.
    static func download(_ client: ObjectStorageClient, to path: String, partSize: Int64) async throws -> TransferResult
    {
        try await client.resumableDownload(
            bucket: "mpu",
            key: "k",
            to: path,
            options: smallPartOptions(partSize: partSize)
        )
    }

    static func debugLogger() -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        var logger = Logger.scanning(label: "rd-multipart", alsoTo: handler)
        logger.logLevel = .debug
        return (logger, handler)
    }

    /// How many parts the last multipart-ETag check read back from the file, as logged.
    static func partsReadBack(_ log: InMemoryLogHandler) -> String? {
        log.entries.last { $0.message.description == "checked the multipart ETag" }?.metadata["os.parts_read_back"]?
            .description
    }

    @Test("an object completed from one part: its bytes arrive as one download part and are hashed as they come")
    func onePartObject() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(3 * 1024 * 1024 + 5, seed: 46)
        let (logger, log) = Self.debugLogger()
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: Self.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(logger: logger)
            try await client.createBucket(bucket: "mpu")
            let uploadID = try await client.createMultipartUpload(bucket: "mpu", key: "k")
            let part = try await client.uploadPart(
                bucket: "mpu",
                key: "k",
                uploadID: uploadID,
                partNumber: 1,
                body: .bytes(ByteBuffer(bytes: content))
            )
            let completed = try await client.completeMultipartUpload(
                bucket: "mpu",
                key: "k",
                uploadID: uploadID,
                parts: [part]
            )
            let etag = String(try #require(completed.etag).filter { $0 != "\"" })
            #expect(etag.hasSuffix("-1"))
            let destination = scratch.file("one.bin")
            let result = try await Self.download(client, to: destination, partSize: 8 * Self.mebibyte)
            #expect(result.verification == .multipartETag(etag, partSize: Int64(content.count)))
            #expect(Self.partsReadBack(log) == "0")
            #expect(try fileBytes(destination) == content)
        }
    }

    @Test("a service that does not report the part size: the download's own size or a common one is tried")
    func unreportedPartSizeIsFound() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(Int(2 * Self.mebibyte * 5 + 99), seed: 42)
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: Self.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(transport: PartsCountHidingTransport.init(base:))
            let etag = try await Self.uploadInParts(
                client,
                content,
                partSize: 5 * Self.mebibyte,
                source: scratch.file("source.bin")
            )
            // The download's parts are the object's (5 MiB): their MD5s are taken as they arrive.
            let aligned = try await Self.download(client, to: scratch.file("aligned.bin"), partSize: 5 * Self.mebibyte)
            #expect(aligned.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            // 1 MiB parts cannot make 3 parts of this object; 5 MiB (rclone's size) is found among the common ones.
            let other = try await Self.download(client, to: scratch.file("other.bin"), partSize: Self.mebibyte)
            #expect(other.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            #expect(try fileBytes(scratch.file("other.bin")) == content)
        }
    }

    @Test("an unreported part size that no candidate reproduces leaves the download unverified, not failed")
    func unreportedUnusualPartSize() async throws {
        let scratch = try ScratchDirectory()
        // 7 MiB parts: 5 MiB is the only common size that makes 3 parts of this object, and it is the wrong one.
        let content = testBytes(Int(2 * Self.mebibyte * 7 + 100), seed: 43)
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: Self.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(transport: PartsCountHidingTransport.init(base:))
            _ = try await Self.uploadInParts(
                client,
                content,
                partSize: 7 * Self.mebibyte,
                source: scratch.file("source.bin")
            )
            let destination = scratch.file("down.bin")
            let result = try await Self.download(client, to: destination, partSize: 8 * Self.mebibyte)
            guard case .none(let reason) = result.verification else {
                Issue.record("expected no verification, got \(result.verification)")
                return
            }
            #expect(reason.contains("part size is unknown"))
            #expect(reason.contains("5 MiB"))
            #expect(try fileBytes(destination) == content)
        }
    }

    @Test("bytes that differ from the uploaded parts fail the download and leave no destination")
    func damagedObjectFails() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(Int(2 * Self.mebibyte * 5 + 4321), seed: 44)
        let (source, destination) = (scratch.file("source.bin"), scratch.file("down.bin"))
        let options = smallPartOptions(partSize: 5 * Self.mebibyte)
        let outcome: Result<TransferResult, ObjectStorageError> = try await LocalObjectServer.withRunning {
            client,
            server in
            _ = try await Self.uploadInParts(client, content, partSize: 5 * Self.mebibyte, source: source)
            // Rot one byte of a stored 5 MiB part behind the server's back; the ETag still names the uploaded bytes.
            try Self.damageFirstByteOfAStoredPart(of: 5 << 20, under: server.configuration.storage.path ?? "")
            do {
                return .success(
                    try await client.resumableDownload(bucket: "mpu", key: "k", to: destination, options: options)
                )
            } catch let error as ObjectStorageError {
                return .failure(error)
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("the damaged object was downloaded: \(outcome)")
            return
        }
        #expect(error.code == .integrityMismatch)
        #expect(!fileExists(destination))
        #expect(!fileExists(destination + ".part"))
    }

    /// Flips byte 1000 of the stored data file of `size` bytes in the server's bucket `mpu`.
    static func damageFirstByteOfAStoredPart(of size: Int, under root: String) throws {
        let data = root + "/buckets/mpu/data"
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        let sizes = try names.map { try FileManager.default.attributesOfItem(atPath: data + "/" + $0)[.size] as? Int }
        let path = try #require(zip(names, sizes).first { $0.1 == size }.map { data + "/" + $0.0 })
        let part = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? part.close() }
        try part.seek(toOffset: 1000)
        let original = try #require(try part.read(upToCount: 1)?.first)
        try part.seek(toOffset: 1000)
        try part.write(contentsOf: Data([original ^ 0x5A]))
    }

    @Test("a resumed download reads back only the parts an earlier run fetched, and verifies")
    func resumedDownloadVerifies() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(Int(3 * Self.mebibyte * 5 + 77), seed: 45)
        let counting = DownloadBox<CountingTransport>()
        let (logger, log) = Self.debugLogger()
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: Self.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(logger: logger, transport: counting.transportFactory)
            let etag = try await Self.uploadInParts(
                client,
                content,
                partSize: 5 * Self.mebibyte,
                source: scratch.file("source.bin")
            )
            let destination = scratch.file("resumed.bin")
            let options = smallPartOptions(partSize: 5 * Self.mebibyte, concurrency: 1)
            let counter = try #require(counting.value)
            counter.reset()
            let paused = try await pauseDownload(
                client,
                counting: counter,
                bucket: "mpu",
                key: "k",
                to: destination,
                options: options,
                afterBytes: 11 * Self.mebibyte
            )
            try #require(paused)
            let result = try await client.resumableDownload(bucket: "mpu", key: "k", to: destination, options: options)
            #expect(result.bytesReused == 10 * Self.mebibyte)
            #expect(result.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            #expect(Self.partsReadBack(log) == "2")
            #expect(try fileBytes(destination) == content)
        }
    }
}

/// Drops `x-amz-mp-parts-count` from every answer, as Ceph RGW (which ignores `?partNumber=`) never sends it.
struct PartsCountHidingTransport: HTTPTransport {
    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        var response = try await base.execute(request, deadline: deadline, logger: logger)
        response.headers.remove(name: "x-amz-mp-parts-count")
        return response
    }
}

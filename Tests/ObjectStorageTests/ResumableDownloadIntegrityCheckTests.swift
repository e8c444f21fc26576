//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// `TransferOptions.integrityCheck` against a server without S3 checksums (as Ceph RGW): `.full` reads the file back
/// where nothing else proves it, `.streamed` never does, `.off` checks nothing.
@Suite("Resumable download: the integrity check chosen, and what it reads")
struct ResumableDownloadIntegrityCheckTests {
    static let mebibyte = ResumableDownloadMultipartETagTests.mebibyte

    static func options(partSize: Int64, _ check: TransferOptions.IntegrityCheck) -> TransferOptions {
        var options = smallPartOptions(partSize: partSize)
        options.integrityCheck = check
        return options
    }

    @Test("a multipart object: .streamed verifies parts that are the object's as they arrive, and reads nothing back")
    func multipartObject() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(Int(2 * Self.mebibyte * 5 + 777), seed: 61)
        let (logger, log) = ResumableDownloadMultipartETagTests.debugLogger()
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: ResumableDownloadMultipartETagTests.withoutS3Checksums
        ) { client, _ in
            let client = client.derived(logger: logger)
            let etag = try await ResumableDownloadMultipartETagTests.uploadInParts(
                client,
                content,
                partSize: 5 * Self.mebibyte,
                source: scratch.file("source.bin")
            )
            let download = { (name: String, partSize: Int64, check: TransferOptions.IntegrityCheck) in
                try await client.resumableDownload(
                    bucket: "mpu",
                    key: "k",
                    to: scratch.file(name),
                    options: Self.options(partSize: partSize, check)
                )
            }
            let aligned = try await download("aligned.bin", 5 * Self.mebibyte, .streamed)
            #expect(aligned.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            #expect(ResumableDownloadMultipartETagTests.partsReadBack(log) == "0")

            // 1 MiB parts are not the object's: .full reads the file back in its 3 parts, .streamed declines.
            let full = try await download("full.bin", Self.mebibyte, .full)
            #expect(full.verification == .multipartETag(etag, partSize: 5 * Self.mebibyte))
            #expect(ResumableDownloadMultipartETagTests.partsReadBack(log) == "3")
            let streamed = try await download("streamed.bin", Self.mebibyte, .streamed)
            #expect(ResumableDownloadMultipartETagTests.partsReadBack(log) == "0")
            guard case .none(let reason) = streamed.verification else {
                Issue.record("expected no verification, got \(streamed.verification)")
                return
            }
            #expect(reason.contains("second read"))
            #expect(try fileBytes(scratch.file("streamed.bin")) == content)
        }
    }

    @Test("a single-part object: .full checks its MD5 by reading the file back, .streamed and .off do not")
    func singlePartObject() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(3 * 1024 * 1024 + 11, seed: 62)
        try await LocalObjectServer.withRunning(
            vendor: .s3,
            logger: .scanning,
            configureServer: ResumableDownloadMultipartETagTests.withoutS3Checksums
        ) { client, _ in
            try await client.createBucket(bucket: "one")
            try await client.putObject(PutObjectRequest(bucket: "one", key: "k", body: .bytes(content)))
            var verifications: [TransferOptions.IntegrityCheck: TransferResult.Verification] = [:]
            for check in [TransferOptions.IntegrityCheck.full, .streamed, .off] {
                let destination = scratch.file("\(check).bin")
                let result = try await client.resumableDownload(
                    bucket: "one",
                    key: "k",
                    to: destination,
                    options: Self.options(partSize: Self.mebibyte, check)
                )
                #expect(try fileBytes(destination) == content)
                verifications[check] = result.verification
            }
            #expect(verifications[.full] == .md5(ByteEncoding.hex(Hashing.MD5.hash(content))))
            guard case .none(let streamed)? = verifications[.streamed], case .none(let off)? = verifications[.off]
            else {
                Issue.record("expected no verification: \(verifications)")
                return
            }
            #expect(streamed.contains("second read"))
            #expect(off.contains("turned off"))
        }
    }
}

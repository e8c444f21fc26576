//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

@Suite("uploadFile sends the service's checksum (S3's CRC-64/NVME, OBS's CRC-64/XZ), which it checks and reports back")
struct UploadFileChecksumTests {
    static let header = "x-amz-checksum-crc64nvme"
    static let obsHeader = "x-obs-checksum-crc64ecma"

    /// The checksum headers of every request, by operation (the request's method and query).
    final class Requests: Sendable {
        struct Sent: Sendable {
            var method: HTTPMethod
            var url: String
            var headers: [String: String]
        }

        let sent = Mutex<[Sent]>([])

        func transport(_ base: any HTTPTransport) -> any HTTPTransport {
            RecordingTransport(base: base) { request in
                var headers: [String: String] = [:]
                for (name, value) in request.headers
                where name.lowercased().hasPrefix("x-amz-checksum") || name.lowercased() == obsHeader {
                    headers[name.lowercased()] = value
                }
                self.sent.withLock { $0.append(Sent(method: request.method, url: request.url, headers: headers)) }
            }
        }

        var all: [Sent] { self.sent.withLock { $0 } }
    }

    /// Writes `content` to a file named `name` in `scratch` and returns its path.
    static func file(_ content: [UInt8], named name: String, in scratch: borrowing ScratchDirectory) throws -> String {
        let path = scratch.file(name)
        try Data(content).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func nvme(_ bytes: some Collection<UInt8>) -> String {
        CRC64.base64(CRC64.checksum(Array(bytes), polynomial: .nvme))
    }

    @Test("multipart: the upload is created for it, each part and the completion carry theirs")
    func multipart() async throws {
        let partSize = 5 << 20
        let content = testBytes(2 * partSize + 777, seed: 71)
        let requests = Requests()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: requests.transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "source.bin", in: scratch)
            let result = try await client.uploadFile(
                from: source,
                bucket: "crc",
                key: "k",
                options: TransferOptions(partSize: Int64(partSize), concurrency: 2)
            )
            #expect(result.partCount == 3)
            #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))

            let sent = requests.all
            let create = try #require(sent.first { $0.method == .POST && $0.url.contains("uploads") })
            #expect(create.headers["x-amz-checksum-algorithm"] == "CRC64NVME")
            #expect(create.headers["x-amz-checksum-type"] == "FULL_OBJECT")
            for number in 1...3 {
                let part = try #require(sent.first { $0.method == .PUT && $0.url.contains("partNumber=\(number)&") })
                let range = (number - 1) * partSize..<min(number * partSize, content.count)
                #expect(part.headers[Self.header] == Self.nvme(content[range]), "part \(number)")
            }
            let complete = try #require(sent.first { $0.method == .POST && $0.url.contains("uploadId=") })
            #expect(complete.headers[Self.header] == Self.nvme(content))
            #expect(complete.headers["x-amz-checksum-type"] == "FULL_OBJECT")
        }
    }

    @Test("a single PUT carries it and is verified by the value the service reports")
    func singlePut() async throws {
        let content = testBytes(300_001, seed: 72)
        let requests = Requests()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: requests.transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "small.bin", in: scratch)
            let result = try await client.uploadFile(from: source, bucket: "crc", key: "k")
            #expect(result.isMultipart == false)
            #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
            let put = try #require(requests.all.first { $0.method == .PUT && $0.url.hasSuffix("/crc/k") })
            #expect(put.headers[Self.header] == Self.nvme(content))
        }
    }

    @Test("a part damaged on the way is refused by the service (BadDigest), read again and sent again")
    func damagedPartIsSentAgain() async throws {
        let content = testBytes(2 * (5 << 20) + 3, seed: 73)
        let damaging = Mutex<FirstPartDamagingTransport?>(nil)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            let wrapped = FirstPartDamagingTransport(base: base)
            damaging.withLock { $0 = wrapped }
            return wrapped
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "source.bin", in: scratch)
            let result = try await client.uploadFile(
                from: source,
                bucket: "crc",
                key: "k",
                options: TransferOptions(partSize: 5 << 20, concurrency: 1)
            )
            #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
            // Three parts and the one the service refused.
            #expect(damaging.withLock { $0?.uploadParts.withLock { $0 } } == 4)
            let stored = try await client.getObject(GetObjectRequest(bucket: "crc", key: "k"))
            #expect(Array(try await stored.body.collect(upTo: 16 << 20).readableBytesView) == content)
        }
    }

    @Test("a part the service keeps refusing fails the upload with BadDigest and stores nothing")
    func partRefusedEveryTime() async throws {
        let content = testBytes(2 * (5 << 20) + 3, seed: 75)
        let damaging = Mutex<EveryPartDamagingTransport?>(nil)
        let transport: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            let wrapped = EveryPartDamagingTransport(base: base)
            damaging.withLock { $0 = wrapped }
            return wrapped
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            let client = client.derived(transport: transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "source.bin", in: scratch)
            let error = await #expect(throws: ServiceError.self) {
                try await client.uploadFile(
                    from: source,
                    bucket: "crc",
                    key: "k",
                    options: TransferOptions(partSize: 5 << 20, concurrency: 1)
                )
            }
            #expect(error?.code == .badDigest)
            // The policy's 3 attempts for the first part, within the one retry loop (there used to be a loop of
            // 3 around it: 9 sends).
            #expect(damaging.withLock { $0?.uploadParts.withLock { $0 } } == client.configuration.retry.maxAttempts)
            await #expect(throws: ServiceError.self) { try await client.headObject(bucket: "crc", key: "k") }
        }
    }

    @Test(
        "OBS: each part, the completion and a single PUT carry their CRC-64/XZ; the object reports it to a download",
        arguments: [2 * (5 << 20) + 777, 300_001]
    )
    func obs(size: Int) async throws {
        let partSize = 5 << 20
        let content = testBytes(size, seed: 76)
        let crc = CRC64.checksum(content, polynomial: .xz)
        let requests = Requests()
        try await LocalObjectServer.withRunning(vendor: .obs, logger: .scanning) { client, _ in
            let client = client.derived(transport: requests.transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "source.bin", in: scratch)
            let result = try await client.uploadFile(
                from: source,
                bucket: "crc",
                key: "k",
                options: TransferOptions(partSize: Int64(partSize), concurrency: 2)
            )
            #expect(result.verification == .crc64(crc))

            let sent = requests.all
            #expect(sent.allSatisfy { $0.headers.keys.allSatisfy { $0 == Self.obsHeader } })
            if result.isMultipart {
                for number in 1...3 {
                    let part = try #require(
                        sent.first { $0.method == .PUT && $0.url.contains("partNumber=\(number)&") }
                    )
                    let range = (number - 1) * partSize..<min(number * partSize, content.count)
                    let expected = String(CRC64.checksum(Array(content[range]), polynomial: .xz))
                    #expect(part.headers[Self.obsHeader] == expected, "part \(number)")
                }
                let complete = try #require(sent.first { $0.method == .POST && $0.url.contains("uploadId=") })
                #expect(complete.headers[Self.obsHeader] == String(crc))
            } else {
                let put = try #require(sent.first { $0.method == .PUT && $0.url.hasSuffix("/k") })
                #expect(put.headers[Self.obsHeader] == String(crc))
            }
            #expect(try await client.headObject(bucket: "crc", key: "k").crc64 == crc)
            let destination = scratch.file("download.bin")
            let download = try await client.resumableDownload(bucket: "crc", key: "k", to: destination)
            #expect(download.verification == .crc64(crc))
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == content)
        }
    }

    @Test(
        "with integrityCheck off (S3, OBS), or to OSS, which reports its own, no checksum is sent",
        arguments: [ClientDialect.s3, .ossV4, .obs]
    )
    func notSent(_ dialect: ClientDialect) async throws {
        let content = testBytes(2 * (5 << 20) + 5, seed: 74)
        let requests = Requests()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: requests.transport)
            try await client.createBucket(bucket: "crc")
            let scratch = try ScratchDirectory()
            let source = try Self.file(content, named: "source.bin", in: scratch)
            var options = TransferOptions(partSize: 5 << 20, concurrency: 2)
            options.integrityCheck = dialect.provider == .oss ? .full : .off
            let result = try await client.uploadFile(from: source, bucket: "crc", key: "k", options: options)
            if case .crc64NVME = result.verification { Issue.record("verified by a checksum that was not sent") }
            if dialect.provider == .obs, case .crc64 = result.verification {
                Issue.record("verified by a checksum that was not sent")
            }
            #expect(requests.all.allSatisfy { $0.headers.isEmpty }, "\(requests.all.filter { !$0.headers.isEmpty })")
        }
    }
}

/// Flips the first byte of every UploadPart body, as a path that damages every part would.
final class EveryPartDamagingTransport: HTTPTransport {
    let base: any HTTPTransport

    init(base: any HTTPTransport) {
        self.base = base
    }
    /// The UploadPart requests sent, each damaged.
    let uploadParts = Mutex(0)

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        guard request.method == .PUT, request.url.contains("partNumber="), let body = request.body else {
            return try await base.execute(request, deadline: deadline, logger: logger)
        }
        self.uploadParts.withLock { $0 += 1 }
        var altered = request
        altered.body = .stream(FirstPartDamagingTransport.FirstByteFlipped(base: body), length: body.length)
        return try await base.execute(altered, deadline: deadline, logger: logger)
    }
}

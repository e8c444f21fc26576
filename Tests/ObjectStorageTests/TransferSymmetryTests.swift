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
import ObjectStorageCheckpoint
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// `uploadFile` and `resumableDownload` mirror each other: one options type with the same defaults,
/// one result shape, one way to abandon, one error model.
@Suite("Transfers: the same options, result and errors in both directions")
struct TransferSymmetryTests {
    @Test("default options cut both directions into the same parts and leave no checkpoint")
    func sameDefaults() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(9 << 20, seed: 61)
        let source = scratch.file("source.bin")
        try Data(content).write(to: URL(fileURLWithPath: source))
        let destination = scratch.file("copy.bin")
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "same")
            let upProgress = ProgressLog()
            let up = try await client.uploadFile(from: source, bucket: "same", key: "k", progress: upProgress.handler)
            let downProgress = ProgressLog()
            let down = try await client.resumableDownload(
                bucket: "same",
                key: "k",
                to: destination,
                progress: downProgress.handler
            )
            #expect(try fileBytes(destination) == content)
            // Progress moves at least every mebibyte (plus one piece in flight), in both directions.
            for log in [upProgress, downProgress] {
                let completed = log.all.map(\.completedBytes)
                #expect(completed.last == Int64(content.count))
                #expect(zip(completed, completed.dropFirst()).allSatisfy { $1 - $0 <= 2 << 20 }, "\(completed)")
            }
            for result in [up, down] {
                #expect(result.partSize == TransferOptions.defaultPartSize)
                #expect(result.partCount == 2)
                #expect(result.bytesTransferred == Int64(content.count))
                #expect(result.bytesReused == 0)
                #expect(result.range == 0..<Int64(content.count))
            }
            #expect(up.filePath == source)
            #expect(down.filePath == destination)
            // The checkpoint is opt-in in both directions.
            #expect(!fileExists(source + ".ucp"))
            #expect(!fileExists(destination + ".dcp"))
            #expect(!fileExists(destination + ".part"))
        }
    }

    @Test("both directions refuse the same out-of-range concurrency before sending anything")
    func sameConcurrencyLimit() async throws {
        let scratch = try ScratchDirectory()
        let source = scratch.file("source.bin")
        try Data(testBytes(1000)).write(to: URL(fileURLWithPath: source))
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            for concurrency in [0, TransferOptions.maximumConcurrency + 1] {
                let options = TransferOptions(concurrency: concurrency)
                await #expect {
                    _ = try await client.uploadFile(from: source, bucket: "none", key: "k", options: options)
                } throws: { ($0 as? ObjectStorageError)?.code == .invalidArgument }
                await #expect {
                    _ = try await client.resumableDownload(
                        bucket: "none",
                        key: "k",
                        to: scratch.file("d"),
                        options: options
                    )
                } throws: { ($0 as? ObjectStorageError)?.code == .invalidArgument }
            }
        }
    }

    @Test("a resumed upload reports the bytes it reused, as a resumed download does")
    func resumedUploadReportsBytesReused() async throws {
        let scratch = try ScratchDirectory()
        let partSize: Int64 = 100 * 1024
        let content = testBytes(Int(partSize) * 3 + 5000, seed: 62)
        let source = scratch.file("source.bin")
        try Data(content).write(to: URL(fileURLWithPath: source))
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .oss, faults: faults, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "resume")
            let options = TransferOptions(partSize: partSize, concurrency: 1, enableCheckpoint: true)
            let denied = Fault.error(status: 403, code: "AccessDenied", message: "injected")
            faults.add(FaultRule(operations: [.uploadPart], trigger: .nth(3), fault: denied))
            let failure = await expectServiceError(.accessDenied, status: 403) {
                _ = try await client.uploadFile(from: source, bucket: "resume", key: "k", options: options)
            }
            // The vendor's code, request id and HTTP status stay reachable through a transfer.
            #expect(failure?.requestID != nil)
            faults.removeAll()
            let resumed = try await client.uploadFile(from: source, bucket: "resume", key: "k", options: options)
            #expect(resumed.partsReused == 2)
            #expect(resumed.bytesReused == 2 * partSize)
            #expect(resumed.bytesTransferred == Int64(content.count) - 2 * partSize)
            #expect(resumed.partsTransferred == 2)
            #expect(resumed.verification == .crc64(CRC64.checksum(content)))

            let destination = scratch.file("copy.bin")
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(3), fault: denied))
            _ = await expectServiceError(.accessDenied, status: 403) {
                _ = try await client.resumableDownload(bucket: "resume", key: "k", to: destination, options: options)
            }
            faults.removeAll()
            let downloaded = try await client.resumableDownload(
                bucket: "resume",
                key: "k",
                to: destination,
                options: options
            )
            #expect(downloaded.partsReused == 2)
            #expect(downloaded.bytesReused == 2 * partSize)
            #expect(downloaded.bytesTransferred == Int64(content.count) - 2 * partSize)
            #expect(try fileBytes(destination) == content)
        }
    }

    @Test("a held checkpoint lock is the same ObjectStorageError from both engines and both abandons")
    func lockFailureIsTheSameError() async throws {
        let scratch = try ScratchDirectory()
        let source = scratch.file("source.bin")
        try Data(testBytes(300 * 1024)).write(to: URL(fileURLWithPath: source))
        let destination = scratch.file("copy.bin")
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "lock")
            try await client.putObject(PutObjectRequest(bucket: "lock", key: "k", body: .bytes(testBytes(1000))))
            let options = TransferOptions(partSize: 100 * 1024, enableCheckpoint: true)
            let uploadLock = try CheckpointLock.acquire(for: source + ".ucp")
            defer { uploadLock.release() }
            let downloadLock = try CheckpointLock.acquire(for: destination + ".dcp")
            defer { downloadLock.release() }
            let isLocked: @Sendable (any Error) -> Bool = { ($0 as? ObjectStorageError)?.code == .checkpointLocked }
            await #expect {
                _ = try await client.uploadFile(from: source, bucket: "lock", key: "k", options: options)
            } throws: { isLocked($0) }
            await #expect {
                _ = try await client.resumableDownload(bucket: "lock", key: "k", to: destination, options: options)
            } throws: { isLocked($0) }
            await #expect {
                _ = try await client.abandonUploadFile(from: source, options: options)
            } throws: { isLocked($0) }
            await #expect {
                _ = try await client.abandonResumableDownload(to: destination, options: options)
            } throws: { isLocked($0) }
            #expect(!fileExists(destination))
        }
    }

    @Test("cancelling an upload, a download or an operation throws CancellationError", arguments: Cancelled.allCases)
    func cancellationIsCancellationError(_ cancelled: Cancelled) async throws {
        let scratch = try ScratchDirectory()
        let source = scratch.file("source.bin")
        let content = testBytes(300 * 1024, seed: 63)
        try Data(content).write(to: URL(fileURLWithPath: source))
        let destination = scratch.file("copy.bin")
        let faults = FaultInjector()
        let signalling = DownloadBox<SignallingTransport>()
        try await LocalObjectServer.withRunning(vendor: .oss, faults: faults, logger: .scanning) { client, _ in
            let client = client.derived(transport: signalling.transportFactory)
            try await client.createBucket(bucket: "cancel")
            try await client.putObject(PutObjectRequest(bucket: "cancel", key: "k", body: .bytes(content)))
            let transport = try #require(signalling.value)
            let (sent, continuation) = AsyncStream<Void>.makeStream()
            transport.onRequest(cancelled.isDelayed) { continuation.yield() }
            faults.add(FaultRule(operations: [cancelled.delayedOperation], fault: .delayBeforeHeaders(.seconds(5))))
            let options = TransferOptions(partSize: 100 * 1024, concurrency: 1, enableCheckpoint: true)
            let task = Task {
                switch cancelled {
                case .upload:
                    _ = try await client.uploadFile(from: source, bucket: "cancel", key: "k", options: options)
                case .download:
                    _ = try await client.resumableDownload(
                        bucket: "cancel",
                        key: "k",
                        to: destination,
                        options: options
                    )
                case .operation:
                    _ = try await client.headObject(bucket: "cancel", key: "k")
                }
            }
            for await _ in sent { break }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(!fileExists(destination))
        }
    }

    enum Cancelled: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case upload, download, operation

        var testDescription: String { self.rawValue }

        var delayedOperation: ObjectStorageLocalServer.ServiceOperation {
            switch self {
            case .upload: return .uploadPart
            case .download: return .getObject
            case .operation: return .headObject
            }
        }

        /// Whether a request is the one the server delays, so the task is cancelled while it waits.
        var isDelayed: @Sendable (TransportRequest) -> Bool {
            switch self {
            case .upload: return { $0.url.contains("partNumber=") }
            case .download: return { $0.method == .GET }
            case .operation: return { $0.method == .HEAD }
            }
        }
    }
}

/// Forwards every request and calls an action when a matching one is about to be sent.
final class SignallingTransport: HTTPTransport, Sendable {
    private let base: any HTTPTransport
    private let state = Mutex<(matching: (@Sendable (TransportRequest) -> Bool)?, action: (@Sendable () -> Void)?)>(
        (nil, nil)
    )

    init(base: any HTTPTransport) { self.base = base }

    func onRequest(
        _ matching: @escaping @Sendable (TransportRequest) -> Bool,
        _ action: @escaping @Sendable () -> Void
    ) {
        self.state.withLock { $0 = (matching, action) }
    }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let action = self.state.withLock { state in state.matching?(request) == true ? state.action : nil }
        action?()
        return try await self.base.execute(request, deadline: deadline, logger: logger)
    }
}

extension DownloadBox where Value == SignallingTransport {
    /// A `derived(logger:transport:)` transport factory that wraps the base transport and keeps the wrapper here.
    var transportFactory: @Sendable (any HTTPTransport) -> any HTTPTransport {
        { base in self.set(SignallingTransport(base: base)) }
    }
}

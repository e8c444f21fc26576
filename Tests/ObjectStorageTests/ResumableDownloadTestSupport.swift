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
import ObjectStorageSigning
import ObjectStorageTransport
import Synchronization
import Testing

/// Counts the response body bytes that pass through a transport, and can fire a callback once a
/// threshold is crossed (to cancel a download at an arbitrary byte count).
final class CountingTransport: HTTPTransport, Sendable {
    private let base: any HTTPTransport
    private let state = Mutex<(received: Int64, threshold: Int64?, action: (@Sendable () -> Void)?)>((0, nil, nil))

    init(base: any HTTPTransport) { self.base = base }

    var received: Int64 { self.state.withLock { $0.received } }

    func reset() { self.state.withLock { $0 = (0, nil, nil) } }

    /// Calls `action` once, when the received bytes reach `threshold`.
    func onReceived(_ threshold: Int64, _ action: @escaping @Sendable () -> Void) {
        self.state.withLock {
            $0.threshold = threshold
            $0.action = action
        }
    }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let response = try await self.base.execute(request, deadline: deadline, logger: logger)
        let body = CountingBody(base: response.body, owner: self)
        return TransportResponse(status: response.status, headers: response.headers, body: .stream(body))
    }

    fileprivate func count(_ bytes: Int) {
        let action: (@Sendable () -> Void)? = self.state.withLock { state in
            state.received += Int64(bytes)
            guard let threshold = state.threshold, state.received >= threshold else { return nil }
            defer { state.action = nil }
            return state.action
        }
        action?()
    }
}

extension CountingTransport {
    /// Forwards to the base's body delivery (the production path), counting each buffer before the consumer
    /// sees it.
    func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger,
        consumer: some ResponseBodyConsumer
    ) async throws -> TransportResponse {
        try await self.base.execute(
            request,
            deadline: deadline,
            logger: logger,
            consumer: CountingConsumer(base: consumer, owner: self)
        )
    }
}

private struct CountingConsumer<Base: ResponseBodyConsumer>: ResponseBodyConsumer {
    let base: Base
    let owner: CountingTransport

    func accept(status: HTTPResponseStatus, headers: HTTPHeaders) throws -> Bool {
        try self.base.accept(status: status, headers: headers)
    }

    func consume(_ buffer: ByteBuffer, on eventLoop: any EventLoop) throws -> BodyDemand {
        self.owner.count(buffer.readableBytes)
        return try self.base.consume(buffer, on: eventLoop)
    }
}

/// Hides a transport's event-loop body delivery, so a download takes the default
/// `execute(_:deadline:logger:consumer:)` that a custom transport without the capability gets.
struct SequenceOnlyTransport: HTTPTransport {
    let base: any HTTPTransport

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        try await self.base.execute(request, deadline: deadline, logger: logger)
    }
}

private struct CountingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: TransportResponse.Body
    let owner: CountingTransport

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportResponse.Body.AsyncIterator
        let owner: CountingTransport

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await self.base.next() else { return nil }
            self.owner.count(chunk.readableBytes)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.base.makeAsyncIterator(), owner: self.owner)
    }
}

/// Collects progress reports.
final class DownloadProgressLog: Sendable {
    private let reports = Mutex<[TransferProgress]>([])

    var all: [TransferProgress] { self.reports.withLock { $0 } }

    var handler: TransferProgressHandler { { report in self.reports.withLock { $0.append(report) } } }
}

/// A scratch directory for one test.
struct ScratchDirectory: ~Copyable {
    let path: String

    init() throws {
        self.path = temporaryPath("rd")
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: self.path) }

    func file(_ name: String) -> String { self.path + "/" + name }
}

func fileBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func sha256Hex(_ bytes: [UInt8]) -> String { ByteEncoding.hex(Hashing.SHA256.hash(bytes)) }

/// Options with small parts and a checkpoint, for fast, resumable tests.
func smallPartOptions(partSize: Int64 = 128 * 1024, concurrency: Int = 4) -> TransferOptions {
    TransferOptions(partSize: partSize, concurrency: concurrency, enableCheckpoint: true)
}

/// Starts a download and cancels it once `threshold` body bytes have arrived; returns whether
/// the download was paused (it may also have finished first).
func pauseDownload(
    _ client: ObjectStorageClient,
    counting: CountingTransport,
    bucket: String,
    key: String,
    to destination: String,
    options: TransferOptions,
    afterBytes threshold: Int64
) async throws -> Bool {
    let task = Task {
        try await client.resumableDownload(bucket: bucket, key: key, to: destination, options: options)
    }
    counting.onReceived(threshold) { task.cancel() }
    do {
        _ = try await task.value
        return false
    } catch is CancellationError {
        return true
    }
}

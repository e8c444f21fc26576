//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOPosix

/// A TCP connection that sends exactly the bytes a test writes, for requests no HTTP client would send
/// (a head that never ends, a body shorter than its `Content-Length`).
struct RawConnection {
    /// What came back before the server closed the connection or the time limit passed.
    struct Outcome {
        var received: [UInt8]
        /// Whether the server closed the connection (rather than the time limit passing).
        var closedByServer: Bool

        var text: String { String(decoding: received, as: UTF8.self) }
    }

    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Connects to `127.0.0.1:port`.
    static func connect(port: Int) async throws -> RawConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return RawConnection(channel: channel)
    }

    /// Writes `text` (UTF-8) and leaves the connection open.
    func write(_ text: String) async throws {
        try await channel.channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Whether the connection is still open (the server has not closed it, as far as this side has seen).
    var isOpen: Bool { channel.channel.isActive }

    /// Closes the connection from this side.
    func close() async throws {
        try await channel.channel.close()
    }

    /// Writes `chunks` (UTF-8) one after another, `interval` apart, as a slow client does, and returns how many were
    /// written; it stops at the first write that fails (the connection is closed).
    ///
    /// The writes are paced by the connection's event loop rather than by `Task.sleep`, so that a Swift concurrency
    /// pool kept busy by other tests cannot stretch the pauses (a pause longer than a server's timeout would change
    /// the outcome under test).
    func pace(_ chunks: [String], every interval: Duration) async throws -> Int {
        let channel = self.channel.channel
        let loop = channel.eventLoop
        let (seconds, attoseconds) = interval.components
        let pause = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return try await loop.flatSubmit {
            let done = loop.makePromise(of: Int.self)
            var written = 0
            func writeNext() {
                channel.writeAndFlush(ByteBuffer(string: chunks[written])).assumeIsolated().whenComplete { result in
                    guard case .success = result else { return done.succeed(written) }
                    written += 1
                    guard written < chunks.count else { return done.succeed(written) }
                    loop.assumeIsolated().scheduleTask(in: pause) { writeNext() }
                }
            }
            if chunks.isEmpty { done.succeed(0) } else { writeNext() }
            return done.futureResult
        }.get()
    }

    /// Reads until the server closes the connection or `limit` passes, then closes it.
    ///
    /// - Parameters:
    ///   - limit: How long to wait for the server to close.
    ///   - marker: Stop early, as if closed, once the received text contains it (for a reply whose connection
    ///     a server may keep open).
    func readUntilClosed(limit: Duration, orUntil marker: String? = nil) async throws -> Outcome {
        let channel = self.channel
        return try await withThrowingTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                var received: [UInt8] = []
                do {
                    try await channel.executeThenClose { inbound, _ in
                        for try await buffer in inbound {
                            received += buffer.readableBytesView
                            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
                        }
                    }
                } catch {
                    // A reset counts as closed by the server, with what arrived before it.
                }
                return Outcome(received: received, closedByServer: true)
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            try? await channel.channel.close()
            return Outcome(received: [], closedByServer: false)
        }
    }
}

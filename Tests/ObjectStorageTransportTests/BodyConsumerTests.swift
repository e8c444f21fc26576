//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTransport
import Synchronization
import Testing

@Suite("Response bodies delivered to a consumer on the event loop")
struct BodyConsumerTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func largeBodyArrivesIntactWithBackpressure() async throws {
        let server = try await TestHTTPServer.start()
        let total = 8 * 1024 * 1024
        let consumer = RecordingConsumer(waitEvery: 3)
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(url: server.url("/large/\(total)"))
            let response = try await transport.execute(
                request,
                deadline: .now() + .seconds(60),
                logger: logger,
                consumer: consumer
            )
            #expect(response.status == .ok)
            #expect(try await response.body.collect(upTo: 1).readableBytes == 0)
        }
        #expect(consumer.received == total)
        #expect(consumer.mismatches == 0)
        #expect(consumer.heads == [200])
        #expect(consumer.waits > 0)
        try await server.stop()
    }

    @Test func refusedAnswerKeepsItsBodyForTheCaller() async throws {
        let server = try await TestHTTPServer.start()
        let consumer = RecordingConsumer()
        try await withAsyncHTTPClientTransport { transport in
            var request = TransportRequest(url: server.url("/script/refused"))
            request.headers.add(name: "x-script", value: "404")
            let response = try await transport.execute(
                request,
                deadline: .now() + .seconds(30),
                logger: logger,
                consumer: consumer
            )
            #expect(response.status == .notFound)
            #expect(String(buffer: try await response.body.collect(upTo: 1 << 10)) == "step 1")
        }
        #expect(consumer.heads == [404])
        #expect(consumer.received == 0)
        try await server.stop()
    }

    @Test func consumerErrorIsRethrownUnchanged() async throws {
        let server = try await TestHTTPServer.start()
        let consumer = RecordingConsumer(refuseHead: true)
        try await withAsyncHTTPClientTransport { transport in
            await #expect(throws: Refused.self) {
                _ = try await transport.execute(
                    TransportRequest(url: server.url("/large/100000")),
                    deadline: .now() + .seconds(30),
                    logger: logger,
                    consumer: consumer
                )
            }
        }
        #expect(consumer.received == 0)
        try await server.stop()
    }

    @Test func consumerCanEndTheRequestEarly() async throws {
        let server = try await TestHTTPServer.start()
        let consumer = RecordingConsumer(stopAfter: 1)
        try await withAsyncHTTPClientTransport { transport in
            let response = try await transport.execute(
                TransportRequest(url: server.url("/large/\(32 * 1024 * 1024)")),
                deadline: .now() + .seconds(30),
                logger: logger,
                consumer: consumer
            )
            #expect(response.status == .ok)
        }
        #expect(consumer.received > 0)
        #expect(consumer.received < 32 * 1024 * 1024)
        try await server.stop()
    }

    @Test func headDeadlineIsTyped() async throws {
        let server = try await TestHTTPServer.start()
        let consumer = RecordingConsumer()
        try await withAsyncHTTPClientTransport { transport in
            await #expect {
                _ = try await transport.execute(
                    TransportRequest(url: server.url("/stall")),
                    deadline: .now() + .milliseconds(200),
                    logger: logger,
                    consumer: consumer
                )
            } throws: { error in
                (error as? TransportError)?.code == .deadlineExceeded
            }
        }
        #expect(consumer.heads.isEmpty)
        try await server.stop()
    }

    @Test func connectionClosedMidBodyIsTyped() async throws {
        let server = try await TestHTTPServer.start()
        let consumer = RecordingConsumer()
        try await withAsyncHTTPClientTransport { transport in
            await #expect {
                _ = try await transport.execute(
                    TransportRequest(url: server.url("/close-mid-body")),
                    deadline: .now() + .seconds(30),
                    logger: logger,
                    consumer: consumer
                )
            } throws: { error in
                (error as? TransportError)?.code == .connectionClosed
            }
        }
        #expect(consumer.received == 100)
        try await server.stop()
    }
}

private struct Refused: Error {}

/// Checks the test server's byte pattern as buffers arrive; can wait (backpressure), refuse the head or stop.
final class RecordingConsumer: ResponseBodyConsumer {
    private struct State {
        var heads: [UInt] = []
        var received = 0
        var mismatches = 0
        var buffers = 0
        var waits = 0
    }

    private let state = Mutex(State())
    private let waitEvery: Int?
    private let refuseHead: Bool
    private let stopAfter: Int?

    init(waitEvery: Int? = nil, refuseHead: Bool = false, stopAfter: Int? = nil) {
        self.waitEvery = waitEvery
        self.refuseHead = refuseHead
        self.stopAfter = stopAfter
    }

    var heads: [UInt] { self.state.withLock { $0.heads } }
    var received: Int { self.state.withLock { $0.received } }
    var mismatches: Int { self.state.withLock { $0.mismatches } }
    var waits: Int { self.state.withLock { $0.waits } }

    func accept(status: HTTPResponseStatus, headers: HTTPHeaders) throws -> Bool {
        self.state.withLock { $0.heads.append(status.code) }
        if self.refuseHead { throw Refused() }
        return status.code == 200
    }

    func consume(_ buffer: ByteBuffer, on eventLoop: any EventLoop) throws -> BodyDemand {
        let (buffers, wait) = self.state.withLock { state in
            for index in stride(from: 0, to: buffer.readableBytes, by: 4099) {
                let byte = buffer.getInteger(at: buffer.readerIndex + index, as: UInt8.self)
                if byte != UInt8((state.received + index) % 251) { state.mismatches += 1 }
            }
            state.received += buffer.readableBytes
            state.buffers += 1
            let wait = self.waitEvery.map { state.buffers.isMultiple(of: $0) } ?? false
            if wait { state.waits += 1 }
            return (state.buffers, wait)
        }
        if let stopAfter, buffers >= stopAfter { return .done }
        guard wait else { return .more }
        return .after(eventLoop.scheduleTask(in: .milliseconds(1)) {}.futureResult)
    }
}

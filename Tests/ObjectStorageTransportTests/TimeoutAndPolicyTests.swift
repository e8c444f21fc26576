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
import ObjectStorageTestSupport
import Testing

@testable import ObjectStorageTransport

@Suite("Timeouts, cancellation and policy")
struct TimeoutAndPolicyTests {
    let logger = Logger.scanning

    @Test func readIdleTimeoutFires() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = HTTPConfiguration()
        configuration.readIdleTimeout = .milliseconds(300)
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            await #expect {
                _ = try await transport.execute(
                    TransportRequest(url: server.url("/stall")),
                    timeout: .seconds(60),
                    logger: logger
                )
            } throws: { error in
                (error as? TransportError)?.code == .readTimeout
            }
        }
        try await server.stop()
    }

    @Test func aSlowButMovingUploadOutlivesItsTimeoutWhileWaitingStaysBounded() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = HTTPConfiguration()
        // One piece every 100 ms: 130 pieces move for longer than the 10 s timeout. The clock runs until the body
        // starts, and a full suite on 2 cores once spent more than 10 s connecting, so the PUTs below go over a
        // connection a first request has opened.
        configuration.maximumConnectionsPerHost = 1
        func pacedPUT(_ path: String, pieces: Int) -> TransportRequest {
            let content = testBytes(pieces * 8192)
            let body = PacedBuffers(content, piece: 8192, every: .milliseconds(100))
            return TransportRequest(
                method: .PUT,
                url: server.url(path),
                body: .stream(body, length: Int64(content.count))
            )
        }
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let opening = try await transport.execute(
                TransportRequest(url: server.url("/open")),
                timeout: .seconds(60),
                logger: logger
            )
            #expect(opening.status == .notFound)
            for try await _ in opening.body {}
            let request = pacedPUT("/echo", pieces: 130)
            let response = try await transport.execute(request, timeout: .seconds(10), logger: logger)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "x-received-length") == "\(130 * 8192)")
            #expect(server.receivedBodies("/echo") == [ByteBuffer(bytes: testBytes(130 * 8192))])
            // The echoed megabyte must be read: until it is, the only connection stays leased and the next PUT
            // would wait for the pool instead of for its answer.
            #expect(try await response.body.collect(upTo: 1 << 21) == ByteBuffer(bytes: testBytes(130 * 8192)))

            // Once the body is sent, waiting for an answer that never comes is still bounded.
            await #expect {
                _ = try await transport.execute(pacedPUT("/stall", pieces: 4), timeout: .seconds(10), logger: logger)
            } throws: { error in
                (error as? TransportError)?.code == .deadlineExceeded
            }
        }
        try await server.stop()
    }

    @Test func theHeadDeadlineStopsWhileTheBodyMoves() {
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
        let deadline = HeadDeadline(start + .seconds(1))
        #expect(deadline.effective(now: start + .seconds(5)) == start + .seconds(1))
        deadline.bodyStarted(at: start + .milliseconds(200))
        // While the body moves, the deadline keeps its distance.
        #expect(deadline.effective(now: start + .seconds(600)) == start + .seconds(600) + .milliseconds(800))
        deadline.bodyEnded(at: start + .seconds(600))
        // Once it is sent, the 800 ms that were left run out.
        #expect(deadline.effective(now: start + .seconds(900)) == start + .seconds(600) + .milliseconds(800))
    }

    @Test func cancellationReturnsPromptly() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = HTTPConfiguration()
        configuration.readIdleTimeout = nil
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let request = TransportRequest(url: server.url("/stall"))
            let outcome = await withTaskGroup(of: String.self) { group in
                let requestTask = Task {
                    try await transport.execute(request, deadline: .distantFuture, logger: logger)
                }
                group.addTask {
                    // Wait until the request reached the server, then cancel it.
                    for await path in server.arrivals where path == "/stall" { break }
                    requestTask.cancel()
                    do {
                        _ = try await requestTask.value
                        return "completed"
                    } catch let error as TransportError {
                        return "\(error.code)"
                    } catch {
                        return "other: \(error)"
                    }
                }
                group.addTask {
                    // A guard, not a timing assertion: fail instead of hanging if cancellation is ignored.
                    try? await Task.sleep(for: .seconds(30))
                    return "guard fired"
                }
                let first = await group.next() ?? "none"
                group.cancelAll()
                return first
            }
            #expect(outcome == "cancelled")
        }
        try await server.stop()
    }

    @Test func connectionRefusedIsTransient() async throws {
        // A port bound but never listening: a stopped server's port could be taken by another test's server.
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let port = refusing.port
        try await withAsyncHTTPClientTransport { transport in
            await #expect {
                _ = try await transport.execute(
                    TransportRequest(url: "http://127.0.0.1:\(port)/"),
                    timeout: .seconds(20),
                    logger: logger
                )
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.code.isTransient
            }
        }
    }

    @Test(arguments: [UInt64(1), 42, 0xDEAD_BEEF])
    func backoffStaysWithinFullJitterBounds(seed: UInt64) {
        let policy = RetryPolicy.exponentialJitter(maxAttempts: 10, base: .milliseconds(200), cap: .seconds(5))
        var generator = SeededGenerator(seed: seed)
        let ceilings: [Duration] = [
            .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .milliseconds(3200),
            .seconds(5), .seconds(5), .seconds(5),
        ]
        for (retry, ceiling) in ceilings.enumerated() {
            #expect(policy.backoffCeiling(forRetry: retry) == ceiling)
            for _ in 0..<200 {
                let delay = policy.backoffDelay(forRetry: retry, using: &generator)
                #expect(delay >= .zero && delay <= ceiling)
            }
        }
        #expect(policy.backoffCeiling(forRetry: 10_000) == .seconds(5))
    }

    @Test func retryAfterParsesSecondsDatesAndRejectsGarbage() {
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("", now: now) == nil)
        #expect(RetryAfter.parse("Sun, 06 Foo 1994 08:49:37 GMT", now: now) == nil)
    }

    @Test func retryAfterIsCapped() {
        let policy = RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(30))
        var generator = SeededGenerator(seed: 7)
        #expect(policy.delay(forRetry: 0, decision: .retry(after: .seconds(3600)), using: &generator) == .seconds(30))
        #expect(TransportError(code: .connectionClosed, message: "reset").retryDecision == .retry)
        #expect(TransportError(code: .tlsFailed, message: "bad cert").retryDecision == .doNotRetry)
    }

    @Test func logsAndErrorsNeverCarryHeadersOrQuery() async throws {
        let server = try await TestHTTPServer.start()
        let capture = LogCapture()
        try await withAsyncHTTPClientTransport { transport in
            let request = TransportRequest(
                url: server.url("/script/secret?X-Amz-Signature=sig-SECRET"),
                headers: ["Authorization": "AWS4-HMAC-SHA256 Signature=auth-SECRET", "x-script": "close"]
            )
            do {
                let policy = RetryPolicy.exponentialJitter(maxAttempts: 2)
                _ = try await policy.run(clock: RecordingClock(), logger: capture.logger, classify: transportDecision) {
                    _ in
                    try await transport.execute(request, timeout: .seconds(30), logger: capture.logger)
                }
                Issue.record("expected the request to fail")
            } catch {
                #expect(!"\(error)".contains("SECRET"))
                #expect("\(error)".contains("/script/secret"))
            }
        }
        #expect(!capture.text.isEmpty)
        #expect(capture.text.contains("/script/secret"))
        #expect(capture.text.contains("retrying"))
        #expect(!capture.text.contains("SECRET"))
        try await server.stop()
    }

    @Test func aFullPoolIsReportedAsOneAndNotRetried() async throws {
        let server = try await TestHTTPServer.start()
        var configuration = HTTPConfiguration()
        configuration.maximumConnectionsPerHost = 1
        configuration.connectTimeout = .milliseconds(500)
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            // A 64 MiB body read no further than its head holds the pool's one connection.
            let held = try await transport.execute(
                TransportRequest(url: server.url("/large/67108864")),
                timeout: .seconds(30),
                logger: logger
            )
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                _ = try await transport.execute(
                    TransportRequest(url: server.url("/echo")),
                    timeout: .seconds(30),
                    logger: logger
                )
            }
            #expect(error?.code == .connectionPoolExhausted)
            #expect(error?.code.isTransient == false)
            #expect(error?.message.contains("all 1 connection(s) of the pool") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("maximumConnectionsPerHost") == true)
            #expect(ContinuousClock.now - started < .seconds(10))
            // Reading the held body to its end frees the connection for the next request.
            var received = 0
            for try await chunk in held.body { received += chunk.readableBytes }
            #expect(received == 67_108_864)
            let next = try await transport.execute(
                TransportRequest(url: server.url("/echo")),
                timeout: .seconds(30),
                logger: logger
            )
            #expect(next.status == .ok)
        }
        try await server.stop()
    }

}

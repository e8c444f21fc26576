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
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Retries over real sockets")
struct RetryTests {
    let logger = Logger.scanning

    private func scripted(
        _ server: TestHTTPServer,
        id: String,
        script: String,
        body: TransportRequest.Body? = nil
    )
        -> TransportRequest
    {
        TransportRequest(
            method: body == nil ? .GET : .PUT,
            url: server.url("/script/\(id)"),
            headers: ["x-script": script],
            body: body
        )
    }

    @Test func retriesOn503ThenSucceedsRebuildingEachAttempt() async throws {
        let server = try await TestHTTPServer.start()
        let clock = RecordingClock()
        let built = AttemptLog()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 3), clock: clock)
            let request = scripted(server, id: "a", script: "503,503,200", body: .bytes(ByteBuffer(string: "x")))
            let response = try await transport.execute(deadline: .now() + .seconds(30), logger: logger) { attempt in
                built.append(attempt)
                return request
            }
            #expect(response.status == .ok)
        }
        #expect(server.hitCount("/script/a") == 3)
        #expect(built.values == [1, 2, 3])
        #expect(clock.sleeps.count == 2)
        try await server.stop()
    }

    @Test func retriesAfterConnectionClosedWithoutAnswer() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 3), clock: RecordingClock())
            let response = try await transport.execute(
                scripted(server, id: "b", script: "close,200"),
                timeout: .seconds(30),
                logger: logger
            )
            #expect(response.status == .ok)
        }
        #expect(server.hitCount("/script/b") == 2)
        try await server.stop()
    }

    @Test func honoursRetryAfterOn429() async throws {
        let server = try await TestHTTPServer.start()
        let clock = RecordingClock()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 2), clock: clock)
            var request = scripted(server, id: "c", script: "429,200")
            request.headers.add(name: "x-retry-after", value: "1")
            let response = try await transport.execute(request, timeout: .seconds(30), logger: logger)
            #expect(response.status == .ok)
        }
        #expect(clock.sleeps == [.seconds(1)])
        try await server.stop()
    }

    @Test func givesUpAfterMaxAttemptsWithLastStatus() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 3), clock: RecordingClock())
            await #expect {
                _ = try await transport.execute(
                    scripted(server, id: "d", script: "500"),
                    timeout: .seconds(30),
                    logger: logger
                )
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.code == .retriesExhausted && error.statusCode == 500 && error.attempts == 3
            }
        }
        #expect(server.hitCount("/script/d") == 3)
        try await server.stop()
    }

    @Test func doesNotRetryNonRetryableStatus() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 3), clock: RecordingClock())
            let response = try await transport.execute(
                scripted(server, id: "e", script: "404"),
                timeout: .seconds(30),
                logger: logger
            )
            #expect(response.status == .notFound)
        }
        #expect(server.hitCount("/script/e") == 1)
        try await server.stop()
    }

    @Test func nonReplayableStreamBodyIsNotRetried() async throws {
        let server = try await TestHTTPServer.start()
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: .exponentialJitter(maxAttempts: 3), clock: RecordingClock())
            let body = TransportRequest.Body.stream(AsyncStreamOfBuffers([ByteBuffer(string: "once")]), length: 4)
            await #expect {
                _ = try await transport.execute(
                    scripted(server, id: "f", script: "503,200", body: body),
                    timeout: .seconds(30),
                    logger: logger
                )
            } throws: { error in
                guard let error = error as? TransportError else { return false }
                return error.code == .bodyNotReplayable && error.statusCode == 503 && error.attempts == 1
            }
        }
        #expect(server.hitCount("/script/f") == 1)
        try await server.stop()
    }

    @Test func classifierCanMarkAStatusRetryable() async throws {
        let server = try await TestHTTPServer.start()
        var policy = RetryPolicy.exponentialJitter(maxAttempts: 2)
        policy.classifier = { failure in
            if case .status(let status, _) = failure, status == .forbidden { return .retry }
            return nil
        }
        try await withAsyncHTTPClientTransport { base in
            let transport = RetryingTransport(base, policy: policy, clock: RecordingClock())
            let response = try await transport.execute(
                scripted(server, id: "g", script: "403,200"),
                timeout: .seconds(30),
                logger: logger
            )
            #expect(response.status == .ok)
        }
        #expect(server.hitCount("/script/g") == 2)
        try await server.stop()
    }

    @Test func runRetriesCallerErrorsMarkedByClassifier() async throws {
        struct IntegrityMismatch: Error {}
        var policy = RetryPolicy.exponentialJitter(maxAttempts: 3)
        policy.classifier = { failure in
            if case .error(let error) = failure, error is IntegrityMismatch { return .retry }
            return nil
        }
        let attempts = AttemptLog()
        let value = try await policy.run(clock: RecordingClock(), logger: logger) { attempt in
            attempts.append(attempt)
            if attempt < 3 { throw IntegrityMismatch() }
            return "ok"
        }
        #expect(value == "ok")
        #expect(attempts.values == [1, 2, 3])
    }

    @Test func cancellationDuringBackoffPropagates() async throws {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(3600), maxDelay: .seconds(3600))
        var generator = SeededGenerator(seed: 1)
        let task = Task {
            try await policy.run(logger: logger, using: &generator) { _ -> Int in
                throw TransportError(code: .connectionClosed, message: "reset")
            }
        }
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}

final class AttemptLog: Sendable {
    private let storage = MutexBox<[Int]>([])
    func append(_ value: Int) { self.storage.mutate { $0.append(value) } }
    var values: [Int] { self.storage.mutate { $0 } }
}

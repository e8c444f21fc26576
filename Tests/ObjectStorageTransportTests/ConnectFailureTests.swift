//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ObjectStorageTestSupport
import Synchronization
import Testing

@testable import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Faults that cannot heal fail at once; connection refused is retried, and still fails within seconds.
///
/// Only 127.0.0.1 is ever connected to: a name under the reserved `.invalid` TLD (RFC 6761) never resolves, so it
/// fails in the resolver, before any packet is sent to a server.
@Suite("Connect failures")
struct ConnectFailureTests {
    let logger = Logger.scanning

    /// Well under a second alone. In a full suite on 2 cores the test's own task can wait for a thread of the
    /// concurrency pool for many seconds (23.7 s was seen with 584 tests running), so the bound only guards against
    /// the regression that matters: it is far below the 270 s that AsyncHTTPClient's own connection retries took
    /// (#21), and a test of its own (`unresolvableHostFailsAtOnceWithHostNotFound`) counts the attempts.
    static let bound = Duration.seconds(60)

    /// Runs `body` with a transport over the SDK's client configuration on an event loop of its own, so that
    /// another suite's work on the shared loops cannot stretch the timing measured here.
    static func withOwnTransport<Result>(
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let transport = AsyncHTTPClientTransport(configuration: .init(), eventLoopGroup: group)
        let result: Swift.Result<Result, any Error>
        do { result = .success(try await body(transport)) } catch { result = .failure(error) }
        try await transport.shutdown()
        try await group.shutdownGracefully()
        return try result.get()
    }

    @Test(arguments: [HTTPMethod.GET, .PUT])
    func unresolvableHostFailsAtOnceWithHostNotFound(method: HTTPMethod) async throws {
        let attempts = Mutex(0)
        var request = TransportRequest(method: method, url: "http://no-such-host.invalid:9000/bucket/key")
        if method == .PUT { request.body = .bytes(ByteBuffer(string: "payload")) }
        let outcome = try await Self.withOwnTransport { transport in
            // The SDK's client configuration and the client's default policy (3 attempts).
            await Self.outcome {
                try await RetryPolicy.exponentialJitter(maxAttempts: 3).run(logger: logger, classify: transportDecision)
                { _ in
                    attempts.withLock { $0 += 1 }
                    return try await transport.execute(request, timeout: .seconds(60), logger: logger)
                }
            }
        }
        #expect {
            try outcome.result.get()
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.code == .hostNotFound && !error.code.isTransient
                && error.message.contains("cannot resolve the host name 'no-such-host.invalid'")
                && error.host == "no-such-host.invalid:9000" && error.method == method.rawValue
                && error.attempts == nil
        }
        #expect(outcome.elapsed < Self.bound, "took \(outcome.elapsed)")
        #expect(attempts.withLock { $0 } == 1, "a name that does not exist is not asked for again")
    }

    /// What `operation` threw (or `.success` when it returned), measured inside the transport's lifetime.
    static func outcome(
        _ operation: () async throws -> TransportResponse
    ) async -> (result: Swift.Result<Void, any Error>, elapsed: Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try await operation()
            return (.success(()), started.duration(to: clock.now))
        } catch {
            return (.failure(error), started.duration(to: clock.now))
        }
    }

    @Test func refusedLoopbackPortFailsWithinSecondsAfterThePolicysRetries() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let attempts = Mutex(0)
        let request = TransportRequest(url: "http://127.0.0.1:\(refusing.port)/bucket/key")
        let outcome = try await Self.withOwnTransport { transport in
            await Self.outcome {
                try await RetryPolicy.exponentialJitter(maxAttempts: 3).run(logger: logger, classify: transportDecision)
                { _ in
                    attempts.withLock { $0 += 1 }
                    return try await transport.execute(request, timeout: .seconds(60), logger: logger)
                }
            }
        }
        #expect {
            try outcome.result.get()
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.code == .connectFailed && error.code.isTransient
                && error.message == "the connection was refused (nothing listens on the port)"
                && error.host == "127.0.0.1:\(refusing.port)"
                && error.attempts == 3
        }
        #expect(outcome.elapsed < Self.bound, "took \(outcome.elapsed)")
        #expect(attempts.withLock { $0 } == 3, "refused is transient: the policy's three attempts were made")
    }

    /// The default policy's backoff before its two retries is at most 200 ms + 400 ms: a refused connection (which
    /// fails in a millisecond on loopback) can never take more than a fraction of a second per command.
    @Test func defaultPolicyBackoffAddsUpToUnderOneSecond() {
        let policy = RetryPolicy()
        let total = (0..<(policy.maxAttempts - 1)).reduce(Duration.zero) { $0 + policy.backoffCeiling(forRetry: $1) }
        #expect(total == .milliseconds(600))
    }

    @Test func pooledClientsDoNotRetryConnectionEstablishment() {
        let configuration = AsyncHTTPClientTransport.clientConfiguration(.init())
        #expect(configuration.connectionPool.retryConnectionEstablishment == false)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var error: any Error
        var code: TransportError.Code
        /// Whether the default policy retries it.
        var retried: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "CancellationError", error: CancellationError(), code: .cancelled, retried: false),
        Case(name: "AHC cancelled", error: HTTPClientError.cancelled, code: .cancelled, retried: false),
        Case(name: "AHC connectTimeout", error: HTTPClientError.connectTimeout, code: .connectTimeout, retried: true),
        Case(
            name: "AHC tlsHandshakeTimeout",
            error: HTTPClientError.tlsHandshakeTimeout,
            code: .connectTimeout,
            retried: true
        ),
        Case(
            name: "AHC getConnectionFromPoolTimeout",
            error: HTTPClientError.getConnectionFromPoolTimeout,
            code: .connectionPoolExhausted,
            retried: false
        ),
        Case(name: "AHC readTimeout", error: HTTPClientError.readTimeout, code: .readTimeout, retried: true),
        Case(name: "AHC writeTimeout", error: HTTPClientError.writeTimeout, code: .writeTimeout, retried: true),
        Case(
            name: "AHC deadlineExceeded",
            error: HTTPClientError.deadlineExceeded,
            code: .deadlineExceeded,
            retried: true
        ),
        Case(
            name: "AHC remoteConnectionClosed",
            error: HTTPClientError.remoteConnectionClosed,
            code: .connectionClosed,
            retried: true
        ),
        Case(
            name: "AHC uncleanShutdown",
            error: HTTPClientError.uncleanShutdown,
            code: .connectionClosed,
            retried: true
        ),
        Case(
            name: "AHC bodyLengthMismatch (the request body's)",
            error: HTTPClientError.bodyLengthMismatch,
            code: .invalidRequest,
            retried: false
        ),
        Case(
            name: "AHC proxyAuthenticationRequired",
            error: HTTPClientError.proxyAuthenticationRequired,
            code: .proxyAuthenticationRequired,
            retried: false
        ),
        Case(
            name: "AHC invalidProxyResponse",
            error: HTTPClientError.invalidProxyResponse,
            code: .connectFailed,
            retried: true
        ),
        Case(name: "AHC invalidURL", error: HTTPClientError.invalidURL, code: .invalidRequest, retried: false),
        Case(name: "AHC emptyHost", error: HTTPClientError.emptyHost, code: .invalidRequest, retried: false),
        Case(
            name: "AHC unsupportedScheme",
            error: HTTPClientError.unsupportedScheme("ftp"),
            code: .invalidRequest,
            retried: false
        ),
        Case(name: "AHC alreadyShutdown", error: HTTPClientError.alreadyShutdown, code: .requestFailed, retried: false),
        Case(
            name: "NIO connectTimeout",
            error: ChannelError.connectTimeout(.seconds(10)),
            code: .connectTimeout,
            retried: true
        ),
        Case(
            name: "NIO ioOnClosedChannel",
            error: ChannelError.ioOnClosedChannel,
            code: .connectionClosed,
            retried: true
        ),
        Case(name: "NIO eof", error: ChannelError.eof, code: .connectionClosed, retried: true),
        Case(
            name: "HTTP parser invalidEOFState",
            error: HTTPParserError.invalidEOFState,
            code: .connectionClosed,
            retried: true
        ),
        Case(
            name: "HTTP parser invalidStatus",
            error: HTTPParserError.invalidStatus,
            code: .malformedResponse,
            retried: false
        ),
        Case(
            name: "ECONNREFUSED",
            error: IOError(errnoCode: ECONNREFUSED, reason: "connect"),
            code: .connectFailed,
            retried: true
        ),
        Case(
            name: "ECONNRESET",
            error: IOError(errnoCode: ECONNRESET, reason: "read"),
            code: .connectionClosed,
            retried: true
        ),
        Case(
            name: "TLS unclean shutdown",
            error: NIOSSLError.uncleanShutdown,
            code: .connectionClosed,
            retried: true
        ),
        Case(
            name: "TLS certificate not validated",
            error: NIOSSLError.unableToValidateCertificate,
            code: .tlsFailed,
            retried: false
        ),
        Case(
            name: "TLS host name mismatch",
            error: NIOSSLExtraError.failedToValidateHostname,
            code: .tlsFailed,
            retried: false
        ),
        Case(
            name: "unsupported address",
            error: SocketAddressError.unsupported,
            code: .invalidRequest,
            retried: false
        ),
        Case(
            name: "a TransportError passes through",
            error: TransportError(code: .redirectRefused, message: "307"),
            code: .redirectRefused,
            retried: false
        ),
        Case(name: "an unknown error", error: UnknownFailure(), code: .requestFailed, retried: false),
    ]

    struct UnknownFailure: Error {}

    @Test(arguments: cases)
    func classifiesEachFailure(_ failure: Case) {
        let context = RequestContext(method: "GET", url: "http://127.0.0.1:9000/bucket/key?X-Amz-Signature=abc")
        let translated = TransportError.translating(failure.error, context: context)
        #expect(translated.code == failure.code)
        #expect(translated.host == "127.0.0.1:9000" && translated.path == "/bucket/key")
        #expect(!translated.message.contains("X-Amz-Signature"))
        #expect(translated.retryDecision.shouldRetry == failure.retried)
    }

    /// The resolver's own answer for a name that does not exist (a real `getaddrinfo`, no connection).
    @Test func resolverAnswerForAMissingNameIsHostNotFound() throws {
        let resolverError = #expect(throws: SocketAddressError.UnknownHost.self) {
            _ = try SocketAddress.makeAddressResolvingHost("no-such-host.invalid", port: 9000)
        }
        let unknown = try #require(resolverError)
        let context = RequestContext(method: "PUT", url: "http://no-such-host.invalid:9000/bucket/key")
        let translated = TransportError.translating(unknown, context: context)
        #expect(translated.code == .hostNotFound)
        #expect(translated.message.hasPrefix("cannot resolve the host name 'no-such-host.invalid' ("))
        #expect(translated.retryDecision == .doNotRetry)
    }
}

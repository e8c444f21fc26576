//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import NIOCore
import NIOHTTP1

/// An ``HTTPTransport`` that retries failed attempts according to a ``RetryPolicy``.
///
/// Use ``execute(deadline:logger:makeRequest:)`` to build (and re-sign) each attempt's request:
///
/// ```swift
/// let transport = RetryingTransport(AsyncHTTPClientTransport.shared, policy: .exponentialJitter(maxAttempts: 3))
/// let response = try await transport.execute(deadline: .now() + .minutes(5), logger: logger) { attempt in
///     try await signer.sign(request, credentials: try await credentials.credentials(logger: logger), at: .now)
/// }
/// ```
///
/// A retryable status (408, 429, 5xx) is retried after the policy's delay (or the server's `Retry-After`); when the
/// attempts run out the call throws ``TransportError/Code/retriesExhausted`` carrying the last status. A request
/// whose body is a stream is not retried: the call throws ``TransportError/Code/bodyNotReplayable``.
public struct RetryingTransport<Base: HTTPTransport>: HTTPTransport {
    /// The transport each attempt is sent through.
    public var base: Base
    /// The retry policy.
    public var policy: RetryPolicy
    /// The clock the backoff sleeps on.
    public var clock: any Clock<Duration>

    /// Wraps a transport.
    ///
    /// - Parameters:
    ///   - base: The transport each attempt is sent through.
    ///   - policy: The retry policy.
    ///   - clock: The clock to sleep on (default `ContinuousClock`; inject one in tests).
    public init(_ base: Base, policy: RetryPolicy, clock: any Clock<Duration> = ContinuousClock()) {
        self.base = base
        self.policy = policy
        self.clock = clock
    }

    /// Sends the same request with retries (when its body is replayable).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - deadline: The overall deadline, across attempts and delays.
    ///   - logger: The logger.
    /// - Returns: The first response that is not retried.
    /// - Throws: ``TransportError``.
    public func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger
    ) async throws -> TransportResponse {
        try await self.execute(deadline: deadline, logger: logger) { _ in request }
    }

    /// Sends a request built afresh for each attempt, with retries.
    ///
    /// - Parameters:
    ///   - deadline: The overall deadline, across attempts and delays.
    ///   - logger: The logger.
    ///   - makeRequest: Builds attempt `attempt`'s request (1-based); sign it here so each attempt has fresh
    ///     credentials and time.
    /// - Returns: The first response that is not retried.
    /// - Throws: ``TransportError``, or what `makeRequest` throws.
    public func execute(
        deadline: NIODeadline,
        logger: Logger,
        makeRequest: @Sendable (_ attempt: Int) async throws -> TransportRequest
    ) async throws -> TransportResponse {
        var generator = SystemRandomNumberGenerator()
        return try await self.execute(deadline: deadline, logger: logger, using: &generator, makeRequest: makeRequest)
    }

    /// Sends a request built afresh for each attempt, with retries, drawing jitter from `generator`.
    ///
    /// - Parameters:
    ///   - deadline: The overall deadline, across attempts and delays.
    ///   - logger: The logger.
    ///   - generator: The source of jitter.
    ///   - makeRequest: Builds attempt `attempt`'s request (1-based).
    /// - Returns: The first response that is not retried.
    /// - Throws: ``TransportError``, or what `makeRequest` throws.
    public func execute(
        deadline: NIODeadline,
        logger: Logger,
        using generator: inout some RandomNumberGenerator,
        makeRequest: @Sendable (_ attempt: Int) async throws -> TransportRequest
    ) async throws -> TransportResponse {
        var policy = self.policy
        var attempts = 0
        let userClassifier = policy.classifier
        policy.classifier = { failure in
            guard case .error(let error) = failure else { return userClassifier?(failure) }
            switch error {
            case let status as RetryableStatus:
                return status.replayable ? status.decision : .doNotRetry
            case is NonReplayableFailure:
                return .doNotRetry
            default:
                return userClassifier?(failure)
            }
        }
        do {
            return try await policy.run(clock: self.clock, deadline: deadline, logger: logger, using: &generator) {
                attempt in
                attempts = attempt
                let request = try await makeRequest(attempt)
                var attemptLogger = logger
                attemptLogger[metadataKey: "retry.attempt"] = "\(attempt)"
                let response: TransportResponse
                do {
                    response = try await self.base.execute(request, deadline: deadline, logger: attemptLogger)
                } catch  where !request.isReplayable {
                    throw NonReplayableFailure(underlying: error)
                }
                let decision = self.policy.decision(for: .status(response.status, response.headers))
                guard decision.shouldRetry else { return response }
                throw RetryableStatus(
                    status: response.status,
                    headers: response.headers,
                    decision: decision,
                    context: RequestContext(method: request.method.rawValue, url: request.url),
                    replayable: request.isReplayable
                )
            }
        } catch let status as RetryableStatus {
            let blockedByBody = !status.replayable && attempts < self.policy.maxAttempts
            let error = TransportError(
                code: blockedByBody ? .bodyNotReplayable : .retriesExhausted,
                message: blockedByBody
                    ? "the server answered with a retryable status but the request body is a stream"
                    : "the server kept answering with a retryable status",
                statusCode: Int(status.status.code),
                attempts: attempts
            )
            throw error.withContext(status.context)
        } catch let failure as NonReplayableFailure {
            let wanted = self.policy.decision(for: .error(failure.underlying)).shouldRetry
            if wanted && attempts < self.policy.maxAttempts, let underlying = failure.underlying as? TransportError {
                var error = TransportError(
                    code: .bodyNotReplayable,
                    message: "the attempt failed (\(underlying.code)) and the request body is a stream",
                    attempts: attempts,
                    underlying: underlying
                )
                error.method = underlying.method
                error.host = underlying.host
                error.path = underlying.path
                throw error
            }
            throw Self.finish(failure.underlying, attempts: attempts)
        } catch {
            throw Self.finish(error, attempts: attempts)
        }
    }

    private static func finish(_ error: any Error, attempts: Int) -> any Error {
        switch error {
        case var error as TransportError:
            error.attempts = attempts
            return error
        case is CancellationError:
            return TransportError(code: .cancelled, message: "the request was cancelled", attempts: attempts)
        default:
            return error
        }
    }
}

/// An attempt with a non-replayable body failed: never retried.
struct NonReplayableFailure: Error {
    var underlying: any Error
}

/// Thrown inside the retry loop for a response whose status asks for a retry.
struct RetryableStatus: Error {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var decision: RetryDecision
    var context: RequestContext
    var replayable: Bool
}

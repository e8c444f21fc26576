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
import ObjectStorageSigning
import ObjectStorageTransport

/// The HTTP side of the instance-metadata credentials providers: sends one request with a short deadline,
/// reads a small body, and turns failures into `CredentialsError` values that name the host, the path and
/// the HTTP status, but never a header (the metadata token travels in one) nor a response body (credentials
/// travel in it).
struct InstanceMetadataClient: Sendable {
    /// The largest metadata response accepted (credentials documents are well under 4 KiB).
    static let maximumBodySize = 64 * 1024

    /// The transport used when the app supplies none: a dedicated client with a 1 s connect timeout and no
    /// proxy, created on first use and kept for the life of the process (like `HTTPClient.shared`).
    static let defaultTransport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(
        configuration: HTTPConfiguration(
            connectTimeout: .seconds(1),
            readIdleTimeout: .seconds(5),
            maximumConnectionsPerHost: 2
        )
    )

    /// A metadata response: the status and the (small) body.
    struct Response: Sendable {
        var status: HTTPResponseStatus
        var body: ByteBuffer

        var text: String {
            String(buffer: self.body)
        }
    }

    /// What went wrong with one request, before it is turned into a `CredentialsError`.
    enum Failure: Error {
        /// No response: the transport failed.
        case transport(TransportError)
        /// The response body was larger than ``InstanceMetadataClient/maximumBodySize``.
        case bodyTooLarge
    }

    /// The endpoint without a trailing `/`, e.g. `http://100.100.100.200`.
    let endpoint: String
    /// The endpoint's host (and port), for messages.
    let host: String
    /// The provider's name, for messages, e.g. `Alibaba Cloud ECS RAM role`.
    let source: String
    let transport: any HTTPTransport
    /// How long one request may take, from sending it to the end of the response body.
    let timeout: Duration

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - endpoint: The base URL (any trailing `/` is dropped); each request appends its path and query.
    ///   - source: The provider's name, for messages.
    ///   - transport: The transport, or `nil` for ``defaultTransport``.
    ///   - timeout: How long one request may take, response body included.
    init(endpoint: String, source: String, transport: (any HTTPTransport)?, timeout: Duration) {
        var endpoint = endpoint
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        self.endpoint = endpoint
        self.host = URLAuthority.host(of: endpoint)
        self.source = source
        self.transport = transport ?? Self.defaultTransport
        self.timeout = timeout
    }

    /// Sends one request and reads its body, all within ``timeout``: an endpoint that accepts the connection
    /// but never answers (or stops in the middle of the body) fails with `TransportError.Code.deadlineExceeded`
    /// when the time is up, whatever the transport's own idle timeouts.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The path and query, appended to the endpoint.
    ///   - headers: The request headers (they never reach a message).
    ///   - logger: The logger for the transport's trace and debug lines.
    /// - Returns: The status and the body.
    /// - Throws: ``Failure``.
    func send(
        _ method: HTTPMethod,
        _ target: String,
        headers: HTTPHeaders = [:],
        logger: Logger
    ) async throws(Failure) -> Response {
        let request = TransportRequest(method: method, url: self.endpoint + target, headers: headers)
        let transport = self.transport
        let timeout = self.timeout
        do {
            return try await Self.within(timeout) {
                let response = try await transport.execute(request, timeout: timeout, logger: logger)
                let body = try await response.body.collect(upTo: Self.maximumBodySize)
                return Response(status: response.status, body: body)
            }
        } catch let error as TransportError {
            if error.code == .bodyTooLarge {
                throw .bodyTooLarge
            }
            throw .transport(error)
        } catch is CancellationError {
            throw .transport(TransportError(code: .cancelled, message: "the task was cancelled"))
        } catch {
            throw .transport(TransportError(code: .requestFailed, message: "\(type(of: error))"))
        }
    }

    /// The result of `operation`, or `TransportError.Code.deadlineExceeded` once `timeout` has passed (the
    /// operation is then cancelled, which cancels its request).
    private static func within(
        _ timeout: Duration,
        _ operation: @escaping @Sendable () async throws -> Response
    ) async throws -> Response {
        try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw TransportError(code: .deadlineExceeded, message: "no complete response within the timeout")
            }
            return response
        }
    }

    /// Whether the failure means the metadata service cannot be reached at all (so a plain request, without
    /// a token, would not reach it either).
    static func isUnreachable(_ failure: Failure) -> Bool {
        guard case .transport(let error) = failure else { return false }
        return error.code == .connectFailed || error.code == .hostNotFound || error.code == .connectTimeout
    }

    /// The error for a request that got no usable response.
    ///
    /// An unreachable metadata service is `CredentialsError.Code.notFound` (the app is not running on a
    /// cloud instance, so a `chain(_:)` moves on); any other failure is
    /// `CredentialsError.Code.refreshFailed`.
    func error(for failure: Failure, step: String, path: String) -> CredentialsError {
        switch failure {
        case .bodyTooLarge:
            return .refreshFailed(
                "\(self.source): \(step): the response from \(self.host)\(path) exceeds "
                    + "\(Self.maximumBodySize) bytes"
            )
        case .transport(let error) where Self.isUnreachable(failure):
            return .notFound(
                "\(self.source): the instance metadata service at \(self.host) is unreachable (\(error.code)); "
                    + "is this running on a cloud instance?"
            )
        case .transport(let error) where error.code == .deadlineExceeded || error.code == .readTimeout:
            return .refreshFailed(
                "\(self.source): \(step): \(self.host)\(path) did not answer within \(Self.seconds(self.timeout)) "
                    + "(\(error.code))"
            )
        case .transport(let error):
            return .refreshFailed("\(self.source): \(step): request to \(self.host)\(path) failed (\(error.code))")
        }
    }

    /// The error for an unexpected HTTP status. The body is not quoted: it may echo credentials.
    func error(forStatus status: HTTPResponseStatus, step: String, path: String) -> CredentialsError {
        let message = "\(self.source): \(step): \(self.host)\(path) answered HTTP \(status.code)"
        return status == .notFound ? .notFound(message) : .refreshFailed(message)
    }
}

extension InstanceMetadataClient {
    /// How a vendor's metadata service issues and checks its session token.
    struct TokenProtocol: Sendable {
        /// The path of the `PUT` that issues a token.
        var path: String
        /// The request header carrying the token's lifetime in seconds.
        var ttlHeader: String
        /// The request header carrying the token on later requests.
        var tokenHeader: String
        /// The lifetimes the service accepts, in seconds.
        var ttlRange: ClosedRange<Int64>
        /// The statuses of the token `PUT` that are an error even in ``InstanceMetadataTokenMode/preferred``
        /// mode, rather than a reason to fall back to plain requests (AWS: 400, a malformed token request).
        var failingStatuses: Set<UInt> = []
    }

    /// The outcome of asking for a token.
    enum TokenOutcome: Sendable {
        /// A token was issued.
        case token(String)
        /// No token; send plain requests.
        case none
    }

    /// Asks for a session token according to `mode`.
    ///
    /// - Throws: `CredentialsError` when the mode requires a token and none was issued, when the metadata
    ///   service is unreachable, or when the `PUT` is answered with one of the protocol's
    ///   ``TokenProtocol/failingStatuses``.
    func sessionToken(
        _ tokenProtocol: TokenProtocol,
        mode: InstanceMetadataTokenMode,
        ttl: Duration,
        logger: Logger
    ) async throws(CredentialsError) -> TokenOutcome {
        if mode == .disabled {
            return .none
        }
        let range = tokenProtocol.ttlRange
        let seconds = min(max(ttl.components.seconds, range.lowerBound), range.upperBound)
        let step = "requesting a metadata token"
        let failure: CredentialsError
        var fallback = true
        do {
            let response = try await self.send(
                .PUT,
                tokenProtocol.path,
                headers: [tokenProtocol.ttlHeader: "\(seconds)"],
                logger: logger
            )
            let token = Self.trimmed(response.text)
            if response.status == .ok, !token.isEmpty, !token.contains(where: \.isNewline) {
                logger.trace("obtained a metadata token", metadata: ["metadata.host": "\(self.host)"])
                return .token(token)
            }
            let statusText =
                "\(self.source): \(step): \(self.host)\(tokenProtocol.path) answered HTTP \(response.status.code)"
            if tokenProtocol.failingStatuses.contains(response.status.code) {
                fallback = false
                failure = .refreshFailed(statusText + " (a malformed token request; no fallback to plain requests)")
            } else {
                failure =
                    response.status == .ok
                    ? .refreshFailed("\(self.source): \(step): \(self.host) returned an unusable token")
                    : .refreshFailed(statusText)
            }
        } catch {
            if Self.isUnreachable(error) {
                throw self.error(for: error, step: step, path: tokenProtocol.path)
            }
            failure = self.error(for: error, step: step, path: tokenProtocol.path)
        }
        if mode == .required || !fallback {
            throw failure
        }
        logger.debug(
            "no metadata token; falling back to plain requests",
            metadata: ["metadata.host": "\(self.host)", "reason": "\(failure.message)"]
        )
        return .none
    }
}

extension InstanceMetadataClient {
    /// `duration` for messages: `2 s`, or `1500 ms` when not a whole number of seconds.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 {
            return "\(seconds) s"
        }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// `text` without leading and trailing whitespace and newlines.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

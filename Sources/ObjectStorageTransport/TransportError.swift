//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error raised by the transport: the request could not be sent, or no usable response came back.
///
/// Errors carry a ``Code`` to switch on, a message, and context: the method, host and path (never the query
/// string, where presigned signatures live, and never a header, where `Authorization` lives).
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// do {
///     _ = try await client.putObject(PutObjectRequest(bucket: "bucket", key: "key", body: .bytes([1, 2, 3])))
/// } catch let error as TransportError where error.code == .connectionClosed {
///     print(error)  // "connectionClosed: PUT 127.0.0.1/bucket/key: the server closed the connection"
/// }
/// ```
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set of values (new codes may be added).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case connectFailed
            case hostNotFound
            case proxyAuthenticationRequired
            case connectTimeout
            case connectionPoolExhausted
            case readTimeout
            case writeTimeout
            case deadlineExceeded
            case connectionClosed
            case tlsFailed
            case cancelled
            case bodyNotReplayable
            case bodyTooLarge
            case fileReadFailed
            case invalidRequest
            case requestFailed
            case redirectRefused
            case transferStalled
            case malformedResponse
            case bodyTruncated
            case bodyUnread
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The connection could not be established: refused (nothing listens on the port), the network or host is
        /// unreachable, the proxy refused the tunnel, or the name server could not answer for now (a temporary
        /// failure in name resolution). Transient: the client's retry policy retries it with its backoff.
        public static let connectFailed = Code(.connectFailed)
        /// The host name does not resolve: the name server answered that the name does not exist (or has no
        /// address). Not transient, so never retried: asking again cannot make the name exist, and the endpoint is
        /// almost certainly misconfigured. ``TransportError/host`` and the message name the host.
        public static let hostNotFound = Code(.hostNotFound)
        /// The HTTP proxy answered `407 Proxy Authentication Required`; the transport sends no proxy credentials,
        /// so no retry can succeed. Not transient.
        public static let proxyAuthenticationRequired = Code(.proxyAuthenticationRequired)
        /// The connection (TCP and TLS handshake) was not established within the connect timeout.
        public static let connectTimeout = Code(.connectTimeout)
        /// No connection of the pool became free within the connect timeout: all
        /// ``HTTPConfiguration/maximumConnectionsPerHost`` connections to the host were busy, with requests in
        /// flight or with response bodies the application has not read to the end (a streamed download holds its
        /// connection until its body ends or is dropped). The message names the host, the pool's size and the
        /// wait. Not transient, so not retried: asking again waits for the same full pool; read or drop the bodies
        /// you hold, or raise ``HTTPConfiguration/maximumConnectionsPerHost``.
        public static let connectionPoolExhausted = Code(.connectionPoolExhausted)
        /// No byte arrived for longer than the read-idle timeout.
        public static let readTimeout = Code(.readTimeout)
        /// No byte could be written for longer than the write timeout.
        public static let writeTimeout = Code(.writeTimeout)
        /// The request's deadline (total timeout) passed before the response head arrived.
        public static let deadlineExceeded = Code(.deadlineExceeded)
        /// The server closed or reset the connection before the exchange was complete.
        public static let connectionClosed = Code(.connectionClosed)
        /// The TLS handshake failed (for example the server's certificate is not trusted).
        public static let tlsFailed = Code(.tlsFailed)
        /// The calling task was cancelled.
        public static let cancelled = Code(.cancelled)
        /// A retry was needed but the request body is a stream that cannot be sent again.
        public static let bodyNotReplayable = Code(.bodyNotReplayable)
        /// A response body exceeded the limit given to `collect(upTo:)`.
        public static let bodyTooLarge = Code(.bodyTooLarge)
        /// A file request body could not be read (missing file, or shorter than the region).
        public static let fileReadFailed = Code(.fileReadFailed)
        /// The request cannot be sent (bad URL, unsupported scheme, invalid header).
        public static let invalidRequest = Code(.invalidRequest)
        /// Any other failure; see ``TransportError/underlying``.
        public static let requestFailed = Code(.requestFailed)
        /// The server answered with a redirect (a 3xx status with a `Location`), which is never followed: a
        /// signed request is valid for its own host only, and following it would hand the request's credentials
        /// and payload to whatever host the `Location` names. ``TransportError/statusCode`` holds the status and
        /// the message names the status and the `Location`'s host (never its path or query).
        public static let redirectRefused = Code(.redirectRefused)
        /// A request or response body moved fewer bytes than
        /// ``HTTPConfiguration/minimumTransferRate`` allows, over its window of time spent
        /// waiting for the network (a server that drips bytes). Transient: a fresh attempt may reach a healthy
        /// server.
        public static let transferStalled = Code(.transferStalled)
        /// The server's answer is not valid HTTP/1.1 (for example a body longer than its `Content-Length`, or a
        /// malformed status line or header); the message says what was wrong.
        public static let malformedResponse = Code(.malformedResponse)
        /// The response body ended before the length its `Content-Length` announced (for a ranged read, the
        /// range's length): the connection closed early (the server closed it, or a proxy). The message says how many bytes
        /// arrived of how many. Transient: a fresh attempt may get the whole body.
        public static let bodyTruncated = Code(.bodyTruncated)
        /// The application read nothing of a response body for ``HTTPConfiguration/unreadBodyTimeout``: the
        /// request was cancelled to free its connection for other requests. A consumer that reads, however slowly,
        /// never gets it. Not transient: the application stopped, not the server.
        public static let bodyUnread = Code(.bodyUnread)

        /// The code's name, e.g. `connectionClosed`.
        public var description: String {
            self.base.rawValue
        }

        /// Whether the failure is transient: a fresh attempt may succeed (connection failures, resets, stalled
        /// transfers and timeouts other than the overall deadline).
        ///
        /// Faults that cannot heal by asking again are not transient: ``hostNotFound``,
        /// ``proxyAuthenticationRequired``, ``tlsFailed`` (an untrusted certificate stays untrusted),
        /// ``invalidRequest``, ``malformedResponse``, ``redirectRefused`` and the rest.
        public var isTransient: Bool {
            switch self.base {
            case .connectFailed, .connectTimeout, .readTimeout, .writeTimeout, .connectionClosed, .transferStalled,
                .bodyTruncated:
                return true
            default:
                return false
            }
        }
    }

    /// What went wrong.
    public var code: Code
    /// A description with context. Never contains a header, a query string, a secret or a signature.
    public var message: String
    /// The request's method, e.g. `PUT`.
    public var method: String?
    /// The request's host (and port, when not the scheme's default).
    public var host: String?
    /// The request's path, without the query string.
    public var path: String?
    /// The response status that caused the error, for ``Code/redirectRefused``.
    public var statusCode: Int?
    /// How many attempts were made, when the error ends a retry loop.
    public var attempts: Int?
    /// How long the attempts took together, from the first one's start, when the error ends a retry loop.
    public var elapsed: Duration?
    /// The lower-level error, when there is one (an AsyncHTTPClient, NIO or TLS error).
    public var underlying: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A description with context; must not contain a header, query string or secret.
    ///   - statusCode: The last response status, if any.
    ///   - attempts: The number of attempts made, if known.
    ///   - underlying: The lower-level error, if any.
    package init(
        code: Code,
        message: String,
        statusCode: Int? = nil,
        attempts: Int? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.attempts = attempts
        self.underlying = underlying
    }

    /// `code: METHOD host/path: message [status N] [after N attempts in T]`.
    public var description: String {
        var text = "\(self.code)"
        if let method = self.method, let host = self.host {
            text += ": \(method) \(host)\(self.path ?? "")"
        }
        text += ": \(self.message)"
        if let statusCode = self.statusCode { text += " (status \(statusCode))" }
        if let attempts = self.attempts { text += " (\(Self.retries(attempts: attempts, elapsed: self.elapsed)))" }
        return text
    }

    /// `after 3 attempts in 3 min 1 s`: how a retry loop ended, for messages.
    ///
    /// - Parameters:
    ///   - attempts: How many attempts were made.
    ///   - elapsed: How long they took, if known.
    /// - Returns: The phrase.
    package static func retries(attempts: Int, elapsed: Duration?) -> String {
        var text = "after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        if let elapsed {
            let seconds = Int64(elapsed.components.seconds)
            if seconds >= 60 {
                text += " in \(seconds / 60) min \(seconds % 60) s"
            } else if seconds >= 1 {
                text += " in \(seconds) s"
            }
        }
        return text
    }
}

extension TransportError {
    /// Returns the error with the request context filled in where it is missing.
    func withContext(_ context: RequestContext) -> TransportError {
        var copy = self
        if copy.method == nil { copy.method = context.method }
        if copy.host == nil { copy.host = context.host }
        if copy.path == nil { copy.path = context.path }
        return copy
    }
}

extension TransportError {
    /// Whether the failed exchange is worth another attempt: a transient connection failure (see
    /// ``Code/isTransient``) or a per-attempt deadline.
    package var retryDecision: RetryDecision {
        self.code.isTransient || self.code == .deadlineExceeded ? .retry : .doNotRetry
    }
}

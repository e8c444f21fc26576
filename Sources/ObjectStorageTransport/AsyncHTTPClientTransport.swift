//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import AsyncHTTPClient
package import Logging
package import NIOCore
import NIOHTTP1
import NIOSSL
import Tracing

/// The HTTP client the SDK sends through: AsyncHTTPClient, built from an ``HTTPConfiguration``.
///
/// Every client it builds never follows a redirect and never decompresses a body (see ``HTTPConfiguration``). An
/// application's own `HTTPClient` is never accepted: its configuration cannot be checked for either (AsyncHTTPClient
/// keeps it internal), so the transport always builds the client it sends through.
package struct AsyncHTTPClientTransport: HTTPTransport {
    /// The underlying client.
    package let httpClient: HTTPClient
    /// The configuration it was built from.
    package let configuration: HTTPConfiguration
    /// Paces every body to ``HTTPConfiguration/bandwidthLimit``, when set.
    package let bandwidth: BandwidthLimiter?
    private let ownsClient: Bool
    /// The body-consuming requests in flight per event loop (see ``execute(_:deadline:logger:consumer:)``).
    let consumingLoad = EventLoopLoad()

    /// The SDK's process-wide transport, over a client of its own with the default ``HTTPConfiguration``. It is
    /// never shut down (like `HTTPClient.shared`), so it needs no lifecycle management; ``shutdown()`` does
    /// nothing.
    package static let shared = AsyncHTTPClientTransport(configuration: HTTPConfiguration(), ownsClient: false)

    /// Creates a transport that owns a new client built from `configuration` (no redirects, no decompression).
    /// Call ``shutdown()`` when done.
    ///
    /// - Parameters:
    ///   - configuration: Timeouts, pool size, TLS and proxy.
    ///   - eventLoopGroup: The event loops to run on (default AsyncHTTPClient's shared group).
    ///   - backgroundActivityLogger: A logger for the pool's background activity (default none).
    ///   - ownsClient: Whether ``shutdown()`` shuts the client down; `false` for a transport that lives as long as
    ///     the process (never deallocated, so never shut down).
    package init(
        configuration: HTTPConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        backgroundActivityLogger: Logger? = nil,
        ownsClient: Bool = true
    ) {
        self.httpClient = HTTPClient(
            eventLoopGroup: eventLoopGroup,
            configuration: Self.clientConfiguration(configuration),
            backgroundActivityLogger: backgroundActivityLogger
                ?? Logger(label: "ObjectStorageTransport") {
                    _ in SwiftLogNoOpLogHandler()
                }
        )
        self.configuration = configuration
        self.bandwidth = configuration.bandwidthLimit.map { BandwidthLimiter(bytesPerSecond: $0) }
        self.ownsClient = ownsClient
    }

    /// Shuts down the client if the transport owns it; does nothing for a shared client.
    ///
    /// - Throws: The client's shutdown error.
    package func shutdown() async throws {
        guard self.ownsClient else { return }
        try await self.httpClient.shutdown()
    }

    /// Sends one request and returns when the response head arrives.
    ///
    /// A file body (an upload read from a file) on a plain `http` URL
    /// is sent with `sendfile`, so its bytes never pass through the process (unless the configuration turns `sendfile` off).
    ///
    /// The deadline is moved later by the time the request body spends in transit: a deadline bounds waiting for the answer, never an upload
    /// that keeps moving (``HTTPConfiguration/readIdleTimeout`` and ``HTTPConfiguration/minimumTransferRate`` bound that).
    /// Redirects are never followed: a 3xx answer with a `Location` throws ``TransportError/Code/redirectRefused``
    /// (naming the status and the `Location`'s host); one without (such as `304 Not Modified`) is returned.
    /// The request and response bodies are watched for stalls (``HTTPConfiguration/minimumTransferRate``).
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for trace and debug lines (method, host, path and status; never headers or
    ///     the query string).
    /// - Returns: The response, whose body may still be arriving.
    /// - Throws: ``TransportError``.
    package func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger
    ) async throws -> TransportResponse {
        let pacing = BodyPacing(transport: self.bandwidth)
        if request.body == nil {
            return try await self.executeThroughDelegate(
                request,
                sending: nil,
                deadline: deadline,
                pacing: pacing,
                logger: logger
            )
        }
        if pacing.isEmpty, let region = self.sendfileRegion(of: request) {
            return try await self.executeThroughDelegate(
                request,
                sending: region,
                deadline: deadline,
                pacing: pacing,
                logger: logger
            )
        }
        let (context, logger) = self.scope(request, logger: logger)

        var clientRequest = HTTPClientRequest(url: request.url)
        clientRequest.method = request.method
        clientRequest.headers = request.headers
        var uploadWatch: UploadStallWatch?
        var headDeadline: HeadDeadline?
        // The server's silence after the body is sent bounds the wait for the head (AsyncHTTPClient's read timeout
        // is only a backstop).
        let readIdle = self.configuration.readIdleTimeout.map { TimeAmount($0) }
        if let body = request.body {
            (clientRequest.body, uploadWatch, headDeadline) = Self.clientBody(
                body,
                minimumRate: self.configuration.minimumTransferRate,
                deadline: deadline,
                readIdle: readIdle,
                pacing: pacing
            )
        }

        logger.trace(
            "sending request",
            metadata: ["http.body.length": "\(request.body?.length.map { "\($0)" } ?? "-")"]
        )
        do {
            try Task.checkCancellation()
            let response = try await self.send(
                clientRequest,
                deadline: headDeadline.map(Deadline.movingWithBody)
                    ?? .fixed(readIdle.map { min(deadline, .now() + $0) } ?? deadline),
                watch: uploadWatch,
                logger: logger
            )
            logger.debug("received response head", metadata: ["http.status": "\(response.status.code)"])
            if let refused = TransportError.redirectRefused(response.status, headers: response.headers) {
                throw refused
            }
            let meter = self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .response) }
            return TransportResponse(
                status: response.status,
                headers: response.headers,
                body: TransportResponse.Body(storage: .client(response.body, context, meter, pacing))
                    .checkingLength(method: request.method, status: response.status, headers: response.headers)
            )
        } catch {
            let translated = self.explained(TransportError.translating(error, context: context))
            logger.debug("request failed", metadata: ["error.code": "\(translated.code)"])
            throw translated
        }
    }

    /// `error`, its message completed with this transport's settings where they explain it: a full pool names its
    /// size and the wait.
    func explained(_ error: TransportError) -> TransportError {
        guard error.code == .connectionPoolExhausted else { return error }
        var explained = error
        let size = max(1, self.configuration.maximumConnectionsPerHost)
        explained.message =
            "no connection to \(error.host ?? "the host") became free within the connect timeout "
            + "(\(self.configuration.connectTimeout)): all \(size) connection(s) of the pool "
            + "(HTTPConfiguration.maximumConnectionsPerHost) are busy with requests in flight or with response bodies "
            + "not yet read to the end"
        return explained
    }

    /// When a response head must have arrived.
    private enum Deadline {
        /// At this point in time.
        case fixed(NIODeadline)
        /// At a point that moves later while the request body is in transit.
        case movingWithBody(HeadDeadline)
    }

    /// Sends `request` and returns when its response head arrives. With a `watch`, a watchdog task runs beside it
    /// and fails the request (cancelling it) when its body stalls; with a deadline that moves with the body,
    /// another fails it once that deadline has passed.
    private func send(
        _ request: HTTPClientRequest,
        deadline: Deadline,
        watch: UploadStallWatch?,
        logger: Logger
    ) async throws -> HTTPClientResponse {
        if case .fixed(let deadline) = deadline, watch == nil {
            return try await self.httpClient.execute(request, deadline: deadline, logger: logger)
        }
        return try await withThrowingTaskGroup(of: HTTPClientResponse?.self) { group in
            switch deadline {
            case .fixed(let deadline):
                group.addTask { try await self.httpClient.execute(request, deadline: deadline, logger: logger) }
            case .movingWithBody(let headDeadline):
                group.addTask { try await self.httpClient.execute(request, deadline: .distantFuture, logger: logger) }
                group.addTask {
                    try await headDeadline.wait()
                    throw HTTPClientError.deadlineExceeded
                }
            }
            if let watch {
                group.addTask {
                    try await watch.run()
                    return nil
                }
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let response = result { return response }
            }
            throw TransportError(code: .requestFailed, message: "the response ended without a head")
        }
    }

    /// The body to hand AsyncHTTPClient, its stall watch when it is watched, and the head deadline that moves
    /// later while it is in transit. An in-memory body of at most one piece goes in one write, unwatched, under
    /// the plain deadline (the read-idle timeout bounds it), unless it must be paced.
    static func clientBody(
        _ body: TransportRequest.Body,
        minimumRate: MinimumTransferRate?,
        deadline: NIODeadline,
        readIdle: TimeAmount? = nil,
        pacing: BodyPacing
    ) -> (HTTPClientRequest.Body, UploadStallWatch?, HeadDeadline?) {
        let length: HTTPClientRequest.Body.Length
        switch body.storage {
        case .bytes(let buffer):
            guard buffer.readableBytes > StallWatchingBody.pieceSize || !pacing.isEmpty else {
                return (.bytes(buffer), nil, nil)
            }
            length = .known(Int64(buffer.readableBytes))
        case .file(let region):
            length = .known(region.length)
        case .stream(_, let bodyLength):
            length = bodyLength.map { .known($0) } ?? .unknown
        }
        let watch = minimumRate.map { UploadStallWatch(rate: $0) }
        let transit = HeadDeadline(deadline, readIdle: readIdle)
        let paced = StallWatchingBody(base: body, watch: watch, transit: transit, pacing: pacing)
        return (.stream(paced, length: length), watch, transit)
    }

    static func clientConfiguration(_ configuration: HTTPConfiguration) -> HTTPClient.Configuration {
        // The read-idle and unread-body limits are the transport's own (BodyIdleWatch), which tell the server's
        // silence from the application's back-pressure; AsyncHTTPClient's read timeout, which cannot, is only a
        // backstop past both, for the answers to requests with a body (their head is bounded by the deadline).
        let backstop = configuration.readIdleTimeout.map { readIdle in
            max(readIdle, configuration.unreadBodyTimeout ?? readIdle) + .seconds(5)
        }
        var timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(configuration.connectTimeout),
            read: backstop.map { TimeAmount($0) }
        )
        if let readIdleTimeout = configuration.readIdleTimeout {
            timeout.write = TimeAmount(readIdleTimeout)
        }
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: TimeAmount(configuration.idleConnectionTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maximumConnectionsPerHost)
        )
        pool.retryConnectionEstablishment = false
        var client = HTTPClient.Configuration(
            tlsConfiguration: configuration.tls.makeTLSConfiguration(),
            redirectConfiguration: .disallow,
            timeout: timeout,
            connectionPool: pool,
            proxy: configuration.proxy.map { .server(host: $0.host, port: $0.port) },
            decompression: .disabled
        )
        client.httpVersion = .automatic
        // With no tracing system bootstrapped, no tracer rather than the no-op one: its span per request still
        // built attributes from the URL (3 % of a small object's CPU time).
        if client.tracing.tracer is NoOpTracer { client.tracing.tracer = nil }
        return client
    }
}

/// Runs `body` with a transport that owns a new client, and shuts the client down when `body` returns or throws.
///
/// - Parameters:
///   - configuration: Timeouts, pool size, TLS and proxy.
///   - backgroundActivityLogger: A logger for the pool's background activity (default none).
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: The work to do with the transport.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or the shutdown error.
@discardableResult
package func withAsyncHTTPClientTransport<Result>(
    configuration: HTTPConfiguration = .init(),
    backgroundActivityLogger: Logger? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (AsyncHTTPClientTransport) async throws -> Result
) async throws -> Result {
    let transport = AsyncHTTPClientTransport(
        configuration: configuration,
        backgroundActivityLogger: backgroundActivityLogger
    )
    let result: Result
    do {
        result = try await body(transport)
    } catch {
        try? await transport.shutdown()
        throw error
    }
    try await transport.shutdown()
    return result
}

extension AsyncHTTPClientTransport {
    /// What every request starts from: its context (for error translation) and a logger carrying the request's
    /// metadata.
    func scope(_ request: TransportRequest, logger: Logger) -> (context: RequestContext, logger: Logger) {
        let context = RequestContext(method: request.method.rawValue, url: request.url)
        var logger = logger
        for (key, value) in context.metadata { logger[metadataKey: key] = value }
        return (context, logger)
    }
}

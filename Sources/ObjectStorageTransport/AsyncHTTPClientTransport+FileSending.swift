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

extension AsyncHTTPClientTransport {
    /// The file region of `request`'s body when it can go with `sendfile`: a non-empty file body, a plain `http`
    /// URL (so no TLS handler sits between the request and the socket: AsyncHTTPClient speaks HTTP/1.1 there,
    /// directly or through a proxy's `CONNECT` tunnel, and negotiates HTTP/2 only over TLS), NIO's POSIX event
    /// loops, and ``Configuration/usesSendfile`` on.
    func sendfileRegion(of request: TransportRequest) -> FileRegionBody? {
        guard self.configuration.usesSendfile, case .file(let region)? = request.body?.storage, region.length > 0,
            request.url.utf8.count > 7,
            request.url.prefix(7).lowercased() == "http://",
            self.httpClient.eventLoopGroup is MultiThreadedEventLoopGroup
        else { return nil }
        return region
    }

    /// Sends a request without a body, or one whose body is a file region sent with `sendfile`, through
    /// AsyncHTTPClient's delegate interface (its only one that takes `FileRegion` writes, and the one that lets the
    /// transport tell the wait for the server from the wait for the consumer, see ``BodyIdleWatch``), and returns
    /// when the response head arrives.
    func executeThroughDelegate(
        _ request: TransportRequest,
        sending region: FileRegionBody?,
        deadline: NIODeadline,
        pacing: BodyPacing,
        logger: Logger
    ) async throws -> TransportResponse {
        let (context, logger) = self.scope(request, logger: logger)
        logger.trace(
            "sending request",
            metadata: region.map { ["http.body.length": "\($0.length)", "http.body.sendfile": "1"] } ?? [:]
        )
        do {
            try Task.checkCancellation()
            let eventLoop = self.httpClient.eventLoopGroup.any()
            let sender: FileRegionSender?
            if let region {
                sender = try await NIOThreadPool.singleton.runIfActive {
                    try FileRegionSender(
                        region: region,
                        eventLoop: eventLoop,
                        meter: self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .request) }
                    )
                }
            } else {
                sender = nil
            }
            let headDeadline = HeadDeadline(deadline)
            let watch = BodyIdleWatch.make(
                readIdle: self.configuration.readIdleTimeout,
                unread: self.configuration.unreadBodyTimeout
            )
            let (delegate, responseBody) = StreamingResponseDelegate.make(
                transit: headDeadline,
                watch: watch,
                onPartSent: sender.map(Self.partSentHandler)
            )
            let clientRequest: HTTPClient.Request
            do {
                clientRequest = try HTTPClient.Request(
                    url: request.url,
                    method: request.method,
                    headers: request.headers,
                    body: sender?.body
                )
            } catch {
                sender?.abandon()
                throw error
            }
            let task = self.httpClient.execute(
                request: clientRequest,
                delegate: delegate,
                eventLoop: .delegate(on: eventLoop),
                logger: logger
            )
            sender?.attach(task)
            watch?.attach(task)
            task.futureResult.whenFailure { error in delegate.failed(error) }
            let expiry = Task {
                try await headDeadline.wait()
                if !delegate.hasHead { task.fail(reason: HTTPClientError.deadlineExceeded) }
            }
            defer { expiry.cancel() }
            let head = try await withTaskCancellationHandler {
                try await delegate.head()
            } onCancel: {
                sender?.cancel()
                task.cancel()
            }
            logger.debug("received response head", metadata: ["http.status": "\(head.status.code)"])
            if let refused = TransportError.redirectRefused(head.status, headers: head.headers) {
                task.cancel()
                throw refused
            }
            let body = TranslatingSequence(
                base: responseBody,
                context: context,
                meter: self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .response) },
                pacing: pacing
            )
            return TransportResponse(
                status: head.status,
                headers: head.headers,
                body: TransportResponse.Body.stream(body)
                    .checkingLength(method: request.method, status: head.status, headers: head.headers)
            )
        } catch {
            let translated = self.explained(TransportError.translating(error, context: context))
            logger.debug("request failed", metadata: ["error.code": "\(translated.code)"])
            throw translated
        }
    }
}

extension AsyncHTTPClientTransport {
    /// What the delegate calls with each request body part written: `sender` counts it.
    fileprivate static func partSentHandler(_ sender: FileRegionSender) -> @Sendable (IOData) -> Void {
        { part in sender.partSent(part) }
    }
}

/// A response body whose errors are translated to ``TransportError`` values with the request's context, watched
/// for stalls (only the time ``AsyncIterator/next()`` waits counts).
private struct TranslatingSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: StreamingResponseDelegate.Producer
    let context: RequestContext
    let meter: StallMeter?
    let pacing: BodyPacing

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: StreamingResponseDelegate.Producer.AsyncIterator
        let context: RequestContext
        var meter: StallMeter?
        let pacing: BodyPacing

        mutating func next() async throws -> ByteBuffer? {
            do {
                let waitStart = NIODeadline.now()
                let chunk = try await self.base.next()
                if let chunk {
                    try self.meter?.record(
                        bytes: chunk.readableBytes,
                        waited: (NIODeadline.now() - waitStart).nanoseconds
                    )
                    // Holding the chunk back holds the connection back (back-pressure); not counted as a stall.
                    try await self.pacing.wait(for: chunk.readableBytes, .receive)
                }
                return chunk
            } catch {
                throw TransportError.translating(error, context: self.context)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: self.base.makeAsyncIterator(),
            context: self.context,
            meter: self.meter,
            pacing: self.pacing
        )
    }
}

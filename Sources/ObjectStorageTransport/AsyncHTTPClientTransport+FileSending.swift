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

    /// Sends a request whose body is a file region with `sendfile`, through AsyncHTTPClient's delegate
    /// interface (its only one that takes `FileRegion` writes), and returns when the response head arrives.
    func execute(
        _ request: TransportRequest,
        sending region: FileRegionBody,
        deadline: NIODeadline,
        logger: Logger
    ) async throws -> TransportResponse {
        let (context, logger) = self.scope(request, logger: logger)
        logger.trace("sending request", metadata: ["http.body.length": "\(region.length)", "http.body.sendfile": "1"])
        do {
            try Task.checkCancellation()
            let eventLoop = self.httpClient.eventLoopGroup.any()
            let sender = try await NIOThreadPool.singleton.runIfActive {
                try FileRegionSender(
                    region: region,
                    eventLoop: eventLoop,
                    meter: self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .request) }
                )
            }
            let headDeadline = HeadDeadline(deadline)
            let (delegate, responseBody) = StreamingResponseDelegate.make(transit: headDeadline) { part in
                sender.partSent(part)
            }
            let clientRequest: HTTPClient.Request
            do {
                clientRequest = try HTTPClient.Request(
                    url: request.url,
                    method: request.method,
                    headers: request.headers,
                    body: sender.body
                )
            } catch {
                sender.abandon()
                throw error
            }
            let task = self.httpClient.execute(
                request: clientRequest,
                delegate: delegate,
                eventLoop: .delegate(on: eventLoop),
                logger: logger
            )
            sender.attach(task)
            task.futureResult.whenFailure { error in delegate.failed(error) }
            let expiry = Task {
                try await headDeadline.wait()
                if !delegate.hasHead { task.fail(reason: HTTPClientError.deadlineExceeded) }
            }
            defer { expiry.cancel() }
            let head = try await withTaskCancellationHandler {
                try await delegate.head()
            } onCancel: {
                sender.cancel()
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
                meter: self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .response) }
            )
            return TransportResponse(status: head.status, headers: head.headers, body: .stream(body))
        } catch {
            let translated = self.explained(TransportError.translating(error, context: context))
            logger.debug("request failed", metadata: ["error.code": "\(translated.code)"])
            throw translated
        }
    }
}

/// A response body whose errors are translated to ``TransportError`` values with the request's context, watched
/// for stalls (only the time ``AsyncIterator/next()`` waits counts).
private struct TranslatingSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: StreamingResponseDelegate.Producer
    let context: RequestContext
    let meter: StallMeter?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: StreamingResponseDelegate.Producer.AsyncIterator
        let context: RequestContext
        var meter: StallMeter?

        mutating func next() async throws -> ByteBuffer? {
            do {
                let waitStart = NIODeadline.now()
                let chunk = try await self.base.next()
                if let chunk {
                    try self.meter?.record(
                        bytes: chunk.readableBytes,
                        waited: (NIODeadline.now() - waitStart).nanoseconds
                    )
                }
                return chunk
            } catch {
                throw TransportError.translating(error, context: self.context)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.base.makeAsyncIterator(), context: self.context, meter: self.meter)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
package import Logging
package import NIOCore
import NIOHTTP1
import Synchronization

extension AsyncHTTPClientTransport {
    /// Sends a request without a body through AsyncHTTPClient's delegate interface: each body buffer goes to
    /// `consumer` on the event loop the delegate runs on, so no buffer waits for a task to be scheduled.
    ///
    /// The delegate prefers the event loop with the fewest such requests in flight: a request that just ended
    /// left an idle connection there, which the pool hands to the next one, so buffers rarely cross threads.
    /// Requiring the loop (`.delegateAndChannel`) instead made the pool open a new connection for most
    /// requests (94–134 connections for the 128 parts of a 1 GiB download).
    ///
    /// The deadline covers the response head only (as in ``execute(_:deadline:logger:)``); the body is governed
    /// by the read-idle timeout and ``Configuration/minimumTransferRate`` (time the consumer holds a buffer back
    /// with ``BodyDemand/after(_:)`` does not count towards a stall). A redirect is refused as there.
    ///
    /// - Parameters:
    ///   - request: The request (its body is ignored).
    ///   - deadline: The point in time by which the response head must have arrived.
    ///   - logger: The logger for trace and debug lines (method, host, path and status).
    ///   - consumer: Takes the body of an accepted answer.
    /// - Returns: The response; its body is empty when the consumer took it, else the body's first MiB.
    /// - Throws: ``TransportError`` (``TransportError/Code/bodyTruncated`` for an accepted body that ended before
    ///   its `Content-Length`), or what the consumer threw.
    package func execute(
        _ request: TransportRequest,
        deadline: NIODeadline,
        logger: Logger,
        consumer: some ResponseBodyConsumer
    ) async throws -> TransportResponse {
        let (context, logger) = self.scope(request, logger: logger)
        let delegate = ConsumingDelegate(
            consumer: consumer,
            pacing: BodyPacing(transport: self.bandwidth),
            meter: self.configuration.minimumTransferRate.map { StallMeter(rate: $0, direction: .response) },
            // The consumer is the SDK's own (a file writer): only the server's silence is timed.
            watch: BodyIdleWatch.make(readIdle: self.configuration.readIdleTimeout, unread: nil)
        )
        logger.trace("sending request", metadata: ["http.body.length": "-"])
        do {
            try Task.checkCancellation()
            let clientRequest = try HTTPClient.Request(
                url: request.url,
                method: request.method,
                headers: request.headers
            )
            let eventLoop = self.consumingLoad.pick(from: self.httpClient.eventLoopGroup)
            defer { self.consumingLoad.release(eventLoop) }
            let task = self.httpClient.execute(
                request: clientRequest,
                delegate: delegate,
                eventLoop: .delegate(on: eventLoop),
                logger: logger
            )
            delegate.watch?.attach(task)
            let headDeadline = eventLoop.scheduleTask(deadline: deadline) {
                if !delegate.hasHead { task.fail(reason: HTTPClientError.deadlineExceeded) }
            }
            defer { headDeadline.cancel() }
            try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            if let consumerError = delegate.consumerError { throw consumerError }
            if !delegate.endedEarly {
                let translated = TransportError.translating(error, context: context)
                logger.debug("request failed", metadata: ["error.code": "\(translated.code)"])
                throw translated
            }
        }
        guard let (head, collected) = delegate.outcome else {
            throw TransportError(code: .requestFailed, message: "the response ended without a head")
                .withContext(context)
        }
        logger.debug("received response", metadata: ["http.status": "\(head.status.code)"])
        if collected == nil, !delegate.endedEarly,
            let announced = TransportResponse.announcedBodyLength(
                method: request.method,
                status: head.status,
                headers: head.headers
            ), delegate.consumedBytes < announced
        {
            throw TransportError.bodyTruncated(received: delegate.consumedBytes, announced: announced)
                .withContext(context)
        }
        var body = TransportResponse.Body()
        if let collected {
            body = .stream(
                AsyncStream { continuation in
                    continuation.yield(collected)
                    continuation.finish()
                }
            )
        }
        return TransportResponse(status: head.status, headers: head.headers, body: body)
    }
}

/// Passes an answer's head and body to a ``ResponseBodyConsumer`` on the event loop, or collects the body of an
/// answer the consumer did not accept (at most ``collectLimit`` bytes).
private final class ConsumingDelegate<Consumer: ResponseBodyConsumer>: HTTPClientResponseDelegate {
    typealias Response = Void

    /// The most bytes of a body that is not consumed (an error document) that are kept.
    static var collectLimit: Int { 1 << 20 }

    private struct State {
        var head: HTTPResponseHead?
        var accepted = false
        var collected = ByteBuffer()
        var consumerError: (any Error)?
        var endedEarly = false
        /// The bytes of an accepted body handed to the consumer.
        var consumed: Int64 = 0
        var meter: StallMeter?
        /// Since when the delegate has been waiting for the network (not for the consumer).
        var waitingSince = NIODeadline.now()
    }

    /// Fails the request when the consumer wants no more bytes; never surfaces.
    private struct EndedEarly: Error {}

    private let consumer: Consumer
    private let pacing: BodyPacing
    private let state = Mutex(State())
    /// Times the server's silence.
    let watch: BodyIdleWatch?

    init(consumer: Consumer, pacing: BodyPacing, meter: StallMeter?, watch: BodyIdleWatch?) {
        self.consumer = consumer
        self.pacing = pacing
        self.watch = watch
        self.state.withLock { $0.meter = meter }
    }

    var hasHead: Bool { self.state.withLock { $0.head != nil } }

    var consumerError: (any Error)? { self.state.withLock { $0.consumerError } }

    var endedEarly: Bool { self.state.withLock { $0.endedEarly } }

    var consumedBytes: Int64 { self.state.withLock { $0.consumed } }

    /// The head, and the collected body when the consumer did not take it.
    var outcome: (HTTPResponseHead, ByteBuffer?)? {
        self.state.withLock { state in state.head.map { ($0, state.accepted ? nil : state.collected) } }
    }

    func didSendRequest(task: HTTPClient.Task<Void>) {
        self.watch?.requestSent()
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.watch?.received()
        if let refused = TransportError.redirectRefused(head.status, headers: head.headers) {
            self.state.withLock { $0.head = head }
            return task.eventLoop.makeFailedFuture(refused)
        }
        do {
            let accepted = try self.consumer.accept(status: head.status, headers: head.headers)
            self.state.withLock {
                $0.head = head
                $0.accepted = accepted
                $0.waitingSince = .now()
            }
            return task.eventLoop.makeSucceededVoidFuture()
        } catch {
            self.state.withLock {
                $0.head = head
                $0.consumerError = error
            }
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        self.watch?.received()
        let checked = self.state.withLock { state -> Result<Bool, TransportError> in
            let now = NIODeadline.now()
            do throws(TransportError) {
                try state.meter?.record(bytes: buffer.readableBytes, waited: (now - state.waitingSince).nanoseconds)
            } catch {
                return .failure(error)
            }
            state.waitingSince = now
            if state.accepted { state.consumed += Int64(buffer.readableBytes) }
            if !state.accepted {
                var buffer = buffer
                let room = max(0, Self.collectLimit - state.collected.readableBytes)
                if let kept = buffer.readSlice(length: min(room, buffer.readableBytes)) {
                    var kept = kept
                    state.collected.writeBuffer(&kept)
                }
            }
            return .success(state.accepted)
        }
        let accepted: Bool
        switch checked {
        case .success(let value): accepted = value
        case .failure(let stalled): return task.eventLoop.makeFailedFuture(stalled)
        }
        guard accepted else { return task.eventLoop.makeSucceededVoidFuture() }
        let delay = self.pacing.delay(for: buffer.readableBytes, .receive)
        guard delay > .zero else { return self.handOver(buffer, task: task) }
        // Holding the buffer back holds the connection back; like the consumer's own backpressure, the wait for
        // the bandwidth limit is not the server's stall.
        return task.eventLoop.scheduleTask(in: TimeAmount(delay)) {}.futureResult.flatMap {
            self.state.withLock { $0.waitingSince = .now() }
            return self.handOver(buffer, task: task)
        }
    }

    /// Gives an accepted body's buffer to the consumer, and returns when the next may come.
    private func handOver(_ buffer: ByteBuffer, task: HTTPClient.Task<Void>) -> EventLoopFuture<Void> {
        do {
            switch try self.consumer.consume(buffer, on: task.eventLoop) {
            case .more:
                return task.eventLoop.makeSucceededVoidFuture()
            case .done:
                self.state.withLock { $0.endedEarly = true }
                return task.eventLoop.makeFailedFuture(EndedEarly())
            case .after(let ready):
                // The consumer's backpressure is not the server's stall: the wait restarts once it is ready.
                return ready.flatMapErrorThrowing { error in
                    self.state.withLock { $0.consumerError = error }
                    throw error
                }.map {
                    self.state.withLock { $0.waitingSince = .now() }
                }
            }
        } catch {
            self.state.withLock { $0.consumerError = error }
            return task.eventLoop.makeFailedFuture(error)
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        self.watch?.finished()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        self.watch?.finished()
    }
}

/// Counts requests in flight per event loop, to send the next one where the fewest run.
final class EventLoopLoad: Sendable {
    private let counts = Mutex<[ObjectIdentifier: Int]>([:])

    /// The loop of `group` with the fewest requests in flight (the first such), counted as one more.
    func pick(from group: any EventLoopGroup) -> any EventLoop {
        self.counts.withLock { counts in
            var chosen = group.next()
            var fewest = Int.max
            for loop in group.makeIterator() {
                let count = counts[ObjectIdentifier(loop)] ?? 0
                if count < fewest {
                    chosen = loop
                    fewest = count
                }
            }
            counts[ObjectIdentifier(chosen), default: 0] += 1
            return chosen
        }
    }

    /// Counts a request on `loop` as finished.
    func release(_ loop: any EventLoop) {
        self.counts.withLock { counts in
            let key = ObjectIdentifier(loop)
            let remaining = (counts[key] ?? 1) - 1
            counts[key] = remaining > 0 ? remaining : nil
        }
    }
}

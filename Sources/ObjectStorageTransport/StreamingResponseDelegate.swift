//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Turns AsyncHTTPClient's delegate callbacks into what ``HTTPTransport/execute(_:deadline:logger:)`` returns: the
/// response head, then the body as an async sequence with backpressure (the next body part is read from the
/// connection only once the consumer has room for it).
///
/// A body the caller drops unread is drained when what is left of it is known and small (at most ``drainLimit``
/// bytes) and arrives quickly (within ``drainTime``), so the connection can serve another request; otherwise the
/// request is cancelled at once, which closes the connection rather than keep it busy on a large or slow body.
final class StreamingResponseDelegate: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void
    typealias Producer = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Demand
    >

    /// The most bytes an abandoned body may have left for it to be read (and dropped) to keep the connection.
    static var drainLimit: Int64 { 1 << 20 }
    /// The longest an abandoned body is drained before the request is cancelled.
    static var drainTime: TimeAmount { .seconds(1) }

    private struct State {
        var headContinuation: CheckedContinuation<HTTPResponseHead, any Error>?
        var head: Result<HTTPResponseHead, any Error>?
        /// The body's announced length (`Content-Length`), if any.
        var length: Int64?
        /// The body bytes received so far.
        var received: Int64 = 0
        /// When draining ends: set at the first part received after the consumer left.
        var drainDeadline: NIODeadline?
    }

    private let state = Mutex(State())
    private let demand: Demand
    private let source: Producer.Source
    /// Told of each request body part written to the connection.
    private let onPartSent: (@Sendable (IOData) -> Void)?
    /// Told when the request body starts and ends moving.
    private let transit: HeadDeadline?
    /// Times the waits for the server and for the consumer.
    private let watch: BodyIdleWatch?

    /// Creates a delegate and the response body it feeds. The delegate keeps no reference to the body, so a body
    /// the caller drops without iterating it ends, and is drained.
    ///
    /// - Parameters:
    ///   - transit: The head deadline to stop while the request body is in transit.
    ///   - watch: The read-idle and unread-body limits.
    ///   - onPartSent: Called (on the task's event loop) with each request body part once it is written.
    /// - Returns: The delegate, and the response body's buffers in order.
    static func make(
        transit: HeadDeadline? = nil,
        watch: BodyIdleWatch? = nil,
        onPartSent: (@Sendable (IOData) -> Void)? = nil
    ) -> (delegate: StreamingResponseDelegate, body: Producer) {
        let demand = Demand()
        let made = Producer.makeSequence(
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8),
            finishOnDeinit: false,
            delegate: demand
        )
        let delegate = StreamingResponseDelegate(
            demand: demand,
            source: made.source,
            transit: transit,
            watch: watch,
            onPartSent: onPartSent
        )
        return (delegate, made.sequence)
    }

    private init(
        demand: Demand,
        source: Producer.Source,
        transit: HeadDeadline?,
        watch: BodyIdleWatch?,
        onPartSent: (@Sendable (IOData) -> Void)?
    ) {
        self.demand = demand
        self.source = source
        self.transit = transit
        self.watch = watch
        self.onPartSent = onPartSent
    }

    /// Whether the response head has arrived (or the request failed).
    var hasHead: Bool { self.state.withLock { $0.head != nil } }

    /// Waits for the response head.
    ///
    /// - Throws: The error that ended the request before the head arrived.
    func head() async throws -> HTTPResponseHead {
        try await withCheckedThrowingContinuation { continuation in
            let ready = self.state.withLock { state -> Result<HTTPResponseHead, any Error>? in
                if let head = state.head { return head }
                state.headContinuation = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func settleHead(_ result: Result<HTTPResponseHead, any Error>) {
        let continuation = self.state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            guard state.head == nil else { return nil }
            state.head = result
            defer { state.headContinuation = nil }
            return state.headContinuation
        }
        continuation?.resume(with: result)
    }

    func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
        self.transit?.bodyStarted()
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        self.onPartSent?(part)
    }

    func didSendRequest(task: HTTPClient.Task<Void>) {
        self.transit?.bodyEnded()
        self.watch?.requestSent()
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.watch?.received()
        let length = head.headers.first(name: "content-length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        self.state.withLock { $0.length = length }
        self.settleHead(.success(head))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        self.watch?.received()
        let received = Int64(buffer.readableBytes)
        if self.demand.isTerminated {
            let drains = self.state.withLock { state in
                let now = NIODeadline.now()
                if state.drainDeadline == nil {
                    state.drainDeadline = now + Self.drainTime
                    let left = state.length.map { $0 - state.received } ?? .max
                    if left > Self.drainLimit { return false }
                }
                state.received += received
                return now <= state.drainDeadline ?? now
            }
            if !drains { task.cancel() }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        self.state.withLock { $0.received += received }
        switch self.source.yield(buffer) {
        case .produceMore, .dropped:
            self.demand.resumed()
            return task.eventLoop.makeSucceededVoidFuture()
        case .stopProducing:
            guard let watch = self.watch else { return self.demand.pause(on: task.eventLoop) }
            watch.paused()
            return self.demand.pause(on: task.eventLoop).always { _ in watch.resumed() }
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        self.failed(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        self.watch?.finished()
        self.settleHead(.failure(HTTPClientError.remoteConnectionClosed))
        self.source.finish()
    }

    /// Ends the head wait and the body with `error` (what has not ended yet).
    func failed(_ error: any Error) {
        self.watch?.finished()
        self.settleHead(.failure(error))
        self.source.finish(error)
        self.demand.resumeAll()
    }

    /// The body's demand: resumes reading from the connection when the consumer wants more, and notes when the
    /// consumer is gone.
    final class Demand: NIOAsyncSequenceProducerDelegate, Sendable {
        private struct State {
            var paused: EventLoopPromise<Void>?
            /// `produceMore` came while not paused; the next pause does not wait.
            var signalled = false
            var terminated = false
        }

        private let state = Mutex(State())

        var isTerminated: Bool { self.state.withLock { $0.terminated } }

        /// Pauses reading until the consumer wants more.
        func pause(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
            self.state.withLock { state in
                if state.signalled || state.terminated {
                    state.signalled = false
                    return eventLoop.makeSucceededVoidFuture()
                }
                let promise = eventLoop.makePromise(of: Void.self)
                state.paused = promise
                return promise.futureResult
            }
        }

        /// Forgets a stale `produceMore` (the producer wants more anyway).
        func resumed() {
            self.state.withLock { $0.signalled = false }
        }

        /// Resumes any paused read (the request ended).
        func resumeAll() {
            let paused = self.state.withLock { state in
                defer { state.paused = nil }
                return state.paused
            }
            paused?.succeed()
        }

        func produceMore() {
            let paused = self.state.withLock { state in
                defer { state.paused = nil }
                if state.paused == nil { state.signalled = true }
                return state.paused
            }
            paused?.succeed()
        }

        func didTerminate() {
            let paused = self.state.withLock { state in
                state.terminated = true
                defer { state.paused = nil }
                return state.paused
            }
            paused?.succeed()
        }
    }
}

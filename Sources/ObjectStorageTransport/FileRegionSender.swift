//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a ``FileRegionBody`` to an AsyncHTTPClient request as `FileRegion`s (sent by the kernel with `sendfile`,
/// never copied into the process), one piece of ``FileRegionBody/chunkSize`` bytes after another, at most
/// ``window`` pieces in flight.
///
/// Between pieces it reports progress (as each piece is written), honours cancellation and checks that the file
/// still holds the region; while a piece is in flight a watchdog checks the file's size every
/// ``watchdogInterval`` (`sendfile` from a file truncated under it would never finish) and, with a ``StallMeter``,
/// fails the request when the connection takes too few bytes for too long (a server reading a byte at a time). The file stays open until
/// both the request has ended and no piece is left to write.
final class FileRegionSender: Sendable {
    /// The most pieces written but not yet sent.
    static var window: Int { 2 }
    /// How often the file's size is checked while a piece is in flight.
    static var watchdogInterval: TimeAmount { .seconds(1) }

    private struct State {
        var next: Int64
        var inFlight = 0
        var promise: EventLoopPromise<Void>?
        var writer: HTTPClient.Body.StreamWriter?
        var started = false
        var finished = false
        var cancelled = false
        var requestEnded = false
        var closed = false
        var watchdog: RepeatedTask?
        var task: HTTPClient.Task<Void>?
        var meter: StallMeter?
        /// When the stall meter was last told of progress (every piece is sent from a file, so all the time
        /// between pieces is spent waiting for the network).
        var meteredSince = NIODeadline.now()
    }

    let region: FileRegionBody
    private let handle: NIOFileHandle
    /// A second descriptor of the same file for size checks, which must not wait for (or block) a `sendfile`.
    private let checkHandle: NIOFileHandle
    private let eventLoop: any EventLoop
    private let state: Mutex<State>

    /// Opens the file and checks its size. Blocking: run it on the thread pool.
    ///
    /// - Throws: ``TransportError/Code/fileReadFailed``.
    init(region: FileRegionBody, eventLoop: any EventLoop, meter: StallMeter? = nil) throws {
        let handle = try region.open()
        do {
            self.checkHandle = try handle.duplicate()
        } catch {
            try? handle.close()
            throw region.readFailed(error)
        }
        self.handle = handle
        self.region = region
        self.eventLoop = eventLoop
        self.state = Mutex(State(next: region.offset, meter: meter))
    }

    /// The request's body: AsyncHTTPClient calls it once, when the connection is ready for the body.
    var body: HTTPClient.Body {
        .stream(contentLength: self.region.length) { writer in self.start(writer) }
    }

    /// Notes the task, for the watchdog to fail it.
    func attach(_ task: HTTPClient.Task<Void>) {
        self.state.withLock { $0.task = task }
        task.futureResult.whenComplete { result in
            switch result {
            case .success: self.requestEnded(nil)
            case .failure(let error): self.requestEnded(error)
            }
        }
    }

    /// Closes the file of a request that was never sent.
    func abandon() {
        self.requestEnded(nil)
    }

    /// Stops at the next piece (the task was cancelled).
    func cancel() {
        self.state.withLock { $0.cancelled = true }
    }

    /// Counts a piece as sent (called once per written piece, in order).
    func partSent(_ part: IOData) {
        guard case .fileRegion(let region) = part else { return }
        self.region.progress?(region.readableBytes)
        let stalled = self.state.withLock { state -> (TransportError, HTTPClient.Task<Void>?)? in
            state.inFlight -= 1
            let now = NIODeadline.now()
            defer { state.meteredSince = now }
            do throws(TransportError) {
                try state.meter?.record(bytes: region.readableBytes, waited: (now - state.meteredSince).nanoseconds)
                return nil
            } catch {
                return (error, state.task)
            }
        }
        if let (error, task) = stalled {
            self.finish(.failure(error))
            task?.fail(reason: error)
            return
        }
        // Not from inside this callback: it runs while the channel completes the piece's write, and a write made
        // there re-enters the channel (AsyncHTTPClient's idle-write tracking does not expect that).
        self.eventLoop.execute { self.pump() }
    }

    private func start(_ writer: HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
        let promise = self.eventLoop.makePromise(of: Void.self)
        let refused = self.state.withLock { state -> Bool in
            guard !state.started, !state.requestEnded else { return true }
            state.started = true
            state.writer = writer
            state.promise = promise
            state.meteredSince = .now()
            return false
        }
        if refused {
            promise.fail(HTTPClientError.requestStreamCancelled)
            return promise.futureResult
        }
        let watchdog = self.eventLoop.scheduleRepeatedTask(
            initialDelay: Self.watchdogInterval,
            delay: Self.watchdogInterval
        ) { _ in
            self.watch()
        }
        let kept = self.state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.watchdog = watchdog
            return true
        }
        if !kept { watchdog.cancel() }
        self.pump()
        return promise.futureResult
    }

    /// Writes pieces until ``window`` are in flight, or finishes the body.
    private func pump() {
        enum Step {
            case write(HTTPClient.Body.StreamWriter, [FileRegion])
            case finish
            case fail(any Error)
            case none
        }
        let end = self.region.end
        let step = self.state.withLock { state -> Step in
            guard state.started, !state.finished, let writer = state.writer else { return .none }
            if state.cancelled { return .fail(CancellationError()) }
            if state.next >= end { return state.inFlight == 0 ? .finish : .none }
            guard state.inFlight < Self.window else { return .none }
            do {
                try self.region.checkSize(of: self.checkHandle)
            } catch {
                return .fail(error)
            }
            var pieces: [FileRegion] = []
            while state.inFlight < Self.window, state.next < end {
                let pieceEnd = state.next + min(Int64(self.region.chunkSize), end - state.next)
                let piece = FileRegion(fileHandle: self.handle, readerIndex: Int(state.next), endIndex: Int(pieceEnd))
                pieces.append(piece)
                state.next = pieceEnd
                state.inFlight += 1
            }
            return .write(writer, pieces)
        }
        switch step {
        case .write(let writer, let pieces):
            for piece in pieces {
                writer.write(.fileRegion(piece)).whenFailure { error in self.finish(.failure(error)) }
            }
        case .finish:
            self.finish(.success(()))
        case .fail(let error):
            self.finish(.failure(error))
        case .none:
            break
        }
    }

    /// Ends the body stream (once).
    private func finish(_ result: Result<Void, any Error>) {
        let ended = self.state.withLock { state -> (EventLoopPromise<Void>?, RepeatedTask?)? in
            guard state.started, !state.finished else { return nil }
            state.finished = true
            state.writer = nil
            defer {
                state.promise = nil
                state.watchdog = nil
            }
            return (state.promise, state.watchdog)
        }
        guard let (promise, watchdog) = ended else { return }
        watchdog?.cancel()
        promise?.completeWith(result)
        self.closeIfDone()
    }

    /// The request ended: a body still being written stops, and the file closes.
    private func requestEnded(_ error: (any Error)?) {
        self.state.withLock { state in
            state.requestEnded = true
            state.task = nil  // the task holds the delegate, which holds this sender
        }
        self.finish(.failure(error ?? HTTPClientError.requestStreamCancelled))
        self.closeIfDone()
    }

    /// Fails the request when the file no longer holds the region, or when the connection has taken too little
    /// for too long.
    private func watch() {
        let (task, stalled) = self.state.withLock { state -> (HTTPClient.Task<Void>?, TransportError?) in
            guard !state.finished, let task = state.task else { return (nil, nil) }
            guard let meter = state.meter, state.inFlight > 0 else { return (task, nil) }
            let waited = (NIODeadline.now() - state.meteredSince).nanoseconds
            return (task, meter.isStalled(afterWaiting: waited) ? meter.stalled(waitedExtra: waited) : nil)
        }
        guard let task else { return }
        do {
            if let stalled { throw stalled }
            try self.region.checkSize(of: self.checkHandle)
        } catch {
            self.finish(.failure(error))
            task.fail(reason: error)
        }
    }

    /// Closes the file once the request has ended and the body is not being written.
    private func closeIfDone() {
        let close = self.state.withLock { state -> Bool in
            guard state.requestEnded, !state.started || state.finished, !state.closed else { return false }
            state.closed = true
            return true
        }
        guard close else { return }
        let handles = [self.handle, self.checkHandle]
        NIOThreadPool.singleton.submit { _ in
            for handle in handles { Self.close(handle) }
        }
    }

    /// Closes `handle`, waiting while a `sendfile` that the failed request left queued still holds it.
    private static func close(_ handle: NIOFileHandle) {
        for _ in 0..<1000 {
            do {
                try handle.close()
                return
            } catch let error as IOError where error.errnoCode == EBUSY {
                usleep(1000)
            } catch {
                return
            }
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import Synchronization

/// A request body as AsyncHTTPClient pulls it, in pieces of at most ``pieceSize`` bytes, reporting to an
/// ``UploadStallWatch`` (when the body is watched for stalls) when each piece is handed to the connection and when
/// the connection asks for the next, and to a ``HeadDeadline`` when the body starts and ends moving.
///
/// AsyncHTTPClient asks for the next piece once the connection can take more, so the time from handing a piece
/// over to being asked for the next one is time spent waiting for the network; the time the base body takes to
/// produce a piece (a file read, the application's own stream) is not counted.
struct StallWatchingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The largest piece handed to the connection at once, so that progress is seen at a useful granularity.
    static var pieceSize: Int { 64 * 1024 }

    let base: TransportRequest.Body
    let watch: UploadStallWatch?
    let transit: HeadDeadline
    let pacing: BodyPacing

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: TransportRequest.Body.AsyncIterator
        let watch: UploadStallWatch?
        let transit: HeadDeadline
        let pacing: BodyPacing
        var pending = ByteBuffer()

        mutating func next() async throws -> ByteBuffer? {
            try self.watch?.pieceTaken()
            self.transit.bodyStarted()
            if self.pending.readableBytes == 0 {
                guard let chunk = try await self.base.next() else {
                    self.transit.bodyEnded()
                    return nil
                }
                self.pending = chunk
            }
            let length = Swift.min(StallWatchingBody.pieceSize, self.pending.readableBytes)
            guard let piece = self.pending.readSlice(length: length) else { return nil }
            // Waiting for the bandwidth limit is neither the network's stall nor the answer's wait.
            try await self.pacing.wait(for: piece.readableBytes, .send)
            self.watch?.pieceHandedOver(bytes: piece.readableBytes)
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: self.base.makeAsyncIterator(),
            watch: self.watch,
            transit: self.transit,
            pacing: self.pacing
        )
    }
}

/// The progress of one request body, shared by the body (which reports pieces) and a watchdog task (which fails
/// the request when the connection has been taking too little for too long, even if it never asks for more).
final class UploadStallWatch: Sendable {
    private struct State {
        var meter: StallMeter
        /// The piece the connection is taking: when it was handed over, and its size.
        var handedOver: (at: NIODeadline, bytes: Int)?
    }

    private let state: Mutex<State>
    /// How often the watchdog looks: a tenth of the window, between 10 ms and 1 s.
    let interval: Duration

    init(rate: MinimumTransferRate) {
        self.state = Mutex(State(meter: StallMeter(rate: rate, direction: .request)))
        self.interval = min(max(rate.window / 10, .milliseconds(10)), .seconds(1))
    }

    /// The connection has been handed a piece of `bytes` bytes.
    func pieceHandedOver(bytes: Int) {
        self.state.withLock { $0.handedOver = (.now(), bytes) }
    }

    /// The connection asks for the next piece: it has taken the last one.
    ///
    /// - Throws: ``TransportError/Code/transferStalled`` when it took too long.
    func pieceTaken() throws(TransportError) {
        try self.state.withLock { state throws(TransportError) in
            guard let handedOver = state.handedOver else { return }
            state.handedOver = nil
            try state.meter.record(bytes: handedOver.bytes, waited: (NIODeadline.now() - handedOver.at).nanoseconds)
        }
    }

    /// The stall error if the piece in flight has been waiting too long, else `nil`.
    func stalled() -> TransportError? {
        self.state.withLock { state in
            guard let handedOver = state.handedOver else { return nil }
            let waited = (NIODeadline.now() - handedOver.at).nanoseconds
            return state.meter.isStalled(afterWaiting: waited) ? state.meter.stalled(waitedExtra: waited) : nil
        }
    }

    /// Looks every ``interval`` until cancelled, and throws once the body has stalled.
    ///
    /// - Throws: ``TransportError/Code/transferStalled``, or `CancellationError` when cancelled.
    func run() async throws {
        while true {
            try await Task.sleep(for: self.interval)
            if let stalled = self.stalled() { throw stalled }
        }
    }
}

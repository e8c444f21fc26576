//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The slowest a body may move before its transfer counts as stalled: fewer than `bytes` bytes over `window` (see
/// ``init(bytes:per:)``) of time spent waiting for the network (curl's `--speed-limit` and `--speed-time`).
///
/// Only time spent waiting for the *network* counts:
/// - a response body: the time the reader spends waiting for the next bytes to arrive; time the application takes
///   between two reads (its own backpressure, for example a slow consumer of a streamed download) does not count;
/// - a request body: the time the connection takes to accept each piece handed to it; time spent producing the
///   next piece (reading a file, or waiting for the application's stream) does not count. A piece counts once the
///   connection has taken all of it, so an upload must move at least one piece (512 KiB for a file body by default)
///   per `window`.
///
/// A transfer that stalls fails with ``TransportError/Code/transferStalled``, which is transient, so the client's
/// retry policy sends it again. A connection that falls silent altogether is bounded by the read-idle timeout
/// as well.
///
/// ```swift
/// var configuration = HTTPConfiguration()
/// configuration.minimumTransferRate = MinimumTransferRate(bytes: 64 * 1024, per: .seconds(20))
/// ```
public struct MinimumTransferRate: Sendable, Hashable {
    /// The fewest bytes that must move in each ``window``.
    package var bytes: Int
    /// How long a transfer may wait for the network while moving fewer than ``bytes`` bytes.
    package var window: Duration

    /// Creates a limit.
    ///
    /// - Parameters:
    ///   - bytes: The fewest bytes that must move in each window (at least 1).
    ///   - window: The window of time spent waiting for the network.
    public init(bytes: Int, per window: Duration) {
        self.bytes = max(1, bytes)
        self.window = window
    }

    /// The default: 1 KiB per 60 s of waiting. A server dripping a byte a second fails after a minute; any link
    /// that moves more than 17 bytes a second (downloads) or one 512 KiB piece a minute (uploads, about
    /// 9 KB/s) never does.
    public static let `default` = MinimumTransferRate(bytes: 1024, per: .seconds(60))
}

/// Counts the bytes a body moved against the time spent waiting for the network, and throws
/// ``TransportError/Code/transferStalled`` when fewer than the minimum moved in a window.
///
/// The window restarts each time the minimum has been reached, so a pause followed by a burst never trips it; only
/// a body that keeps moving too little does.
struct StallMeter: Sendable {
    enum Direction: Sendable {
        case response
        case request
    }

    let rate: MinimumTransferRate
    let direction: Direction
    private let windowNanoseconds: Int64
    private var bytes = 0
    private var waitedNanoseconds: Int64 = 0

    init(rate: MinimumTransferRate, direction: Direction) {
        self.rate = rate
        self.direction = direction
        self.windowNanoseconds = RetryPolicy.nanoseconds(rate.window)
    }

    /// Records `count` bytes moved after waiting `waited` nanoseconds for the network.
    ///
    /// - Throws: ``TransportError/Code/transferStalled`` when the window has passed with fewer bytes than the
    ///   minimum.
    mutating func record(bytes count: Int, waited: Int64) throws(TransportError) {
        self.bytes += count
        self.waitedNanoseconds += max(0, waited)
        if self.bytes >= self.rate.bytes {
            self.bytes = 0
            self.waitedNanoseconds = 0
        } else if self.waitedNanoseconds >= self.windowNanoseconds {
            throw self.stalled()
        }
    }

    /// Whether `waited` more nanoseconds without a byte would exceed the window.
    func isStalled(afterWaiting waited: Int64) -> Bool {
        self.waitedNanoseconds + waited >= self.windowNanoseconds
    }

    /// The error for a stalled transfer, saying what moved in how long.
    func stalled(waitedExtra: Int64 = 0) -> TransportError {
        let seconds = Double(self.waitedNanoseconds + waitedExtra) / 1e9
        let waited = (seconds * 10).rounded() / 10
        let what =
            switch self.direction {
            case .response: "the server sent \(self.bytes) bytes of the response body"
            case .request: "the server accepted \(self.bytes) bytes of the request body"
            }
        return TransportError(
            code: .transferStalled,
            message: "\(what) in the last \(waited) s of waiting, below the minimum of \(self.rate.bytes) bytes "
                + "per \(self.rate.window); the transfer is stalled"
        )
    }
}

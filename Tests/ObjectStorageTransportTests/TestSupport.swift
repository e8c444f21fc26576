//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageTestSupport
import Synchronization

/// SplitMix64: a tiny seeded generator, so jitter is reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { self.state = seed }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A clock whose `sleep` returns at once and records the requested delay (so retry delays are checked without
/// waiting on wall time). It still honours cancellation.
final class RecordingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: self.offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - self.offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

    var now: Instant { self.state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    var sleeps: [Duration] { self.state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        self.state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.now = Swift.max(state.now, deadline)
        }
    }
}

/// Collects every log line (message and metadata) in memory.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = self.metadata
        all.merge(event.metadata ?? [:]) { $1 }
        self.capture.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
    }
}

final class LogCapture: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger.scanning(label: "test", alsoTo: CapturingLogHandler(capture: self))
    }

    var text: String { self.lines.withLock { $0.joined(separator: "\n") } }
}

/// A class holding a `Mutex`, for sharing mutable test state between tasks.
final class MutexBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { self.mutex = Mutex(value) }

    func mutate<Result>(_ body: (inout Value) -> Result) -> Result {
        self.mutex.withLock { body(&$0) }
    }
}

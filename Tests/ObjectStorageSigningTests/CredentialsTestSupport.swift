//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorageTestSupport
import Synchronization

/// A log handler that keeps every line (message and metadata) so tests can look for secrets in them.
///
/// swift-log's `InMemoryLogHandler` (module `InMemoryLogging`) does the same; this one keeps the test
/// target's dependencies unchanged.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let lines = Mutex<[String]>([])

        func append(_ line: String) {
            self.lines.withLock { $0.append(line) }
        }

        var all: [String] {
            self.lines.withLock { $0 }
        }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    func log(event: LogEvent) {
        let merged = self.metadata.merging(event.metadata ?? [:]) { _, new in new }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        self.store.append("\(event.level) \(event.message) \(rendered)")
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.metadata[key] }
        set { self.metadata[key] = newValue }
    }

    /// A trace-level logger whose lines land in the returned store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        let logger = Logger.scanning(label: "credentials-tests", alsoTo: CapturingLogHandler(store: store))
        return (logger, store)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = Mutex(start)
    }

    var now: Date {
        self.current.withLock { $0 }
    }

    func advance(by seconds: TimeInterval) {
        self.current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A deterministic generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An error a test source throws.
struct SourceDown: Error, Equatable {}

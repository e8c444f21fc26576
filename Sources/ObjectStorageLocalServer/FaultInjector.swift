//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A misbehaviour the server can inject into a response.
public struct Fault: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case error(status: Int, code: String, message: String, retryAfterSeconds: Int?)
        case closeConnection(afterBodyBytes: Int64)
        case delayBeforeHeaders(Duration)
        case delayBetweenChunks(Duration)
        case bandwidthLimit(bytesPerSecond: Int)
        case replaceContent([UInt8])
        case replaceWithRandom(size: Int)
        case dropResponse
    }

    let kind: Kind

    /// Answers with an error document instead of serving the request.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, such as 500.
    ///   - code: The vendor error code, such as `InternalError`.
    ///   - message: The error message.
    ///   - retryAfterSeconds: A `Retry-After` header value, if any.
    /// - Returns: The fault.
    public static func error(status: Int, code: String, message: String, retryAfterSeconds: Int? = nil) -> Fault {
        Fault(kind: .error(status: status, code: code, message: message, retryAfterSeconds: retryAfterSeconds))
    }

    /// `500 InternalError`.
    package static let internalError = Fault.error(
        status: 500,
        code: "InternalError",
        message: "We encountered an internal error. Please try again."
    )

    /// `503 SlowDown`, the services' throttling answer.
    public static let slowDown = Fault.error(status: 503, code: "SlowDown", message: "Please reduce your request rate.")

    /// `429 TooManyRequests` with a `Retry-After` header.
    ///
    /// - Parameter retryAfterSeconds: The `Retry-After` value.
    /// - Returns: The fault.
    package static func tooManyRequests(retryAfterSeconds: Int) -> Fault {
        .error(
            status: 429,
            code: "TooManyRequests",
            message: "Please reduce your request rate.",
            retryAfterSeconds: retryAfterSeconds
        )
    }

    /// Closes the connection after sending (or, for an upload, receiving) this many body bytes.
    ///
    /// - Parameter afterBodyBytes: The body bytes to transfer before closing (a negative count is 0).
    /// - Returns: The fault.
    public static func closeConnection(afterBodyBytes: Int64) -> Fault {
        Fault(kind: .closeConnection(afterBodyBytes: max(0, afterBodyBytes)))
    }

    /// Serves the request, a write included, then closes the connection instead of sending the answer: the lost
    /// response of a request the service carried out, which a client cannot tell from one that never arrived.
    public static let dropResponse = Fault(kind: .dropResponse)

    /// Waits before sending the response head.
    ///
    /// - Parameter delay: The wait.
    /// - Returns: The fault.
    public static func delayBeforeHeaders(_ delay: Duration) -> Fault { Fault(kind: .delayBeforeHeaders(delay)) }

    /// Waits between response body chunks.
    ///
    /// - Parameter delay: The wait between chunks.
    /// - Returns: The fault.
    public static func delayBetweenChunks(_ delay: Duration) -> Fault { Fault(kind: .delayBetweenChunks(delay)) }

    /// Limits the response body rate.
    ///
    /// - Parameter bytesPerSecond: The rate limit.
    /// - Returns: The fault.
    public static func bandwidthLimit(bytesPerSecond: Int) -> Fault {
        Fault(kind: .bandwidthLimit(bytesPerSecond: max(1, bytesPerSecond)))
    }

    /// Replaces the object's content (a new version with a new ETag) just before the request is served,
    /// as if another writer had changed it between two requests.
    ///
    /// - Parameter content: The new content.
    /// - Returns: The fault.
    public static func replaceContent(with content: [UInt8]) -> Fault { Fault(kind: .replaceContent(content)) }

    /// Replaces the object's content with `size` fresh random bytes each time the fault fires, so every
    /// firing produces a new version with a new ETag.
    ///
    /// - Parameter size: The size of the new content in bytes.
    /// - Returns: The fault.
    public static func replaceContent(randomBytes size: Int) -> Fault {
        Fault(kind: .replaceWithRandom(size: max(0, size)))
    }
}

/// Which requests a ``FaultRule`` applies to, and when it fires.
public struct FaultRule: Sendable {
    /// When a matching rule fires.
    public struct Trigger: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case always
            case nth(Int)
            case first(Int)
            case probability(Double)
        }

        let kind: Kind

        /// On every matching request.
        public static let always = Trigger(kind: .always)

        /// On the `n`th matching request only (1-based).
        ///
        /// - Parameter n: The request ordinal.
        /// - Returns: The trigger.
        public static func nth(_ n: Int) -> Trigger { Trigger(kind: .nth(n)) }

        /// On the first `count` matching requests.
        ///
        /// - Parameter count: How many requests.
        /// - Returns: The trigger.
        public static func first(_ count: Int) -> Trigger { Trigger(kind: .first(count)) }

        /// On each matching request with this probability, drawn from the injector's seeded generator.
        ///
        /// - Parameter probability: A value in `0...1`.
        /// - Returns: The trigger.
        public static func probability(_ probability: Double) -> Trigger { Trigger(kind: .probability(probability)) }
    }

    /// The operations the rule applies to; empty for all.
    package var operations: Set<ServiceOperation>
    /// The bucket the rule applies to; `nil` for any.
    package var bucket: String?
    /// The object key the rule applies to; `nil` for any.
    package var key: String?
    /// When the rule fires.
    package var trigger: Trigger
    /// What it does.
    package var fault: Fault

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - operations: The operations it applies to; empty for all.
    ///   - bucket: The bucket it applies to; `nil` for any.
    ///   - key: The object key it applies to; `nil` for any.
    ///   - trigger: When it fires.
    ///   - fault: What it does.
    public init(
        operations: Set<ServiceOperation> = [],
        bucket: String? = nil,
        key: String? = nil,
        trigger: Trigger = .always,
        fault: Fault
    ) {
        self.operations = operations
        self.bucket = bucket
        self.key = key
        self.trigger = trigger
        self.fault = fault
    }
}

/// Injects faults into the responses of a running ``LocalObjectServer``; rules can change at any time.
///
/// <!-- snippet: given server: LocalObjectServer -->
/// ```swift
/// server.faults.add(FaultRule(operations: ["GetObject"], trigger: .nth(1), fault: .closeConnection(afterBodyBytes: 1024)))
/// ```
public final class FaultInjector: Sendable {
    private struct Entry {
        var rule: FaultRule
        var matched = 0
    }

    private struct State {
        var entries: [Entry] = []
        var random: SplitMix64
    }

    private let state: Mutex<State>

    /// Creates an injector with no rules.
    ///
    /// - Parameter seed: The seed of the generator used by probabilistic triggers.
    public init(seed: UInt64 = 0x5EED) {
        state = Mutex(State(random: SplitMix64(seed: seed)))
    }

    /// Adds a rule; rules are evaluated in the order added and several can fire on one request.
    ///
    /// - Parameter rule: The rule.
    public func add(_ rule: FaultRule) {
        state.withLock { $0.entries.append(Entry(rule: rule)) }
    }

    /// Removes every rule.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// The faults that fire for one request.
    func faults(operation: ServiceOperation, bucket: String?, key: String?) -> [Fault] {
        state.withLock { state in
            var fired: [Fault] = []
            for index in state.entries.indices {
                let rule = state.entries[index].rule
                if !rule.operations.isEmpty && !rule.operations.contains(operation) { continue }
                if let wanted = rule.bucket, wanted != bucket { continue }
                if let wanted = rule.key, wanted != key { continue }
                state.entries[index].matched += 1
                let ordinal = state.entries[index].matched
                let fires: Bool
                switch rule.trigger.kind {
                case .always: fires = true
                case .nth(let n): fires = ordinal == n
                case .first(let count): fires = ordinal <= count
                case .probability(let p): fires = state.random.nextUnit() < p
                }
                if fires { fired.append(rule.fault) }
            }
            return fired
        }
    }
}

/// A small seeded generator (SplitMix64), so probabilistic faults repeat run to run.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

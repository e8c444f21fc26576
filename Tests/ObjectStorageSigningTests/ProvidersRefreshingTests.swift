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
import Testing

@testable import ObjectStorageSigning

/// The refreshing cache: single flight, refresh before expiry, static stability, backoff, recovery.
struct ProvidersRefreshingTests {
    let logger = Logger.scanning

    /// A source whose answers the test scripts, counting calls.
    final class ScriptedSource: CredentialsProvider, Sendable {
        private let answers = Mutex<[Result<Credentials, SourceDown>]>([])
        let calls = CallCounter()

        func enqueue(_ answers: Result<Credentials, SourceDown>...) {
            self.answers.withLock { $0.append(contentsOf: answers) }
        }

        func credentials(logger: Logger) async throws -> Credentials {
            self.calls.increment()
            let answer = self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            guard let answer else {
                Issue.record("the source was called more often than scripted")
                throw SourceDown()
            }
            return try answer.get()
        }
    }

    /// A gate that callers wait at until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = self.state.withLock { state in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiters = self.state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    static func credentials(_ id: String, expiresAt expiration: Date?) -> Credentials {
        Credentials(
            accessKeyID: id,
            secretAccessKey: "secret-\(id)",
            securityToken: "token-\(id)",
            expiration: expiration
        )
    }

    /// Refresh 300 s before expiry (no lifetime fraction, no jitter), 10 s margin, backoff ceilings 10 s doubling up to
    /// 100 s, each delay jittered between half the ceiling and all of it.
    static let configuration = RefreshingCredentialsProvider.Configuration(
        refreshBeforeExpiry: .seconds(300),
        refreshLifetimeFraction: 0,
        refreshJitter: 0,
        expiryMargin: .seconds(10),
        initialBackoff: .seconds(10),
        maximumBackoff: .seconds(100)
    )

    // MARK: single flight

    @Test func manyConcurrentCallersShareOneRefresh() async throws {
        let clock = ManualClock()
        let calls = CallCounter()
        // The gate of the current round; the source may start before or after the test opens it.
        let gate = Mutex(Gate())
        let start = clock.now
        let source: some CredentialsProvider = .federated {
            let call = calls.increment()
            await gate.withLock { $0 }.wait()
            return Self.credentials("STS.\(call)", expiresAt: start.addingTimeInterval(3600 * Double(call)))
        }
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })

        for round in 1...2 {
            let roundGate = Gate()
            gate.withLock { $0 = roundGate }
            let results = try await withThrowingTaskGroup(of: Credentials.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await provider.credentials(logger: self.logger) }
                }
                // Every caller is waiting for the one refresh in flight before the source may answer.
                while await provider.cache.waitingCallers < 200 {
                    await Task.yield()
                }
                roundGate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 200)
            #expect(Set(results.map(\.accessKeyID)) == ["STS.\(round)"])
            #expect(calls.count == round)
            // Move into the refresh window of the current credentials (expiry minus 299 s).
            clock.advance(by: 3600 - 299)
        }
    }

    @Test func refreshesBeforeExpiryNotBefore() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(
            .success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600))),
            .success(Self.credentials("B", expiresAt: clock.now.addingTimeInterval(7200)))
        )
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        clock.advance(by: 3600 - 301)  // 301 s left: outside the 300 s window
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 1)
        clock.advance(by: 2)  // 299 s left
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B")
        #expect(source.calls.count == 2)
    }

    @Test func lifetimeFractionWidensTheWindow() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        // 10 000 s lifetime: 20 % is 2 000 s, wider than 300 s.
        source.enqueue(
            .success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(10_000))),
            .success(Self.credentials("B", expiresAt: clock.now.addingTimeInterval(20_000)))
        )
        var configuration = Self.configuration
        configuration.refreshLifetimeFraction = 0.2
        let provider = RefreshingCredentialsProvider(source, configuration: configuration, now: { clock.now })
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        clock.advance(by: 7_999)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        clock.advance(by: 2)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B")
    }

    @Test func refreshInstantIsJitteredWithinTheWidenedWindow() async throws {
        // 3600 s credentials, a 300 s window widened by up to 50 %: each cache refreshes between 450 s and 300 s
        // before expiry, and caches with different seeds do not all pick the same instant.
        var configuration = Self.configuration
        configuration.refreshJitter = 0.5
        var refreshedEarly = 0
        for seed in UInt64(1)...16 {
            let clock = ManualClock()
            let source = ScriptedSource()
            source.enqueue(
                .success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600))),
                .success(Self.credentials("B", expiresAt: clock.now.addingTimeInterval(7200)))
            )
            let provider = RefreshingCredentialsProvider(
                source,
                configuration: configuration,
                now: { clock.now },
                randomNumberGenerator: SeededGenerator(seed: seed)
            )
            #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
            clock.advance(by: 3600 - 451)  // outside the widest window
            #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A", "seed \(seed)")
            clock.advance(by: 76)  // 375 s left: the middle of the widened window
            if try await provider.credentials(logger: self.logger).accessKeyID == "B" {
                refreshedEarly += 1
            }
            clock.advance(by: 76)  // 299 s left: inside every window
            #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B", "seed \(seed)")
            #expect(source.calls.count == 2)
        }
        #expect(refreshedEarly > 0 && refreshedEarly < 16, "\(refreshedEarly) of 16 refreshed 375 s before expiry")
    }

    // MARK: failures

    @Test func failedRefreshServesCachedCredentialsBacksOffAndRecovers() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(.success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600))))
        let provider = RefreshingCredentialsProvider(
            source,
            configuration: Self.configuration,
            now: { clock.now },
            randomNumberGenerator: SeededGenerator(seed: 7)
        )
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")

        clock.advance(by: 3600 - 200)  // inside the refresh window, still valid
        source.enqueue(.failure(SourceDown()))
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 2)

        // Backing off (5 to 10 s after the first failure): served from the cache without calling the source.
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        clock.advance(by: 4.9)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 2)

        // The backoff is over: the next call retries, fails again, and the backoff doubles (10 to 20 s).
        clock.advance(by: 5.1)
        source.enqueue(.failure(SourceDown()))
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 3)
        clock.advance(by: 9.9)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 3)

        // The source recovers: new credentials, and the failure count resets.
        clock.advance(by: 10.1)
        source.enqueue(.success(Self.credentials("B", expiresAt: clock.now.addingTimeInterval(3600))))
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B")
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B")
        #expect(source.calls.count == 4)
    }

    @Test func expiredCredentialsAndFailingRefreshThrowThenRecover() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(.success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600))))
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")

        clock.advance(by: 3600 - 10)  // at the expiry margin: no longer usable
        source.enqueue(.failure(SourceDown()), .failure(SourceDown()))
        await #expect(throws: SourceDown.self) { try await provider.credentials(logger: self.logger) }
        // Not sticky: the very next call tries the source again.
        await #expect(throws: SourceDown.self) { try await provider.credentials(logger: self.logger) }
        #expect(source.calls.count == 3)

        source.enqueue(.success(Self.credentials("B", expiresAt: clock.now.addingTimeInterval(3600))))
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "B")
        #expect(source.calls.count == 4)
    }

    @Test func initialFailureIsNotSticky() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(
            .failure(SourceDown()),
            .success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600)))
        )
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })
        await #expect(throws: SourceDown.self) { try await provider.credentials(logger: self.logger) }
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
    }

    @Test func credentialsThatAlreadyExpiredAreRejected() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(
            .success(Self.credentials("OLD", expiresAt: clock.now.addingTimeInterval(5))),  // inside the 10 s margin
            .success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(3600)))
        )
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })
        let error = await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
        #expect(error?.code == .expired)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
    }

    @Test func credentialsWithoutExpirationAreFetchedOnce() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(.success(Self.credentials("FOREVER", expiresAt: nil)))
        let provider: some CredentialsProvider = RefreshingCredentialsProvider(source, now: { clock.now })
        for _ in 0..<3 {
            #expect(try await provider.credentials(logger: self.logger).accessKeyID == "FOREVER")
            clock.advance(by: 365 * 86_400)
        }
        #expect(source.calls.count == 1)
    }

    @Test func shortLivedCredentialsAreNotRefreshedOnEveryCall() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        // 60 s lifetime: the 300 s window is capped at half the lifetime (30 s).
        source.enqueue(.success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(60))))
        let provider = RefreshingCredentialsProvider(source, configuration: Self.configuration, now: { clock.now })
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        clock.advance(by: 29)
        #expect(try await provider.credentials(logger: self.logger).accessKeyID == "A")
        #expect(source.calls.count == 1)
    }

    @Test func backoffIsCappedAndJittered() async throws {
        let clock = ManualClock()
        let source = ScriptedSource()
        source.enqueue(.success(Self.credentials("A", expiresAt: clock.now.addingTimeInterval(100_000))))
        var configuration = Self.configuration
        configuration.refreshBeforeExpiry = .seconds(5_000)
        let provider = RefreshingCredentialsProvider(
            source,
            configuration: configuration,
            now: { clock.now },
            randomNumberGenerator: SeededGenerator(seed: 42)
        )
        _ = try await provider.credentials(logger: self.logger)
        clock.advance(by: 100_000 - 4_000)
        // Ceilings 10, 20, 40, 80, 100, 100 s: each delay lies in [ceiling / 2, ceiling].
        for ceiling in [10.0, 20, 40, 80, 100, 100] {
            source.enqueue(.failure(SourceDown()))
            let before = source.calls.count
            _ = try await provider.credentials(logger: self.logger)
            #expect(source.calls.count == before + 1)
            clock.advance(by: ceiling / 2 - 0.01)
            _ = try await provider.credentials(logger: self.logger)
            #expect(source.calls.count == before + 1, "retried before half of the \(ceiling) s ceiling")
            clock.advance(by: ceiling / 2 + 0.02)
        }
    }
}

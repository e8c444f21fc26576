//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@Suite("Bandwidth limit: the token bucket, and every body path paced over real sockets")
struct BandwidthLimiterTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test("the bucket lends a tenth of a second, then asks each piece to wait its share of the rate")
    func bucketArithmetic() {
        let start = ContinuousClock.now
        // 1 MiB/s: a burst of 104,857.6 bytes.
        let limiter = BandwidthLimiter(bytesPerSecond: 1 << 20, now: start)
        #expect(limiter.delay(for: 104_857, .send, now: start) == .zero)
        // 0.6 bytes left; 1 MiB more leaves a debt of 1,048,575.4 bytes: 999,999,428 ns at 1 MiB/s (rounded up).
        #expect(Self.near(limiter.delay(for: 1 << 20, .send, now: start), .nanoseconds(999_999_428)))
        // The other direction has its own bucket.
        #expect(limiter.delay(for: 104_857, .receive, now: start) == .zero)
        // After the debt is paid and far longer, the bucket holds one burst, never more.
        let later = start.advanced(by: .seconds(10))
        #expect(limiter.delay(for: 104_857, .send, now: later) == .zero)
        // 1.4 bytes of debt: 1,335.1 ns.
        #expect(Self.near(limiter.delay(for: 2, .send, now: later), .nanoseconds(1_336)))
        #expect(limiter.bytesPaced(.send) == 104_857 * 2 + (1 << 20) + 2)
        #expect(limiter.bytesPaced(.receive) == 104_857)
    }

    @Test("a rate below 1 KiB/s is raised to it, and a huge debt never traps")
    func slowestRateAndHugeDebt() {
        let start = ContinuousClock.now
        let limiter = BandwidthLimiter(bytesPerSecond: 1, now: start)
        #expect(limiter.bytesPerSecond == 1024)
        // 102.4 bytes of burst; 1,228 bytes leave a debt of 1,125.6 bytes: 1.09921875 s.
        #expect(Self.near(limiter.delay(for: 1_228, .receive, now: start), .nanoseconds(1_099_218_750)))
        #expect(limiter.delay(for: Int.max, .receive, now: start) == .nanoseconds(3_200_000_000_000_000_000))
        #expect(limiter.delay(for: Int.max, .receive, now: start) == .nanoseconds(3_200_000_000_000_000_000))
        #expect(limiter.bytesPaced(.receive) == .max)
    }

    /// Within 2 ns: the arithmetic is in floating point.
    private static func near(_ actual: Duration, _ expected: Duration) -> Bool {
        abs((actual - expected) / .nanoseconds(1)) <= 2
    }

    @Test("uploads (bytes, file chunks instead of sendfile) and downloads (streamed, consumed) are all paced")
    func everyBodyPathIsPaced() async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try await server.stop() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("paced-\(UUID().uuidString)")
        let fileBytes = generatedBytes(count: 300_000) { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(fileBytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var configuration = HTTPConfiguration()
        // Fast enough to finish at once, slow enough that every piece asks the bucket.
        configuration.bandwidthLimit = 64 << 20
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let limiter = try #require(transport.bandwidth)
            let small = ByteBuffer(bytes: Array(repeating: 5, count: 1_000))
            var echo = TransportRequest(method: .PUT, url: server.url("/echo"), body: .bytes(small))
            var response = try await transport.execute(echo, deadline: .now() + .seconds(60), logger: logger)
            #expect(try await response.body.collect(upTo: 1 << 20) == small)
            #expect(limiter.bytesPaced(.send) == 1_000)
            #expect(limiter.bytesPaced(.receive) == 1_000)

            echo.body = .file(path: file.path, length: 300_000)
            response = try await transport.execute(echo, deadline: .now() + .seconds(60), logger: logger)
            #expect(try await response.body.collect(upTo: 1 << 20) == ByteBuffer(bytes: fileBytes))
            #expect(server.receivedBodies("/echo").last == ByteBuffer(bytes: fileBytes))
            #expect(limiter.bytesPaced(.send) == 301_000)
            #expect(limiter.bytesPaced(.receive) == 301_000)

            let consumer = RecordingConsumer()
            _ = try await transport.execute(
                TransportRequest(url: server.url("/large/500000")),
                deadline: .now() + .seconds(60),
                logger: logger,
                consumer: consumer
            )
            #expect(consumer.received == 500_000)
            #expect(consumer.mismatches == 0)
            #expect(limiter.bytesPaced(.receive) == 801_000)
            #expect(limiter.bytesPaced(.send) == 301_000)
        }
    }
}

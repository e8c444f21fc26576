//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// A response body the caller drops: drained to keep its connection only when the rest is small and quick, else the
/// request is cancelled at once, so a slow link never keeps a connection busy on bytes nobody reads.
@Suite("Response bodies dropped unread")
struct DroppedBodyTests {
    /// GETs `path` and drops the body unread; then GETs a small body on the pool's one connection.
    private func dropThenFetch(_ path: String, server: TestHTTPServer) async throws -> Duration {
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        try await withAsyncHTTPClientTransport(configuration: HTTPConfiguration(maximumConnectionsPerHost: 1)) {
            transport in
            do {
                let dropped = try await transport.execute(
                    TransportRequest(url: server.url(path)),
                    timeout: .seconds(30),
                    logger: Logger.scanning
                )
                #expect(dropped.status == .ok)
            }  // the response, and its body, are dropped here
            let started = clock.now
            let next = try await transport.execute(
                TransportRequest(url: server.url("/large/1000")),
                timeout: .seconds(30),
                logger: Logger.scanning
            )
            var received = 0
            for try await chunk in next.body { received += chunk.readableBytes }
            elapsed = clock.now - started
            #expect(received == 1000)
        }
        return elapsed
    }

    @Test func aSmallRestIsDrainedAndTheConnectionKept() async throws {
        let server = try await TestHTTPServer.start()
        _ = try await self.dropThenFetch("/large/300000", server: server)
        #expect(server.connectionCount == 1)
        try await server.stop()
    }

    @Test func aLargeRestOnASlowLinkIsCancelledAtOnce() async throws {
        let server = try await TestHTTPServer.start()
        let elapsed = try await self.dropThenFetch("/paced/8388608", server: server)
        // The server had sent what the socket buffers hold when the client closed; draining would have taken 1 MiB.
        try await Task.sleep(for: .milliseconds(300))
        let sent = server.sentBytes("/paced/8388608")
        #expect(sent < 1 << 20, "sent \(sent) bytes")
        #expect(server.connectionCount == 2)
        #expect(elapsed < .seconds(5), "the next request waited \(elapsed)")
        try await server.stop()
    }

    @Test func aSmallRestThatArrivesSlowlyIsCancelledAfterTheDrainTime() async throws {
        let server = try await TestHTTPServer.start()
        // 1,000,000 bytes at about 160 KB/s: within the drain limit, but six times longer than the 1 s drain time, so
        // a client whose event loop is held up for a while (a loaded machine) still cancels before the last byte.
        _ = try await self.dropThenFetch("/paced/1000000", server: server)
        try await Task.sleep(for: .milliseconds(300))
        let sent = server.sentBytes("/paced/1000000")
        #expect(sent < 1_000_000, "sent \(sent) bytes")
        #expect(server.connectionCount == 2)
        try await server.stop()
    }
}

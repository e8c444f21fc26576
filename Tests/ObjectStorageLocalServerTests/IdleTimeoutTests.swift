//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

/// `Configuration.idleTimeout`: a peer that sends nothing (no head, half a head, a stalled body) loses its
/// connection, and the server keeps serving everyone else. A body that keeps the timeout at bay by dripping a byte
/// at a time is `Configuration.minimumRequestBodyRate`'s to refuse (`RequestBodyRateTests`).
struct IdleTimeoutTests {
    static let configuration = {
        var configuration = LocalObjectServer.Configuration(storage: .memory, authentication: .anonymous)
        configuration.idleTimeout = .seconds(1)
        return configuration
    }()
    /// Far longer than the idle timeout, so that a connection still open at the end was not closed by it.
    static let patience = Duration.seconds(20)
    /// The test client's own requests ask for their connection to be closed: a pooled connection that the
    /// 1 s idle timeout closes just as the client reuses it (a loaded machine) would fail the request.
    static let closing = [("Connection", "close")]

    @Test
    func defaultIsLongerThanAsyncHTTPClientsPoolIdleTimeout() {
        #expect(LocalObjectServer.Configuration().idleTimeout == .seconds(75))
    }

    @Test
    func silentAndSlowLorisConnectionsAreClosed() async throws {
        try await withServer(Self.configuration) { client, server in
            let port = try #require(server.port)
            var connections: [RawConnection] = []
            for index in 0..<50 {
                let connection = try await RawConnection.connect(port: port)
                // Half a head; on a loaded machine the server may have closed the connection already, which is
                // the outcome under test, so a failed write is not an error.
                if index % 2 == 1 { try? await connection.write("GET /bkt HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
                connections.append(connection)
            }
            let clock = ContinuousClock()
            let start = clock.now
            for connection in connections {
                let outcome = try await connection.readUntilClosed(limit: Self.patience)
                #expect(outcome.closedByServer)
                #expect(outcome.received.isEmpty, "\(outcome.text)")
            }
            #expect(clock.now - start < Self.patience)
            #expect(try await client.send("GET", "/", headers: Self.closing).status == 200)
        }
    }

    @Test
    func stalledBodyFailsTheUploadAndStoresNothing() async throws {
        try await withServer(Self.configuration) { client, server in
            #expect(try await client.send("PUT", "/bkt", headers: Self.closing).status == 200)
            let connection = try await RawConnection.connect(port: try #require(server.port))
            try? await connection.write(
                "PUT /bkt/stalled HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nonly ten b"
            )
            let outcome = try await connection.readUntilClosed(limit: Self.patience)
            #expect(outcome.closedByServer)
            #expect(!outcome.text.contains(" 200 "), "\(outcome.text)")

            let missing = try await client.send("GET", "/bkt/stalled", headers: Self.closing)
            #expect(missing.status == 404)
            #expect(missing.element("Code") == "NoSuchKey")
            #expect(
                try await client.send("PUT", "/bkt/complete", headers: Self.closing, body: Array("whole".utf8)).status
                    == 200
            )
            #expect(try await client.send("GET", "/bkt/complete", headers: Self.closing).text == "whole")
        }
    }

    @Test
    func slowDownloadLongerThanTheTimeoutIsNotCut() async throws {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 100_000)))
        try await withServer(Self.configuration, faults: faults) { client, _ in
            let content = (0..<250_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            #expect(try await client.send("PUT", "/bkt", headers: Self.closing).status == 200)
            #expect(try await client.send("PUT", "/bkt/slow", headers: Self.closing, body: content).status == 200)
            let download = try await client.send("GET", "/bkt/slow", headers: Self.closing)
            #expect(download.status == 200)
            #expect(download.body == content)
        }
    }
}

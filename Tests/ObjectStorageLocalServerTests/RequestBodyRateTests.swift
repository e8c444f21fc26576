//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import ObjectStorageTransport
import Testing

/// `Configuration.minimumRequestBodyRate`: a body that drips a byte at a time (each byte restarting the idle
/// timeout) is refused with 400 `RequestTimeout` in its dialect and stores nothing; a slow but steady body is stored.
///
/// The window is shrunk to 5 s so that the drip, a byte every 200 ms, is refused in seconds rather than the default's
/// minute, yet a steady client would have to stall for 5 s to trip it. The clients pace their writes on the event loop (`RawConnection.pace`), so a busy test process cannot
/// stretch their pauses.
@Suite("Request body rate")
struct RequestBodyRateTests {
    static let rate = MinimumTransferRate(bytes: 64, per: .seconds(5))
    static let closing = [("Connection", "close")]

    /// The idle timeout is far longer than the window, so that only the rate can end a dripping body.
    static func configuration(
        rate: MinimumTransferRate?,
        idleTimeout: Duration = .seconds(60)
    )
        -> LocalObjectServer.Configuration
    {
        var configuration = LocalObjectServer.Configuration(storage: .memory, authentication: .anonymous)
        configuration.idleTimeout = idleTimeout
        configuration.minimumRequestBodyRate = rate
        return configuration
    }

    /// A PUT's head announcing `length` body bytes, with the dialect's headers.
    static func putHead(_ path: String, length: Int, dialect: [(String, String)], close: Bool = false) -> String {
        let headers = dialect + [("Content-Length", String(length))] + (close ? closing : [])
        return "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    @Test("Without a minimum rate, a body dripping a byte every 100 ms outlives a 2 s idle timeout")
    func dripDefeatsTheIdleTimeoutAlone() async throws {
        try await withServer(Self.configuration(rate: nil, idleTimeout: .seconds(2))) { client, server in
            #expect(try await client.send("PUT", "/bkt", headers: Self.closing).status == 200)
            let connection = try await RawConnection.connect(port: try #require(server.port))
            try await connection.write(Self.putHead("/bkt/drip", length: 100, dialect: []))
            // 4 s of dripping, twice the idle timeout: every byte is written and the connection is still open.
            let written = try await connection.pace(Array(repeating: "x", count: 40), every: .milliseconds(100))
            #expect(written == 40)
            #expect(connection.isOpen, "the idle timeout closed a dripping body")
            try await connection.close()
        }
    }

    @Test(
        "A body dripping below the minimum rate is RequestTimeout and stores nothing",
        arguments: HostileBodyTests.dialects
    )
    func drippingBodyIsRefused(name: String, dialect: [(String, String)]) async throws {
        try await withServer(Self.configuration(rate: Self.rate)) { client, server in
            #expect(try await client.send("PUT", "/bkt", headers: dialect + Self.closing).status == 200)
            let connection = try await RawConnection.connect(port: try #require(server.port))
            try await connection.write(Self.putHead("/bkt/drip", length: 1_000, dialect: dialect))
            // At most 20 s of dripping; the server must refuse it before (25 bytes in its 5 s window).
            async let written = connection.pace(Array(repeating: "x", count: 100), every: .milliseconds(200))
            let outcome = try await connection.readUntilClosed(limit: .seconds(60))
            #expect(outcome.closedByServer)
            #expect(outcome.text.hasPrefix("HTTP/1.1 400 "), "\(name): \(outcome.text)")
            #expect(outcome.text.contains("<Code>RequestTimeout</Code>"), "\(name): \(outcome.text)")
            #expect(try await written < 100, "\(name): the whole drip was read")

            let missing = try await client.send("GET", "/bkt/drip", headers: dialect + Self.closing)
            #expect(missing.status == 404, "\(name): \(missing.text)")
            #expect(missing.element("Code") == "NoSuchKey")
        }
    }

    @Test(
        "A slow but steady body, longer than the window, is stored",
        arguments: HostileBodyTests.dialects
    )
    func slowSteadyBodyIsStored(name: String, dialect: [(String, String)]) async throws {
        try await withServer(Self.configuration(rate: Self.rate)) { client, server in
            #expect(try await client.send("PUT", "/bkt", headers: dialect + Self.closing).status == 200)
            // 100 bytes every 100 ms for 6 s: 1,000 bytes a second, well above 64 per 5 s.
            let chunks = (0..<60).map { index in String(repeating: String(index % 10), count: 100) }
            let connection = try await RawConnection.connect(port: try #require(server.port))
            try await connection.write(Self.putHead("/bkt/steady", length: 6_000, dialect: dialect, close: true))
            async let written = connection.pace(chunks, every: .milliseconds(100))
            let outcome = try await connection.readUntilClosed(limit: .seconds(60))
            #expect(try await written == chunks.count)
            #expect(outcome.text.hasPrefix("HTTP/1.1 200 "), "\(name): \(outcome.text)")

            let stored = try await client.send("GET", "/bkt/steady", headers: dialect + Self.closing)
            #expect(stored.status == 200)
            #expect(stored.text == chunks.joined(), "\(name)")
        }
    }

    @Test
    func defaultIsTheClientsDefaultMinimum() {
        #expect(LocalObjectServer.Configuration().minimumRequestBodyRate == MinimumTransferRate.default)
        #expect(MinimumTransferRate.default == MinimumTransferRate(bytes: 1024, per: .seconds(60)))
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

/// `Transfer-Encoding` (RFC 9112 §6.1): the server understands `chunked` alone. Any other list is 501
/// `NotImplemented` in the request's dialect, and nothing is stored: `gzip, chunked` would otherwise be unframed as
/// chunked and its coded bytes stored as the object, and a lone `gzip` failed mid-body with a 500. (`chunked,
/// chunked` never reaches the server: NIO's decoder answers it 400 and closes.)
@Suite("Transfer-Encoding")
struct TransferEncodingTests {
    static let chunkedHello = "5\r\nhello\r\n0\r\n\r\n"

    /// A raw PUT of `path` whose chunked body is "hello", with one `Transfer-Encoding` line per element of `codings`.
    static func put(_ path: String, codings: [String], dialect: [(String, String)]) -> String {
        let headers = dialect + [("Connection", "close")] + codings.map { ("Transfer-Encoding", $0) }
        return "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            + "\r\n" + chunkedHello
    }

    static func send(_ request: String, port: Int) async throws -> RawConnection.Outcome {
        let connection = try await RawConnection.connect(port: port)
        try await connection.write(request)
        return try await connection.readUntilClosed(limit: .seconds(60))
    }

    @Test(
        "A transfer coding besides chunked is NotImplemented and stores nothing",
        arguments: HostileBodyTests.dialects
    )
    func otherCodingsAreNotImplemented(name: String, dialect: [(String, String)]) async throws {
        try await withServer { client, server in
            let port = try #require(server.port)
            #expect(try await client.send("PUT", "/bkt", headers: dialect).status == 200)
            for codings in [
                ["gzip, chunked"], ["gzip", "chunked"], ["deflate,chunked"], ["gzip"],
            ] {
                let outcome = try await Self.send(
                    Self.put("/bkt/coded", codings: codings, dialect: dialect),
                    port: port
                )
                #expect(outcome.closedByServer)
                #expect(outcome.text.hasPrefix("HTTP/1.1 501 "), "\(name) \(codings): \(outcome.text)")
                #expect(outcome.text.contains("<Code>NotImplemented</Code>"), "\(name) \(codings)")
                #expect(outcome.text.contains("<Header>Transfer-Encoding</Header>"), "\(name) \(codings)")
                let missing = try await client.send("GET", "/bkt/coded", headers: dialect)
                #expect(missing.status == 404, "\(name) \(codings): stored \(missing.text)")
            }
            // Chunked twice is refused by NIO's decoder itself, before the server sees a request (RFC 9112 §6.3).
            let twice = try await Self.send(
                Self.put("/bkt/coded", codings: ["chunked, chunked"], dialect: dialect),
                port: port
            )
            #expect(twice.text.hasPrefix("HTTP/1.1 400 "), "\(name): \(twice.text)")
            #expect(try await client.send("GET", "/bkt/coded", headers: dialect).status == 404)

            for coding in ["chunked", "Chunked"] {
                let outcome = try await Self.send(
                    Self.put("/bkt/plain", codings: [coding], dialect: dialect),
                    port: port
                )
                #expect(outcome.text.hasPrefix("HTTP/1.1 200 "), "\(name) \(coding): \(outcome.text)")
                let stored = try await client.send("GET", "/bkt/plain", headers: dialect)
                #expect(stored.text == "hello", "\(name) \(coding)")
            }
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

/// The services' size limits: 5 GiB in one PUT (object or part), refused from `Content-Length` before the body
/// is read, and 1,024-byte keys (1,023 for OSS) in every operation that names a key.
@Suite("Service limits")
struct ServiceLimitTests {
    struct DialectCase: CustomTestStringConvertible, Sendable {
        var name: String
        var headers: [(String, String)]
        var prefix: String
        var maximumKeyLength: Int
        var keyTooLong: String

        var testDescription: String { name }
    }

    static let dialects = [
        DialectCase(name: "s3", headers: [], prefix: "x-amz-", maximumKeyLength: 1024, keyTooLong: "KeyTooLongError"),
        DialectCase(
            name: "oss",
            headers: ossDialect,
            prefix: "x-oss-",
            maximumKeyLength: 1023,
            keyTooLong: "InvalidObjectName"
        ),
        DialectCase(
            name: "obs",
            headers: obsDialect,
            prefix: "x-obs-",
            maximumKeyLength: 1024,
            keyTooLong: "KeyTooLongError"
        ),
    ]

    /// 5.5 GB, the size the adversarial test sent.
    static let oversize: Int64 = 5_500_000_000

    /// Sends a head announcing `oversize` bytes and ten of them, and reads until the server closes.
    static func sendOversized(
        _ target: String,
        port: Int,
        headers: [(String, String)]
    ) async throws
        -> RawConnection.Outcome
    {
        let connection = try await RawConnection.connect(port: port)
        var head = "PUT \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(oversize)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try await connection.write(head + "\r\n0123456789")
        // Far shorter than the default idle timeout (75 s): the server closes because it refused the body.
        return try await connection.readUntilClosed(limit: .seconds(30))
    }

    @Test(arguments: dialects)
    func singlePutOverFiveGiBIsRefusedBeforeTheBody(dialect: DialectCase) async throws {
        try await withServer { client, server in
            let port = try #require(server.port)
            #expect(try await client.send("PUT", "/bkt", headers: dialect.headers).status == 200)
            let object = try await Self.sendOversized("/bkt/big", port: port, headers: dialect.headers)
            #expect(object.closedByServer)
            #expect(object.text.hasPrefix("HTTP/1.1 400 "), "\(dialect.name): \(object.text)")
            #expect(object.text.contains("<Code>EntityTooLarge</Code>"), "\(dialect.name): \(object.text)")
            #expect(object.text.contains("<MaxSizeAllowed>5368709120</MaxSizeAllowed>"))

            let id = try await initiate(client, "/bkt/big", headers: dialect.headers)
            let part = try await Self.sendOversized(
                "/bkt/big?partNumber=1&uploadId=\(id)",
                port: port,
                headers: dialect.headers
            )
            #expect(part.closedByServer)
            #expect(part.text.contains("<Code>EntityTooLarge</Code>"), "\(dialect.name): \(part.text)")

            #expect(try await client.send("GET", "/bkt/big", headers: dialect.headers).status == 404)
            let small = try await client.send("PUT", "/bkt/small", headers: dialect.headers, body: [1, 2, 3])
            #expect(small.status == 200)
            #expect(try await client.send("GET", "/bkt/small", headers: dialect.headers).body == [1, 2, 3])
        }
    }

    @Test(arguments: dialects)
    func keysOverTheLimitAreRefusedByEveryOperation(dialect: DialectCase) async throws {
        try await withServer { client, _ in
            let longest = String(repeating: "k", count: dialect.maximumKeyLength)
            let tooLong = longest + "k"
            let headers = dialect.headers
            #expect(try await client.send("PUT", "/bkt", headers: headers).status == 200)
            let fits = try await client.send("PUT", "/bkt/\(longest)", headers: headers, body: [7])
            #expect(fits.status == 200, "\(dialect.name): \(fits.text)")

            let refusals: [(String, String, [(String, String)])] = [
                ("PUT", "/bkt/\(tooLong)", []),
                ("POST", "/bkt/\(tooLong)?uploads", []),
                ("PUT", "/bkt/\(tooLong)", [(dialect.prefix + "copy-source", "/bkt/\(longest)")]),
                ("PUT", "/bkt/short", [(dialect.prefix + "copy-source", "/bkt/\(tooLong)")]),
                ("GET", "/bkt/\(tooLong)", []),
                ("HEAD", "/bkt/\(tooLong)", []),
                ("DELETE", "/bkt/\(tooLong)", []),
            ]
            for (method, path, extra) in refusals {
                let response = try await client.send(method, path, headers: headers + extra, body: [])
                let label = "\(dialect.name) \(method) \(path.prefix(12))… \(extra.first?.0 ?? "")"
                #expect(response.status == 400, "\(label): \(response.text)")
                if method != "HEAD" { #expect(response.element("Code") == dialect.keyTooLong, "\(label)") }
            }
            #expect(try await client.send("GET", "/bkt/short", headers: headers).status == 404)
            let read = try await client.send("GET", "/bkt/\(longest)", headers: headers)
            #expect(read.body == [7])
        }
    }
}

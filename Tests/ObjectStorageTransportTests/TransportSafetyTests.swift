//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Logging
import NIOCore
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// Malformed answers say what was wrong: over real sockets on 127.0.0.1.
struct TransportSafetyTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    // MARK: Malformed answers

    @Test func aBodyLongerThanItsContentLengthIsAMalformedResponse() async throws {
        // The first answer announces 5 bytes; the rest of its body follows once the connection carries the next
        // request, where a response head is expected (the bytes a server with a wrong Content-Length leaves).
        let answers = MutexBox(0)
        let server = try await RawHTTPServer.start { _ in
            let answer = answers.mutate { count in
                count += 1
                return count
            }
            if answer == 1 { return .bytes(RawReply.head("200 OK", contentLength: 5) + Array("hello".utf8)) }
            return .bytes(Array(", and 20 more bytes\r\n".utf8))
        }
        defer { Task { try? await server.stop() } }
        let first = try await AsyncHTTPClientTransport(httpClient: .shared).execute(
            TransportRequest(url: server.url("/object")),
            timeout: .seconds(10),
            logger: logger
        )
        #expect(String(buffer: try await first.body.collect(upTo: 1 << 10)) == "hello")
        let error = await #expect(throws: TransportError.self) {
            let next = try await AsyncHTTPClientTransport(httpClient: .shared).execute(
                TransportRequest(url: server.url("/object")),
                timeout: .seconds(10),
                logger: logger
            )
            _ = try await next.body.collect(upTo: 1 << 10)
        }
        #expect(server.requests.count == 2, "the second request went on the first one's connection")
        #expect(error?.code == .malformedResponse)
        #expect(error?.message.contains("a body longer than its Content-Length") == true)
        #expect(error.map { "\($0)" }?.contains("invalid constant string") == false)
    }

    @Test func anInvalidStatusLineIsAMalformedResponse() async throws {
        let server = try await RawHTTPServer.start { _ in .bytes(Array("HTTP/1.1 abc OK\r\n\r\n".utf8)) }
        defer { Task { try? await server.stop() } }
        let error = await #expect(throws: TransportError.self) {
            _ = try await AsyncHTTPClientTransport(httpClient: .shared).execute(
                TransportRequest(url: server.url("/object")),
                timeout: .seconds(10),
                logger: logger
            )
        }
        #expect(error?.code == .malformedResponse)
        #expect(error?.message.hasPrefix("the server sent a malformed response") == true)
    }
}

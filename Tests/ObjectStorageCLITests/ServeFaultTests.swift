//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `objstore serve --fault SPEC`: faults injected by the running binary, seen over a real socket, and
/// malformed specs refused as usage errors.
struct ServeFaultTests {
    /// `objstore serve` with extra arguments, its standard error kept in a file for the request log.
    final class ServeProcess {
        let server: ObjectsLocalServer
        let logFile: URL

        var endpoint: String { server.endpoint }

        init(_ arguments: [String]) async throws {
            logFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-fault-\(UUID()).log")
            server = try await ObjectsLocalServer.start(arguments: arguments, logPath: logFile.path)
        }

        /// Stops the server (once) and returns its request log (standard error).
        func stop() -> String {
            server.stop()
            defer { try? FileManager.default.removeItem(at: logFile) }
            return (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        }

        func send(_ method: String, _ path: String, body: Data? = nil) async throws -> (Data, HTTPURLResponse) {
            var request = URLRequest(url: try #require(URL(string: endpoint + path)))
            request.httpMethod = method
            request.httpBody = body
            let (data, response) = try await URLSession.shared.data(for: request)
            return (data, try #require(response as? HTTPURLResponse))
        }
    }

    @Test
    func firstGetIsThrottledWithRetryAfterThenServed() async throws {
        let server = try await ServeProcess([
            "--anonymous", "--fault", "op=GetObject,when=nth:1,status=503:SlowDown,retry-after=1",
        ])
        defer { _ = server.stop() }
        let content = Data("fault injection over a real socket".utf8)
        #expect(try await server.send("PUT", "/faults").1.statusCode == 200)
        #expect(try await server.send("PUT", "/faults/some%20object", body: content).1.statusCode == 200)

        let (errorBody, throttled) = try await server.send("GET", "/faults/some%20object")
        #expect(throttled.statusCode == 503)
        #expect(throttled.value(forHTTPHeaderField: "Retry-After") == "1")
        #expect(String(decoding: errorBody, as: UTF8.self).contains("<Code>SlowDown</Code>"))

        let (body, served) = try await server.send("GET", "/faults/some%20object")
        #expect(served.statusCode == 200)
        #expect(body == content)

        let log = server.stop()
        let lines = log.split(separator: "\n").filter { $0.contains("operation=GetObject") }
        #expect(lines.count == 2, "\(log)")
        let throttledLine = try #require(lines.first)
        #expect(throttledLine.contains(" status=503 "))
        #expect(throttledLine.contains(" key=some%20object "))
        #expect(throttledLine.contains(" received=0 "))
        #expect(throttledLine.contains(" outcome=complete "))
        let servedLine = try #require(lines.last)
        #expect(servedLine.contains(" status=200 "))
        #expect(servedLine.contains(" sent=\(content.count) "))
        let putLine = try #require(log.split(separator: "\n").first { $0.contains("operation=PutObject") })
        #expect(putLine.contains(" received=\(content.count) "))
    }

    struct Malformed: CustomTestStringConvertible, Sendable {
        var spec: String
        var mentions: String
        var testDescription: String { spec }
    }

    static let malformed: [Malformed] = [
        Malformed(spec: "op=GetObject", mentions: "exactly one of"),
        Malformed(spec: "status=503,close-after=10", mentions: "exactly one of"),
        Malformed(spec: "op=Fetch,status=500", mentions: "unknown operation 'Fetch'"),
        Malformed(spec: "status=200", mentions: "status='200'"),
        Malformed(spec: "status=503,when=nth:0", mentions: "when='nth:0'"),
        Malformed(spec: "status=503,when=p:1.5", mentions: "when='p:1.5'"),
        Malformed(spec: "close-after=-1", mentions: "close-after='-1'"),
        Malformed(spec: "delay-headers=10,retry-after=1", mentions: "retry-after goes with status="),
        Malformed(spec: "replace=zeros:10", mentions: "replace='zeros:10'"),
        Malformed(spec: "drop=request", mentions: "drop='request' is not response"),
        Malformed(spec: "colour=red,status=500", mentions: "unknown key 'colour'"),
        Malformed(spec: "status=500,status=503", mentions: "'status' given twice"),
        Malformed(spec: "status", mentions: "'status' is not key=value"),
        // Numbers: digits only, within bounds; nothing wraps, traps or allocates without limit.
        Malformed(spec: "replace=random:67108865", mentions: "replace='random:67108865'"),
        Malformed(spec: "replace=random:99999999999999999999", mentions: "replace='random:99999999999999999999'"),
        Malformed(spec: "replace=random:+5", mentions: "replace='random:+5'"),
        Malformed(spec: "delay-headers=3600001", mentions: "delay-headers='3600001' is not a whole number 0…3600000"),
        Malformed(spec: "delay-headers=9223372036854775807", mentions: "delay-headers='9223372036854775807'"),
        Malformed(spec: "delay-chunks=+10", mentions: "delay-chunks='+10'"),
        Malformed(spec: "delay-chunks=-1", mentions: "delay-chunks='-1'"),
        Malformed(spec: "bandwidth=0", mentions: "bandwidth='0' is not a whole number at least 1"),
        Malformed(spec: "bandwidth=1e6", mentions: "bandwidth='1e6'"),
        Malformed(spec: "close-after=99999999999999999999", mentions: "close-after='99999999999999999999'"),
        Malformed(spec: "close-after= 10", mentions: "close-after=' 10'"),
        Malformed(spec: "status=503,retry-after=86401", mentions: "retry-after='86401'"),
        Malformed(spec: "status=503,retry-after=-1", mentions: "retry-after='-1'"),
        Malformed(spec: "status=+503", mentions: "status='+503'"),
        Malformed(spec: "status=503,when=nth:+2", mentions: "when='nth:+2'"),
        Malformed(spec: "status=503,when=first:99999999999999999999", mentions: "when='first:99999999999999999999'"),
        Malformed(spec: "status=503,when=p:nan", mentions: "when='p:nan'"),
        Malformed(spec: "status=503,when=p:0x1p-1", mentions: "when='p:0x1p-1'"),
        Malformed(spec: "status=503,when=p:-0", mentions: "when='p:-0'"),
        Malformed(spec: "status=503,when=p:1e-1", mentions: "when='p:1e-1'"),
    ]

    /// The bounds themselves are accepted: the server starts with each.
    static let atTheBounds = [
        "replace=random:67108864", "delay-headers=3600000", "delay-chunks=0", "bandwidth=9223372036854775807",
        "close-after=9223372036854775807", "status=503,retry-after=86400", "status=503,when=p:.5",
        "status=503,when=p:1", "status=503,when=nth:9223372036854775807", "op=AppendObject,drop=response",
    ]

    @Test(arguments: atTheBounds)
    func specAtTheBoundIsAccepted(_ spec: String) async throws {
        let server = try await ObjectsLocalServer.start(arguments: ["--log-level", "warning", "--fault", spec])
        server.stop()
        #expect(server.process.ended?.status == 0)
    }

    @Test(arguments: malformed)
    func malformedSpecIsAUsageError(_ malformed: Malformed) async throws {
        let result = try await CLIProcess.run(
            ["serve", "--memory", "--port", "0", "--fault", malformed.spec],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(result.status == 64)
        #expect(result.standardError.contains("--fault '\(malformed.spec)'"), "\(result.standardError)")
        #expect(result.standardError.contains(malformed.mentions), "\(result.standardError)")
        #expect(!result.standardOutput.contains("listening on"))
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// A server that drips a body fails the request as stalled, after the configured retries; one that is slow but
/// steady does not.
struct ClientStallTests {
    /// 100 bytes per 500 ms of waiting (200 B/s).
    static let rate = MinimumTransferRate(bytes: 100, per: .milliseconds(500))

    static func client(endpoint: String, transport: any HTTPTransport) throws -> ObjectStorageClient {
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: endpoint),
            region: "us-east-1",
            credentials: .static(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
        )
        configuration.retry = testRetry
        configuration.timeout = .seconds(60)
        return ObjectStorageClient(configuration: configuration, transport: transport, logger: .scanning)
    }

    @Test func aDrippedBodyFailsAsStalledAfterTheRetries() async throws {
        // 1,000 bytes at 20 bytes a second would take 50 s per attempt.
        let body = [UInt8](repeating: 0x61, count: 1000)
        let server = try await RawHTTPServer.start { _ in
            .drip(
                head: RawReply.head("200 OK", contentLength: body.count),
                body: body,
                piece: 1,
                interval: .milliseconds(50)
            )
        }
        defer { Task { try? await server.stop() } }
        var configuration = HTTPConfiguration()
        configuration.minimumTransferRate = Self.rate
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let client = try Self.client(endpoint: server.url(""), transport: transport)
            let file = temporaryPath("dripped")
            let started = ContinuousClock.now
            let error = await #expect(throws: TransportError.self) {
                try await client.getObject(GetObjectRequest(bucket: "b", key: "k"), toFile: file)
            }
            let elapsed = ContinuousClock.now - started
            #expect(error?.code == .transferStalled)
            #expect(error?.message.contains("the server sent") == true)
            #expect(error?.message.contains("the transfer is stalled") == true)
            #expect(server.requests.count == 3, "each of the 3 attempts stalled and was retried")
            #expect(error?.attempts == 3)
            #expect(error.map { "\($0)" }?.contains("(after 3 attempts") == true)
            // 3 attempts of about 0.5 s each plus backoff; a generous bound for a loaded machine, still far
            // below the 3 × 50 s the dripped body would take without the watchdog.
            #expect(elapsed < .seconds(60), "3 attempts of about 0.5 s each, not 3 × 50 s")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test func aSlowButSteadyBodySucceeds() async throws {
        // 4,000 bytes at 2,000 bytes a second: ten times the minimum rate.
        let body = (0..<4000).map { UInt8(truncatingIfNeeded: $0) }
        let server = try await RawHTTPServer.start { _ in
            .drip(
                head: RawReply.head("200 OK", contentLength: body.count),
                body: body,
                piece: 100,
                interval: .milliseconds(50)
            )
        }
        defer { Task { try? await server.stop() } }
        var configuration = HTTPConfiguration()
        configuration.minimumTransferRate = Self.rate
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let client = try Self.client(endpoint: server.url(""), transport: transport)
            let file = temporaryPath("steady")
            defer { try? FileManager.default.removeItem(atPath: file) }
            try await client.getObject(GetObjectRequest(bucket: "b", key: "k"), toFile: file)
            #expect(try fileBytes(file) == body)
            #expect(server.requests.count == 1)
        }
    }

    /// A dripping server used to hold a resumable download for twice the policy's attempts and more (each round of
    /// three made a little progress, which bought a new round), while the error said "after 3 attempts". Now only
    /// progress worth keeping restores the budget, and the error says how many attempts were made and how long.
    @Test func aResumableDownloadFromADrippingServerStopsAfterThePolicysAttempts() async throws {
        let body = [UInt8](repeating: 0x62, count: 1000)
        let server = try await RawHTTPServer.start { request in
            if request.method == "HEAD" {
                return .response("200 OK", headers: [("Content-Length", "1000"), ("ETag", "\"drip\"")])
            }
            // Honours `Range: bytes=N-999`, as a resumed attempt asks from the byte reached.
            let first =
                request.header("Range").flatMap { range in
                    range.dropFirst("bytes=".count).split(separator: "-").first.flatMap { Int($0) }
                } ?? 0
            return .drip(
                head: RawReply.head(
                    "206 Partial Content",
                    headers: [("ETag", "\"drip\""), ("Content-Range", "bytes \(first)-999/1000")],
                    contentLength: body.count - first
                ),
                body: Array(body[first...]),
                piece: 1,
                interval: .milliseconds(50)
            )
        }
        defer { Task { try? await server.stop() } }
        var configuration = HTTPConfiguration()
        configuration.minimumTransferRate = Self.rate
        try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
            let client = try Self.client(endpoint: server.url(""), transport: transport)
            let file = temporaryPath("dripped-resumable")
            let error = await #expect(throws: TransportError.self) {
                try await client.resumableDownload(bucket: "b", key: "k", to: file)
            }
            #expect(error?.code == .transferStalled)
            #expect(error?.attempts == 3)
            #expect(server.requests.filter { $0.method == "GET" }.count == 3)
            #expect(error.map { "\($0)" }?.contains("(after 3 attempts in ") == true, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }
}

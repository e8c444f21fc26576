//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// A response read in full.
struct TestResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers.first(name: name) }

    /// The text of the first `<name>` element of the body.
    func element(_ name: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    func elements(_ name: String) -> [String] {
        var result: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"),
            let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex)
        {
            result.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return result
    }
}

/// Sends raw requests to a running server.
struct TestClient {
    var baseURL: String

    func send(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if !body.isEmpty || method == "PUT" || method == "POST" {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 64 << 20)
        return TestResponse(
            status: Int(response.status.code),
            headers: response.headers,
            body: Array(collected.readableBytesView)
        )
    }
}

/// Runs `body` against a fresh in-memory server (anonymous unless told otherwise).
func withServer<T>(
    _ configuration: LocalObjectServer.Configuration = .init(storage: .memory, authentication: .anonymous),
    faults: FaultInjector = FaultInjector(),
    _ body: (TestClient, LocalObjectServer) async throws -> T
) async throws -> T {
    let server = LocalObjectServer(configuration: configuration, faults: faults, logger: .scanning(label: "server"))
    let port = try await server.start()
    do {
        let result = try await body(TestClient(baseURL: "http://127.0.0.1:\(port)"), server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Headers that make an anonymous server answer in the OSS / OBS dialect (the signature is not checked).
let ossDialect = [("Authorization", "OSS anonymous:unchecked")]
let obsDialect = [("Authorization", "OBS anonymous:unchecked")]

/// Starts a multipart upload of `path` and returns its upload id.
func initiate(_ client: TestClient, _ path: String, headers: [(String, String)] = []) async throws -> String {
    let response = try await client.send("POST", path + "?uploads", headers: headers)
    #expect(response.status == 200)
    return try #require(response.element("UploadId"))
}

/// A `CompleteMultipartUpload` body listing `parts` (part number, ETag).
func completion(_ parts: [(Int, String)]) -> [UInt8] {
    let body = parts.map { "<Part><PartNumber>\($0.0)</PartNumber><ETag>\($0.1)</ETag></Part>" }.joined()
    return Array("<CompleteMultipartUpload>\(body)</CompleteMultipartUpload>".utf8)
}

/// Uploads `parts` to `path` as one multipart object: initiate, a PUT per part, complete.
///
/// - Returns: Each part's ETag as answered, and the completion's response.
func uploadInParts(
    _ client: TestClient,
    _ path: String,
    _ parts: [[UInt8]],
    headers: [(String, String)]
) async throws -> (etags: [String], completed: TestResponse) {
    let id = try await initiate(client, path, headers: headers)
    var etags: [String] = []
    for (index, part) in parts.enumerated() {
        let response = try await client.send(
            "PUT",
            "\(path)?partNumber=\(index + 1)&uploadId=\(id)",
            headers: headers,
            body: part
        )
        etags.append(try #require(response.header("ETag")))
    }
    let numbered = etags.enumerated().map { ($0.offset + 1, $0.element) }
    let completed = try await client.send(
        "POST",
        "\(path)?uploadId=\(id)",
        headers: headers,
        body: completion(numbered)
    )
    return (etags, completed)
}

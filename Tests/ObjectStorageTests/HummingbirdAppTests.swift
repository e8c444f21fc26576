//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import HummingbirdTesting
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// The SDK inside a Hummingbird app that streams objects to and from its own clients: both frameworks in one
/// file with nothing qualified (Hummingbird's `RequestBody` next to the SDK's ``UploadBody``), a `Range` header
/// passed through, and the service's status answered instead of a 500.
@Suite("An object-storage app on Hummingbird")
struct HummingbirdAppTests {
    @Test("PUT streams a body in, GET streams it out, a Range passes through, a missing key is a 404")
    func streamsThroughTheApp() async throws {
        try await LocalObjectServer.withRunning(vendor: .s3) { client, _ in
            try await client.createBucket(bucket: "app")
            let app = Self.application(client: client, bucket: "app")
            let content = testBytes(3 << 20)
            try await app.test(.live) { browser in
                let upload = ByteBuffer(bytes: content)
                let put = try await browser.execute(uri: "/objects/cat.bin", method: .put, body: upload)
                #expect(put.status == .created)
                // The bytes reached the bucket, not just the app.
                let stored = try await client.getObject(GetObjectRequest(bucket: "app", key: "cat.bin")).body
                #expect(try await stored.collect(upTo: 4 << 20).bytes == content)

                let whole = try await browser.execute(uri: "/objects/cat.bin", method: .get)
                #expect(whole.status == .ok)
                #expect(whole.headers[.contentLength] == "\(content.count)")
                #expect(Array(buffer: whole.body) == content)

                let ranged = try await browser.execute(
                    uri: "/objects/cat.bin",
                    method: .get,
                    headers: [.range: "bytes=1000-1999"]
                )
                #expect(ranged.status == .partialContent)
                #expect(ranged.headers[.contentRange] == "bytes 1000-1999/\(content.count)")
                #expect(Array(buffer: ranged.body) == Array(content[1000...1999]))

                let missing = try await browser.execute(uri: "/objects/missing.bin", method: .get)
                #expect(missing.status == .notFound)
            }
        }
    }

    /// The app under test: `PUT /objects/KEY` and `GET /objects/KEY` against one bucket, never holding an object
    /// in memory.
    static func application(client: ObjectStorageClient, bucket: String) -> some ApplicationProtocol {
        let router = Router()
        router.put("objects/{key}") { request, context -> HTTPResponse.Status in
            let key = try context.parameters.require("key")
            let incoming: RequestBody = request.body
            let length = request.headers[.contentLength].flatMap { Int64($0) }
            let put = PutObjectRequest(bucket: bucket, key: key, body: UploadBody.stream(incoming, length: length))
            try await answeringWithTheServiceStatus { _ = try await client.putObject(put) }
            return .created
        }
        router.get("objects/{key}") { request, context -> Response in
            var get = GetObjectRequest(bucket: bucket, key: try context.parameters.require("key"))
            get.range = request.headers[.range].flatMap { ByteRange(httpRangeHeader: $0) }
            let object = try await answeringWithTheServiceStatus { try await client.getObject(get) }
            var headers = HTTPFields()
            headers[.contentLength] = object.attributes.contentLength.map { "\($0)" }
            headers[.contentRange] = object.attributes.contentRange
            return Response(
                status: get.range == nil ? .ok : .partialContent,
                headers: headers,
                body: ResponseBody(asyncSequence: object.body)
            )
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Runs `operation`, turning the service's answer into the same HTTP status for the app's own client.
    static func answeringWithTheServiceStatus<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            guard let status = ServiceError.httpStatus(of: error) else { throw error }
            throw HTTPError(HTTPResponse.Status(code: status))
        }
    }
}

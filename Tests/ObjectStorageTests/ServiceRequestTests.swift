//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// `send(_:)`: any request, through the one request path, in every dialect the local server speaks.
@Suite("Any request: send(_:)")
struct ServiceRequestTests {
    @Test("PUT with headers and a body, then GET, HEAD and a listing read as XML", arguments: ClientDialect.all)
    func putGetHeadAndList(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "raw")
            let meta = dialect.provider.headerPrefix + "meta-team"
            let content = testBytes(3000)
            let put = try await client.send(
                ServiceRequest(
                    method: "PUT",
                    bucket: "raw",
                    key: "dir/a b.txt",
                    headers: ["Content-Type": "text/plain", meta: "web"],
                    body: .bytes(content)
                )
            )
            #expect(put.status == 200)
            #expect(put.header("etag") != nil)

            let get = try await client.send(ServiceRequest(method: "GET", bucket: "raw", key: "dir/a b.txt"))
            #expect(get.header("Content-Type") == "text/plain")
            #expect(get.header(meta) == "web")
            #expect(try await get.body.collect(upTo: 1 << 20).bytes == content)

            let head = try await client.send(ServiceRequest(method: "head", bucket: "raw", key: "dir/a b.txt"))
            #expect(head.header("content-length") == "3000")
            #expect(try await head.body.collect(upTo: 1 << 20).readableBytes == 0)

            let listing = try await client.send(
                ServiceRequest(method: "GET", bucket: "raw", query: ["list-type": "2", "prefix": "dir/"])
            )
            let root = try await listing.xml()
            #expect(root.name == "ListBucketResult")
            #expect(root.children("Contents").compactMap { $0["Key"] } == ["dir/a b.txt"])
            #expect(root.children("Contents").first?["Size"] == "3000")
        }
    }

    @Test("a sub-resource the server does not implement is the vendor's typed 501", arguments: ClientDialect.all)
    func unimplementedSubresourceIsATypedError(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "raw")
            let error = await expectServiceError("NotImplemented", status: 501) {
                _ = try await client.send(ServiceRequest(method: "GET", bucket: "raw", query: ["website": ""]))
            }
            #expect(error?.requestID != nil)
        }
    }

    @Test("a 503 is retried under the client's policy, as for a wrapped operation")
    func retriesLikeEveryOperation() async throws {
        let faults = FaultInjector()
        let sent = Mutex<[String]>([])
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "raw")
            let client = client.derived { base in
                RecordingTransport(base: base) { request in sent.withLock { $0.append(request.method.rawValue) } }
            }
            faults.add(FaultRule(operations: [.putObject], trigger: .first(1), fault: .internalError))
            let put = try await client.send(
                ServiceRequest(method: "PUT", bucket: "raw", key: "k", body: .bytes(Array("twice".utf8)))
            )
            #expect(put.status == 200)
            // The 500, then the success: one retry, as putObject takes.
            #expect(sent.withLock { $0 } == ["PUT", "PUT"])
            let get = try await client.send(ServiceRequest(method: "GET", bucket: "raw", key: "k"))
            #expect(String(buffer: try await get.body.collect(upTo: 1 << 20)) == "twice")
        }
    }

    @Test("a method or header the request path owns is refused before anything is sent")
    func refusesWhatThePathOwns() async throws {
        let sent = Mutex(0)
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            let client = client.derived { base in
                RecordingTransport(base: base) { _ in sent.withLock { $0 += 1 } }
            }
            for request in [
                ServiceRequest(method: "PATCH", bucket: "raw", key: "k"),
                ServiceRequest(method: "GET", bucket: "raw", key: "k", headers: ["Authorization": "x"]),
                ServiceRequest(method: "PUT", bucket: "raw", key: "k", headers: ["content-length": "1"]),
                ServiceRequest(method: "GET", bucket: "raw", key: "k", headers: ["Host": "elsewhere.example"]),
            ] {
                do {
                    _ = try await client.send(request)
                    Issue.record("expected invalidArgument for \(request.method) \(request.headers)")
                } catch let error as ObjectStorageError {
                    #expect(error.code == .invalidArgument)
                }
            }
            #expect(sent.withLock { $0 } == 0)
        }
    }
}

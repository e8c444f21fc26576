//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Synchronization
import Testing

@testable import ObjectStorage

/// ``PaginatedSequence/readingAhead()``: the next page is requested while the caller holds this one, over real
/// sockets on 127.0.0.1; the pages are the listing's, and an abandoned or cancelled listing stops its request.
struct ReadAheadPagesTests {
    /// Page `n` of a three-page listing of `a`…`e`: two keys a page, continued by the token `t<n + 1>`.
    static func page(_ target: String) -> RawReply {
        let token = target.components(separatedBy: "continuation-token=").dropFirst().first?.prefix(2)
        let (keys, next): ([String], String?) =
            switch token {
            case "t2": (["c", "d"], "t3")
            case "t3": (["e"], nil)
            default: (["a", "b"], "t2")
            }
        let contents = keys.map { "<Contents><Key>\($0)</Key><Size>1</Size><ETag>\"x\"</ETag></Contents>" }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>b</Name><Prefix></Prefix>\
            <KeyCount>\(keys.count)</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>\(next != nil)</IsTruncated>\
            \(next.map { "<NextContinuationToken>\($0)</NextContinuationToken>" } ?? "")\
            \(contents.joined())</ListBucketResult>
            """
        return .response("200 OK", headers: [("Content-Type", "application/xml")], body: Array(xml.utf8))
    }

    /// Waits up to 5 s for the server to have seen `count` requests.
    static func waitFor(_ count: Int, on server: RawHTTPServer) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while server.requests.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return server.requests.count >= count
    }

    @Test("the second page is requested before the caller asks for it; the pages are the listing's")
    func theNextPageIsRequestedWhileTheCallerHoldsThisOne() async throws {
        let server = try await RawHTTPServer.start { Self.page($0.target) }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client()

        var pages = client.listObjects(bucket: "b").readingAhead().makeAsyncIterator()
        let first = try await pages.next()
        #expect(first?.contents.map(\.key) == ["a", "b"])
        #expect(try await Self.waitFor(2, on: server), "no request for the second page while the first was held")
        #expect(server.requests.count == 2, "more than one page was requested ahead")
        #expect(server.requests.last?.target.contains("continuation-token=t2") == true)
        var keys = first?.contents.map(\.key) ?? []
        while let page = try await pages.next() { keys += page.contents.map(\.key) }

        #expect(keys == ["a", "b", "c", "d", "e"])
        #expect(server.requests.count == 3, "a request after the last page: \(server.requests.map(\.target))")
        #expect(try await pages.next() == nil)
        #expect(server.requests.count == 3)
    }

    @Test("without readingAhead, no page is requested before the caller asks")
    func thePlainListingWaitsForTheCaller() async throws {
        let server = try await RawHTTPServer.start { Self.page($0.target) }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client()

        var pages = client.listObjects(bucket: "b").makeAsyncIterator()
        _ = try await pages.next()
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.requests.count == 1)
    }

    @Test("cancelling the task that waits on the page ahead ends the wait at once, with the request still unanswered")
    func cancellingTheWaitingTaskEndsTheRequestAhead() async throws {
        // The second page never comes: the connection stays open and silent.
        let server = try await RawHTTPServer.start { request in
            request.target.contains("continuation-token=t2") ? .bytes([]) : Self.page(request.target)
        }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client()
        let firstKeys = Mutex<[String]>([])

        let listing = Task {
            var pages = client.listObjects(bucket: "b").readingAhead().makeAsyncIterator()
            let first = try await pages.next()
            firstKeys.withLock { $0 = first?.contents.map(\.key) ?? [] }
            return try await pages.next()
        }
        #expect(try await Self.waitFor(2, on: server))
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        listing.cancel()
        let outcome = await listing.result

        #expect(ContinuousClock.now - start < .seconds(5), "the cancelled listing kept waiting for the page ahead")
        #expect(throws: (any Error).self) { try outcome.get() }
        #expect(firstKeys.withLock { $0 } == ["a", "b"])
        #expect(server.requests.count == 2)
    }

    @Test("an error answering the page ahead is thrown by the call that asks for that page")
    func anErrorAheadIsThrownWhenItsPageIsAskedFor() async throws {
        let server = try await RawHTTPServer.start { request in
            guard request.target.contains("continuation-token=t2") else { return Self.page(request.target) }
            let body = Array("<Error><Code>AccessDenied</Code><Message>no</Message></Error>".utf8)
            return .response("403 Forbidden", headers: [("Content-Type", "application/xml")], body: body)
        }
        defer { Task { try? await server.stop() } }
        let client = try server.anonymousS3Client()

        var pages = client.listObjects(bucket: "b").readingAhead().makeAsyncIterator()
        let first = try await pages.next()
        #expect(first?.contents.map(\.key) == ["a", "b"])
        let error = await #expect(throws: ServiceError.self) { _ = try await pages.next() }
        #expect(error?.code == "AccessDenied", "\(String(describing: error))")
        #expect(error?.statusCode == 403)
        #expect(try await pages.next() == nil)
    }

    @Test(
        "readingAhead lists what the plain listing lists, page by page, in every dialect",
        arguments: ClientDialect.all
    )
    func theLocalServersPagesAreTheSame(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "pages")
            for index in 0..<7 {
                try await client.putObject(PutObjectRequest(bucket: "pages", key: "k/\(index)", body: .bytes([1])))
            }
            var plain: [[String]] = []
            for try await page in client.listObjects(bucket: "pages", prefix: "k/", maxKeys: 3) {
                plain.append(page.contents.map(\.key))
            }
            var ahead: [[String]] = []
            for try await page in client.listObjects(bucket: "pages", prefix: "k/", maxKeys: 3).readingAhead() {
                ahead.append(page.contents.map(\.key))
            }
            #expect(plain == [["k/0", "k/1", "k/2"], ["k/3", "k/4", "k/5"], ["k/6"]])
            #expect(ahead == plain)
        }
    }
}

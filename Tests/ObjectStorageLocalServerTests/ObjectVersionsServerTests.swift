//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import Testing

/// Versions as the services keep them, in the three dialects: ids, delete markers, the null version of a suspended
/// bucket, ListObjectVersions and its markers, and a bucket that is not empty while any version remains.
@Suite("Object versions on the server")
struct ObjectVersionsServerTests {
    static let dialects: [(String, [(String, String)], prefix: String)] = [
        ("s3", [], "x-amz-"), ("oss", ossDialect, "x-oss-"), ("obs", obsDialect, "x-obs-"),
    ]

    static func versioning(_ status: String) -> [UInt8] {
        Array("<VersioningConfiguration><Status>\(status)</Status></VersioningConfiguration>".utf8)
    }

    @Test("writes keep every version; a delete hides them behind a marker; removing the marker uncovers them")
    func versionsAndDeleteMarkers() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "versions-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let off = try await client.send("GET", "/\(bucket)?versioning", headers: dialect)
                #expect(off.status == 200 && off.element("Status") == nil, "\(name): \(off.text)")
                let unversioned = try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [0])
                #expect(unversioned.header(prefix + "version-id") == nil, "\(name)")
                #expect(
                    try await client.send(
                        "PUT",
                        "/\(bucket)?versioning",
                        headers: dialect,
                        body: Self.versioning("Enabled")
                    )
                    .status == 200
                )
                #expect(
                    try await client.send("GET", "/\(bucket)?versioning", headers: dialect).element("Status")
                        == "Enabled"
                )

                let first = try #require(
                    try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [1]).header(
                        prefix + "version-id"
                    )
                )
                let second = try #require(
                    try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [2]).header(
                        prefix + "version-id"
                    )
                )
                #expect(first != second && first != "null")
                #expect(try await client.send("GET", "/\(bucket)/k", headers: dialect).body == [2])
                let old = try await client.send("GET", "/\(bucket)/k?versionId=\(first)", headers: dialect)
                #expect(old.body == [1] && old.header(prefix + "version-id") == first, "\(name)")
                #expect(try await client.send("GET", "/\(bucket)/k?versionId=null", headers: dialect).body == [0])

                let delete = try await client.send("DELETE", "/\(bucket)/k", headers: dialect)
                #expect(delete.status == 204 && delete.header(prefix + "delete-marker") == "true", "\(name)")
                let marker = try #require(delete.header(prefix + "version-id"))
                let hidden = try await client.send("GET", "/\(bucket)/k", headers: dialect)
                #expect(hidden.status == 404 && hidden.header(prefix + "delete-marker") == "true", "\(name)")
                #expect(
                    try await client.send("GET", "/\(bucket)/k?versionId=\(marker)", headers: dialect).status == 405
                )
                let missing = try await client.send("GET", "/\(bucket)/k?versionId=0123", headers: dialect)
                #expect(missing.status == 404 && missing.element("Code") == "NoSuchVersion", "\(name)")
                #expect(
                    try await client.send("GET", "/\(bucket)?list-type=2", headers: dialect).elements("Key").isEmpty
                )

                let listing = try await client.send("GET", "/\(bucket)?versions", headers: dialect)
                #expect(listing.elements("VersionId") == [marker, second, first, "null"], "\(name): \(listing.text)")
                #expect(listing.elements("IsLatest") == ["true", "false", "false", "false"])
                #expect(listing.text.contains("<DeleteMarker><Key>k</Key><VersionId>\(marker)</VersionId>"))

                let unmark = try await client.send("DELETE", "/\(bucket)/k?versionId=\(marker)", headers: dialect)
                #expect(
                    unmark.header(prefix + "delete-marker") == "true" && unmark.header(prefix + "version-id") == marker
                )
                #expect(try await client.send("GET", "/\(bucket)/k", headers: dialect).body == [2])

                // Not empty while any version remains.
                #expect(try await client.send("DELETE", "/\(bucket)/k", headers: dialect).status == 204)
                #expect(try await client.send("DELETE", "/\(bucket)", headers: dialect).status == 409)
                let all = try await client.send("GET", "/\(bucket)?versions", headers: dialect).elements("VersionId")
                for id in all {
                    #expect(
                        try await client.send("DELETE", "/\(bucket)/k?versionId=\(id)", headers: dialect).status == 204
                    )
                }
                #expect(try await client.send("DELETE", "/\(bucket)", headers: dialect).status == 204, "\(name)")
            }
        }
    }

    @Test("a suspended bucket writes and deletes the null version, keeping the others")
    func suspended() async throws {
        try await withServer { client, _ in
            for (name, dialect, prefix) in Self.dialects {
                let bucket = "suspended-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                _ = try await client.send(
                    "PUT",
                    "/\(bucket)?versioning",
                    headers: dialect,
                    body: Self.versioning("Enabled")
                )
                let kept = try #require(
                    try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [1]).header(
                        prefix + "version-id"
                    )
                )
                _ = try await client.send(
                    "PUT",
                    "/\(bucket)?versioning",
                    headers: dialect,
                    body: Self.versioning("Suspended")
                )
                #expect(
                    try await client.send("GET", "/\(bucket)?versioning", headers: dialect).element("Status")
                        == "Suspended"
                )
                let null = try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [2])
                #expect(null.header(prefix + "version-id") == "null", "\(name)")
                _ = try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [3])
                var versions = try await client.send("GET", "/\(bucket)?versions", headers: dialect).elements(
                    "VersionId"
                )
                #expect(versions == ["null", kept], "\(name)")
                #expect(try await client.send("GET", "/\(bucket)/k", headers: dialect).body == [3])
                let delete = try await client.send("DELETE", "/\(bucket)/k", headers: dialect)
                #expect(
                    delete.header(prefix + "version-id") == "null" && delete.header(prefix + "delete-marker") == "true"
                )
                versions = try await client.send("GET", "/\(bucket)?versions", headers: dialect).elements("VersionId")
                #expect(versions == ["null", kept], "\(name): the null object gave way to the null marker")
                #expect(try await client.send("GET", "/\(bucket)/k?versionId=\(kept)", headers: dialect).body == [1])
                let refused = try await client.send(
                    "PUT",
                    "/\(bucket)?versioning",
                    headers: dialect,
                    body: Self.versioning("Off")
                )
                #expect(refused.status == 400 && refused.element("Code") == "MalformedXML", "\(name)")
            }
        }
    }

    @Test("ListObjectVersions pages with key and version-id markers, and groups by the delimiter")
    func paging() async throws {
        try await withServer { client, _ in
            let bucket = "paged"
            #expect(try await client.send("PUT", "/\(bucket)", headers: []).status == 200)
            _ = try await client.send("PUT", "/\(bucket)?versioning", body: Self.versioning("Enabled"))
            var expected: [String] = []
            for key in ["a", "b", "dir/c"] {
                var ids: [String] = []
                for byte in 0..<3 {
                    let put = try await client.send("PUT", "/\(bucket)/\(key)", body: [UInt8(byte)])
                    ids.insert(try #require(put.header("x-amz-version-id")), at: 0)
                }
                expected += ids.map { "\(key)@\($0)" }
            }
            var seen: [String] = []
            var query = "versions&max-keys=2"
            for _ in 0..<10 {
                let page = try await client.send("GET", "/\(bucket)?\(query)")
                seen += zip(page.elements("Key"), page.elements("VersionId")).map { "\($0)@\($1)" }
                guard page.element("IsTruncated") == "true" else { break }
                let key = try #require(page.element("NextKeyMarker"))
                let version = try #require(page.element("NextVersionIdMarker"))
                query = "versions&max-keys=2&key-marker=\(key)&version-id-marker=\(version)"
            }
            #expect(seen == expected)
            let grouped = try await client.send("GET", "/\(bucket)?versions&delimiter=/")
            #expect(grouped.elements("Prefix").contains("dir/"))
            #expect(Set(grouped.elements("Key")) == ["a", "b"])
            let orphan = try await client.send("GET", "/\(bucket)?versions&version-id-marker=x")
            #expect(orphan.status == 400 && orphan.element("Code") == "InvalidArgument")
        }
    }

    @Test("a data directory keeps versions, delete markers and the versioning state across a restart")
    func persisted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("versions-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        let first = try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/kept")
            _ = try await client.send("PUT", "/kept?versioning", body: Self.versioning("Enabled"))
            let id = try #require(try await client.send("PUT", "/kept/k", body: [1]).header("x-amz-version-id"))
            _ = try await client.send("DELETE", "/kept/k")
            return id
        }
        try await withServer(configuration) { (client: TestClient, _: LocalObjectServer) async throws -> Void in
            #expect(try await client.send("GET", "/kept?versioning").element("Status") == "Enabled")
            #expect(try await client.send("GET", "/kept/k").header("x-amz-delete-marker") == "true")
            #expect(try await client.send("GET", "/kept/k?versionId=\(first)").body == [1])
            #expect(try await client.send("GET", "/kept?versions").elements("VersionId").count == 2)
        }
    }

    @Test("a change whose metadata cannot be written is refused and leaves the key as it was, in memory and on disk")
    func unwritableMetadataRollsBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("versions-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LocalObjectServer.Configuration(storage: .directory(directory), authentication: .anonymous)
        let tagging = Array("<Tagging><TagSet><Tag><Key>b</Key><Value>2</Value></Tag></TagSet></Tagging>".utf8)
        try await withServer(configuration) { client, _ in
            _ = try await client.send("PUT", "/kept")
            _ = try await client.send("PUT", "/kept?versioning", body: Self.versioning("Enabled"))
            _ = try await client.send("PUT", "/kept/k", headers: [("x-amz-tagging", "a=1")], body: [1])
            // Metadata is written through tmp/; a file in its place makes every such write fail.
            let scratch = directory + "/tmp"
            try FileManager.default.removeItem(atPath: scratch)
            #expect(FileManager.default.createFile(atPath: scratch, contents: Data()))
            #expect(try await client.send("PUT", "/kept/k?tagging", body: tagging).status == 500)
            #expect(try await client.send("DELETE", "/kept/k").status == 500)
            let kept = try await client.send("GET", "/kept/k?tagging")
            #expect(kept.elements("Key") == ["a"] && kept.elements("Value") == ["1"], "\(kept.text)")
            #expect(try await client.send("GET", "/kept/k").body == [1])
            #expect(try await client.send("GET", "/kept?versions").elements("VersionId").count == 1)
            try FileManager.default.removeItem(atPath: scratch)
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        }
        try await withServer(configuration) { (client: TestClient, _: LocalObjectServer) async throws -> Void in
            #expect(try await client.send("GET", "/kept/k?tagging").elements("Value") == ["1"])
            #expect(try await client.send("GET", "/kept/k").body == [1])
        }
    }
}

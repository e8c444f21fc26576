//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageLocalServer
import Testing

/// A sub-resource a service documents and the server does not implement (object tags aside) is refused, 501 `NotImplemented` in the
/// request's dialect, on every method, bucket and object alike, and nothing is stored: a test peer that answered
/// `GET ?versions` with a plain listing or `PUT ?tagging` with 200 would let wrong client code pass.
@Suite("Unimplemented sub-resources")
struct SubresourceRefusalTests {
    /// Sub-resources from each vendor's API reference that the server does not implement.
    static let cases: [(String, [(String, String)], [String])] = [
        (
            "s3", [],
            [
                "versions", "versioning", "tagging", "cors", "lifecycle", "acl", "policy", "website", "encryption",
                "object-lock", "replication", "logging", "notification", "restore", "retention", "legal-hold",
                "torrent", "attributes", "select", "versionId=3HL4kqtJlcpXroDTDmJ",
            ]
        ),
        (
            "oss", ossDialect,
            [
                "versions", "versioning", "tagging", "cors", "lifecycle", "acl", "policy", "website", "encryption",
                "referer", "logging", "restore", "symlink", "append&position=0", "objectMeta", "worm", "bucketInfo",
                "x-oss-process=image/resize,w_10", "replication", "inventory", "versionId=CAEQ",
            ]
        ),
        (
            "obs", obsDialect,
            [
                "versions", "versioning", "tagging", "cors", "lifecycle", "acl", "policy", "website", "encryption",
                "logging", "restore", "append&position=0", "quota", "storageinfo", "storagePolicy", "notification",
                "metadata", "replication", "versionId=G001",
            ]
        ),
    ]

    /// What the server implements of these lists: object tags (ObjectTaggingServerTests), versions and versioning
    /// on a bucket, version ids on an object's GET, HEAD and DELETE (ObjectVersionsServerTests), a bucket's
    /// CORS (BucketCORSServerTests), lifecycle (BucketLifecycleServerTests), policy and default encryption, the canned
    /// ACLs of buckets and objects (BucketConfigurationServerTests), an object's appends and OSS symlinks
    /// (AppendServerTests) and restores (ArchiveRestoreTests).
    static func isImplemented(_ subresource: String, onBucket: Bool, method: String) -> Bool {
        switch subresource {
        case "tagging": !onBucket && ["GET", "PUT", "DELETE"].contains(method)
        case "versions": onBucket && method == "GET"
        case "versioning": onBucket && ["GET", "PUT"].contains(method)
        case "cors", "lifecycle", "policy", "encryption": onBucket && ["GET", "PUT", "DELETE"].contains(method)
        case "append&position=0": !onBucket && method == "POST"
        case "symlink": !onBucket && ["GET", "PUT"].contains(method)
        case "restore": !onBucket && method == "POST"
        case "acl": ["GET", "PUT"].contains(method)
        case let name where name.hasPrefix("versionId="): !onBucket && ["GET", "HEAD", "DELETE"].contains(method)
        default: false
        }
    }

    @Test("every method on a bucket or an object with such a sub-resource is refused, and nothing changes")
    func refusedOnEveryMethod() async throws {
        try await withServer { client, _ in
            for (name, dialect, subresources) in Self.cases {
                let bucket = "bkt-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                #expect(
                    try await client.send("PUT", "/\(bucket)/kept", headers: dialect, body: [1, 2, 3]).status == 200
                )
                for subresource in subresources {
                    for path in ["/\(bucket)", "/\(bucket)/kept", "/\(bucket)/absent"] {
                        for method in ["GET", "PUT", "POST", "DELETE", "HEAD"] {
                            if Self.isImplemented(subresource, onBucket: path == "/\(bucket)", method: method) {
                                continue
                            }
                            let response = try await client.send(
                                method,
                                "\(path)?\(subresource)",
                                headers: dialect,
                                body: method == "PUT" || method == "POST" ? Array("<Tagging/>".utf8) : []
                            )
                            let what = "\(name) \(method) \(path)?\(subresource)"
                            #expect(response.status == 501, "\(what): \(response.status) \(response.text)")
                            if method != "HEAD" {
                                #expect(response.element("Code") == "NotImplemented", "\(what): \(response.text)")
                            }
                        }
                    }
                }
                // Nothing was stored, replaced or deleted.
                #expect(try await client.send("GET", "/\(bucket)/absent", headers: dialect).status == 404, "\(name)")
                let kept = try await client.send("GET", "/\(bucket)/kept", headers: dialect)
                #expect(kept.status == 200 && kept.body == [1, 2, 3], "\(name)")
                #expect(try await client.send("HEAD", "/\(bucket)", headers: dialect).status == 200, "\(name)")
            }
        }
    }

    @Test("the null version, the location and the upload sub-resources still answer")
    func implementedOnesStillAnswer() async throws {
        try await withServer { client, _ in
            for (name, dialect, _) in Self.cases {
                let bucket = "ok-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                #expect(try await client.send("PUT", "/\(bucket)/k", headers: dialect, body: [7]).status == 200)
                let null = try await client.send("GET", "/\(bucket)/k?versionId=null", headers: dialect)
                #expect(null.status == 200 && null.body == [7], "\(name): \(null.text)")
                #expect(try await client.send("GET", "/\(bucket)?location", headers: dialect).status == 200)
                #expect(try await client.send("GET", "/\(bucket)?uploads", headers: dialect).status == 200)
            }
        }
    }
}

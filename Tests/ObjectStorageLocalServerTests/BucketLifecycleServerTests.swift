//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// A bucket's lifecycle rules on the server, in the three dialects: kept as put, refused as the services refuse
/// them, and applied on demand.
@Suite("Bucket lifecycle on the server")
struct BucketLifecycleServerTests {
    static let dialects: [(String, [(String, String)])] = [("s3", []), ("oss", ossDialect), ("obs", obsDialect)]

    static func md5(_ body: [UInt8]) -> (String, String) {
        ("Content-MD5", ByteEncoding.base64(Hashing.MD5.hash(body)))
    }

    /// One rule in each dialect's own form: expire `tmp/` after a day, abort uploads after two.
    static func document(_ dialect: String) -> [UInt8] {
        let rules: String
        switch dialect {
        case "s3":
            rules = """
                <Rule><ID>tmp</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status>\
                <Expiration><Days>1</Days></Expiration></Rule>\
                <Rule><ID>uploads</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>\
                <AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>\
                </AbortIncompleteMultipartUpload></Rule>
                """
        case "oss":
            rules = """
                <Rule><ID>tmp</ID><Prefix>tmp/</Prefix><Status>Enabled</Status>\
                <Expiration><Days>1</Days></Expiration></Rule>\
                <Rule><ID>uploads</ID><Prefix>up/</Prefix><Status>Enabled</Status>\
                <AbortMultipartUpload><Days>2</Days></AbortMultipartUpload></Rule>
                """
        default:
            rules = """
                <Rule><ID>tmp</ID><Prefix>tmp/</Prefix><Status>Enabled</Status>\
                <Expiration><Days>1</Days></Expiration></Rule>\
                <Rule><ID>uploads</ID><Prefix>up/</Prefix><Status>Enabled</Status>\
                <AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>\
                </AbortIncompleteMultipartUpload></Rule>
                """
        }
        return Array("<LifecycleConfiguration>\(rules)</LifecycleConfiguration>".utf8)
    }

    @Test("rules are kept as put, answered by GET, removed by DELETE; none answers each service's 404 code")
    func keptAndRemoved() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "lifecycle-\(name)"
                #expect(try await client.send("PUT", "/\(bucket)", headers: dialect).status == 200)
                let none = try await client.send("GET", "/\(bucket)?lifecycle", headers: dialect)
                #expect(none.status == 404, "\(name)")
                #expect(none.element("Code") == (name == "oss" ? "NoSuchLifecycle" : "NoSuchLifecycleConfiguration"))
                let body = Self.document(name)
                let put = try await client.send(
                    "PUT",
                    "/\(bucket)?lifecycle",
                    headers: dialect + [Self.md5(body)],
                    body: body
                )
                #expect(put.status == 200, "\(name): \(put.text)")
                let got = try await client.send("GET", "/\(bucket)?lifecycle", headers: dialect)
                #expect(got.status == 200 && got.body == body, "\(name)")
                #expect(try await client.send("DELETE", "/\(bucket)?lifecycle", headers: dialect).status == 204)
                #expect(try await client.send("GET", "/\(bucket)?lifecycle", headers: dialect).status == 404)
            }
        }
    }

    @Test("a configuration the service refuses is refused with its code, and nothing is kept")
    func refusals() async throws {
        try await withServer { client, _ in
            for (name, dialect) in Self.dialects {
                let bucket = "refused-\(name)"
                _ = try await client.send("PUT", "/\(bucket)", headers: dialect)
                func put(_ rules: String, md5: Bool = true) async throws -> TestResponse {
                    let body = Array("<LifecycleConfiguration>\(rules)</LifecycleConfiguration>".utf8)
                    return try await client.send(
                        "PUT",
                        "/\(bucket)?lifecycle",
                        headers: dialect + (md5 ? [Self.md5(body)] : []),
                        body: body
                    )
                }
                let prefix = name == "s3" ? "<Filter><Prefix>a/</Prefix></Filter>" : "<Prefix>a/</Prefix>"
                let cases: [(String, Int, String)] = [
                    // Days must be positive.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status><Expiration><Days>0</Days></Expiration></Rule>", 400,
                        "InvalidArgument"
                    ),
                    // A date must be midnight UTC.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status><Expiration><Date>2026-01-01T12:00:00.000Z</Date>"
                            + "</Expiration></Rule>", 400, "InvalidArgument"
                    ),
                    // Days and a date together.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status><Expiration><Days>3</Days>"
                            + "<Date>2026-01-01T00:00:00.000Z</Date></Expiration></Rule>", 400, "MalformedXML"
                    ),
                    // No Status.
                    ("<Rule>\(prefix)<Expiration><Days>3</Days></Expiration></Rule>", 400, "MalformedXML"),
                    // No action.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status></Rule>", 400,
                        name == "s3" ? "InvalidRequest" : "InvalidArgument"
                    ),
                    // A storage class the vendor does not have.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status><Transition><Days>40</Days>"
                            + "<StorageClass>FROZEN</StorageClass></Transition></Rule>", 400, "InvalidArgument"
                    ),
                    // An expiration before a transition.
                    (
                        "<Rule>\(prefix)<Status>Enabled</Status><Transition><Days>60</Days><StorageClass>"
                            + (name == "oss" ? "IA" : name == "obs" ? "WARM" : "GLACIER")
                            + "</StorageClass></Transition><Expiration><Days>30</Days></Expiration></Rule>", 400,
                        "InvalidArgument"
                    ),
                    // Two rules named alike.
                    (
                        "<Rule><ID>x</ID>\(prefix)<Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>"
                            + "<Rule><ID>x</ID>"
                            + (name == "s3" ? "<Filter><Prefix>b/</Prefix></Filter>" : "<Prefix>b/</Prefix>")
                            + "<Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>", 400,
                        "InvalidArgument"
                    ),
                    // S3's size filter: a feature the server does not implement.
                    (
                        "<Rule><Filter><ObjectSizeGreaterThan>5</ObjectSizeGreaterThan></Filter><Status>Enabled</Status>"
                            + "<Expiration><Days>3</Days></Expiration></Rule>", 501, "NotImplemented"
                    ),
                ]
                for (rules, status, code) in cases {
                    let response = try await put(rules)
                    #expect(response.status == status && response.element("Code") == code, "\(name): \(rules)")
                }
                if name == "obs" {
                    let overlap = try await put(
                        "<Rule><Prefix>logs/</Prefix><Status>Enabled</Status><Expiration><Days>3</Days></Expiration>"
                            + "</Rule><Rule><Prefix>logs/old/</Prefix><Status>Enabled</Status><Expiration>"
                            + "<Days>9</Days></Expiration></Rule>"
                    )
                    #expect(overlap.status == 400 && overlap.element("Code") == "InvalidArgument")
                    let tags = try await put(
                        "<Rule><Prefix>a/</Prefix><Status>Enabled</Status><Tag><Key>k</Key><Value>v</Value></Tag>"
                            + "<Expiration><Days>3</Days></Expiration></Rule>"
                    )
                    #expect(tags.status == 400 && tags.element("Code") == "MalformedXML")
                } else {
                    let tagged =
                        name == "s3"
                        ? "<Rule><Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status>"
                        : "<Rule><Prefix></Prefix><Status>Enabled</Status><Tag><Key>k</Key><Value>v</Value></Tag>"
                    let abort =
                        name == "s3"
                        ? "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                            + "</AbortIncompleteMultipartUpload>"
                        : "<AbortMultipartUpload><Days>2</Days></AbortMultipartUpload>"
                    let response = try await put(tagged + abort + "</Rule>")
                    #expect(
                        response.status == 400
                            && response.element("Code") == (name == "s3" ? "InvalidRequest" : "InvalidArgument"),
                        "\(name): tags with an upload abort"
                    )
                }
                if name != "oss" {
                    let unsigned = try await put(
                        "<Rule>\(prefix)<Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>",
                        md5: false
                    )
                    #expect(unsigned.status == 400, "\(name): Content-MD5 is required")
                }
                #expect(try await client.send("GET", "/\(bucket)?lifecycle", headers: dialect).status == 404)
            }
        }
    }

    @Test("applied on demand: an object past its days expires, an abandoned upload is aborted, the rest stays")
    func appliedOnDemand() async throws {
        try await withServer { client, server in
            for (name, dialect) in Self.dialects {
                let bucket = "apply-\(name)"
                _ = try await client.send("PUT", "/\(bucket)", headers: dialect)
                let body = Self.document(name)
                _ = try await client.send(
                    "PUT",
                    "/\(bucket)?lifecycle",
                    headers: dialect + [Self.md5(body)],
                    body: body
                )
                #expect(try await client.send("PUT", "/\(bucket)/tmp/a", headers: dialect, body: [1]).status == 200)
                #expect(try await client.send("PUT", "/\(bucket)/keep/b", headers: dialect, body: [2]).status == 200)
                let upload = try await initiate(client, "/\(bucket)/up/c", headers: dialect)

                // Before the days have passed, nothing changes.
                let early = try server.applyLifecycle(asOf: Date())
                #expect(!early.expiredObjects.contains("\(bucket)/tmp/a"))

                // Three days on (midnight rounding included), the object expired and the upload is gone.
                let report = try server.applyLifecycle(asOf: Date().addingTimeInterval(3 * 86_400))
                #expect(report.expiredObjects.contains("\(bucket)/tmp/a"), "\(name): \(report)")
                #expect(report.abortedUploads.contains("\(bucket)/up/c?uploadId=\(upload)"), "\(name): \(report)")
                #expect(try await client.send("GET", "/\(bucket)/tmp/a", headers: dialect).status == 404)
                #expect(try await client.send("GET", "/\(bucket)/keep/b", headers: dialect).body == [2])
                let parts = try await client.send("GET", "/\(bucket)/up/c?uploadId=\(upload)", headers: dialect)
                #expect(parts.status == 404 && parts.element("Code") == "NoSuchUpload", "\(name)")
            }
        }
    }

    @Test("in a versioned bucket expiry leaves a delete marker, and noncurrent versions go after their days")
    func versionedBucket() async throws {
        try await withServer { client, server in
            let versioning = Array(
                "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>".utf8
            )
            _ = try await client.send("PUT", "/versioned")
            #expect(try await client.send("PUT", "/versioned?versioning", body: versioning).status == 200)
            let rules = Array(
                """
                <LifecycleConfiguration><Rule><Filter><Prefix>d/</Prefix></Filter><Status>Enabled</Status>\
                <Expiration><Days>5</Days></Expiration>\
                <NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>\
                </Rule></LifecycleConfiguration>
                """.utf8
            )
            #expect(
                try await client.send("PUT", "/versioned?lifecycle", headers: [Self.md5(rules)], body: rules).status
                    == 200
            )
            _ = try await client.send("PUT", "/versioned/d/k", body: [1])
            _ = try await client.send("PUT", "/versioned/d/k", body: [2])
            // Two days on: the first version has been noncurrent for more than a day; the current one stays.
            let first = try server.applyLifecycle(asOf: Date().addingTimeInterval(2 * 86_400))
            #expect(first.removedVersions.count == 1 && first.expiredObjects.isEmpty, "\(first)")
            #expect(try await client.send("GET", "/versioned/d/k").body == [2])
            // A week on: the current version expires behind a delete marker, and is kept as noncurrent.
            let second = try server.applyLifecycle(asOf: Date().addingTimeInterval(7 * 86_400))
            #expect(second.expiredObjects == ["versioned/d/k"], "\(second)")
            #expect(try await client.send("GET", "/versioned/d/k").status == 404)
            let versions = try await client.send("GET", "/versioned?versions")
            #expect(versions.text.contains("<DeleteMarker>") && versions.text.contains("<Version>"), "\(versions.text)")
        }
    }

    @Test("a day can be a second: rules count days of the given length, with no midnight rounding")
    func shortDays() async throws {
        try await withServer { client, server in
            let rules = Array(
                """
                <LifecycleConfiguration><Rule><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>\
                <Transition><Days>2</Days><StorageClass>GLACIER</StorageClass></Transition>\
                <Expiration><Days>10</Days></Expiration></Rule></LifecycleConfiguration>
                """.utf8
            )
            _ = try await client.send("PUT", "/fast")
            _ = try await client.send("PUT", "/fast?lifecycle", headers: [Self.md5(rules)], body: rules)
            _ = try await client.send("PUT", "/fast/k", body: [7])
            let moved = try server.applyLifecycle(asOf: Date().addingTimeInterval(4), dayLength: .seconds(1))
            #expect(moved.transitions == ["fast/k GLACIER"], "\(moved)")
            #expect(try await client.send("HEAD", "/fast/k").header("x-amz-storage-class") == "GLACIER")
            let expired = try server.applyLifecycle(asOf: Date().addingTimeInterval(12), dayLength: .seconds(1))
            #expect(expired.expiredObjects == ["fast/k"], "\(expired)")
        }
    }
}

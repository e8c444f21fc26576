//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Refuses the sub-resources a service documents and this server does not implement (bucket tags, CORS,
/// lifecycle, ACLs, ...), on every method, with 501 `NotImplemented` in the dialect's error format: a test
/// peer that answered `GET ?versions` with a plain listing, or stored nothing for `PUT ?tagging` and said 200, would
/// let wrong client code pass.
enum SubresourceGate {
    /// What this server implements of the documented sub-resources, by name as sent (case-insensitively for OBS,
    /// whose signer compares them lowercased).
    static let implemented: Set<String> = [
        "location", "uploads", "uploadid", "partnumber", "delete", "continuation-token", "response-cache-control",
        "response-content-disposition", "response-content-encoding", "response-content-language",
        "response-content-type", "response-expires",
        // Not features but credentials and limits of a presigned or STS-signed request, checked by the verifier.
        "security-token",
    ]

    /// S3's sub-resources (the REST API reference's bucket and object sub-resources).
    static let s3Documented: Set<String> = [
        "accelerate", "acl", "analytics", "attributes", "cors", "delete", "encryption", "intelligent-tiering",
        "inventory", "legal-hold", "lifecycle", "location", "logging", "metadataTable", "metrics", "notification",
        "object-lock", "ownershipControls", "partNumber", "policy", "policyStatus", "publicAccessBlock",
        "replication", "requestPayment", "restore", "retention", "select", "session", "tagging", "torrent",
        "uploadId", "uploads", "versionId", "versioning", "versions", "website",
    ]

    /// The sub-resources `vendor` documents, lowercased.
    static func documented(by vendor: StorageVendor) -> Set<String> {
        let names: Set<String>
        switch vendor.kind {
        case .oss: names = OSSV1Signature.subresources
        case .obs: names = OBSSignature.subresources
        case .s3: names = Self.s3Documented
        }
        return Set(names.map { $0.lowercased() })
    }

    /// Whether the server implements sub-resource `name` (lowercased) for this request's method and target: object
    /// tags (`GET`, `PUT`, `DELETE` of a key's `?tagging`), a bucket's CORS, lifecycle, policy and default encryption
    /// (`GET`, `PUT`, `DELETE ?cors`, `?lifecycle`, `?policy`, `?encryption`), canned ACLs of buckets and objects (`GET`,
    /// `PUT ?acl`), versions (a bucket's `GET ?versions`, `GET` and `PUT ?versioning`), version ids on a key's `GET`,
    /// `HEAD`, `DELETE`, tags and ACL, appends (`POST ?append&position=`), symlinks (`GET`, `PUT ?symlink`) and
    /// restores (`POST ?restore`).
    private static func isImplemented(_ name: String, request: IncomingRequest) -> Bool {
        let method = request.method
        switch name {
        case "tagging": return request.key != nil && ["GET", "PUT", "DELETE"].contains(method)
        case "versions": return request.key == nil && method == "GET"
        case "versioning": return request.key == nil && (method == "GET" || method == "PUT")
        case "cors", "lifecycle", "policy", "encryption":
            return request.key == nil && ["GET", "PUT", "DELETE"].contains(method)
        // Appends (OSS, OBS: S3 documents neither name) and OSS's symlinks (which OBS does not document).
        case "append", "position": return request.key != nil && method == "POST"
        case "symlink": return request.key != nil && (method == "GET" || method == "PUT")
        case "restore": return request.key != nil && method == "POST"
        case "acl": return method == "GET" || method == "PUT"
        case "versionid":
            return request.key != nil
                && (["GET", "HEAD", "DELETE"].contains(method)
                    || (method == "PUT" && (request.hasQuery("tagging") || request.hasQuery("acl"))))
        default: return false
        }
    }

    /// The first query parameter of `request` that names a sub-resource `vendor` documents and this server does
    /// not implement, if any (see ``isImplemented(_:request:)``). `versionId=null` (the null version, which every object of an unversioned bucket is)
    /// is accepted.
    static func unimplemented(in request: IncomingRequest, vendor: StorageVendor) -> String? {
        let documented = Self.documented(by: vendor)
        for item in request.query {
            let name = item.name.lowercased()
            guard documented.contains(name), !Self.implemented.contains(name) else { continue }
            if Self.isImplemented(name, request: request) { continue }
            if name.hasPrefix("response-") { continue }
            if name == "versionid" && item.value == "null" { continue }
            return item.name
        }
        return nil
    }
}

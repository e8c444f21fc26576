//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

/// Presigned GET and HEAD URLs in every scheme the site accepts, fetched with a plain HTTP client,
/// and a tampered URL that the service must refuse.
enum DemoPresign {
    /// The bytes a presigned GET asks for (`Range: bytes=0-65535`) and compares with the file's start.
    static let rangeLength = 64 << 10

    /// Checks every scheme of `site` against the object `bucket`/`key` of `size` bytes.
    ///
    /// - Returns: One check per scheme, and one presigned GET URL to show.
    static func check(
        site: DemoSite,
        bucket: String,
        key: String,
        size: Int64,
        console: DemoConsole
    ) async throws -> (checks: [DemoSummary.PresignedCheck], example: String?) {
        let expected = DemoData.prefix(rangeLength)
        var checks: [DemoSummary.PresignedCheck] = []
        var example: String?
        for scheme in site.schemes {
            let get = try await scheme.client.presign(
                bucket: bucket,
                key: key,
                method: "GET",
                expires: .seconds(300)
            )
            let head = try await scheme.client.presign(
                bucket: bucket,
                key: key,
                method: "HEAD",
                expires: .seconds(300)
            )
            example = example ?? get.url
            let range = ["Range": "bytes=0-\(rangeLength - 1)"]
            let fetched = try await PlainHTTP.fetch(
                get.url,
                method: "GET",
                headers: get.signedHeaders.merging(range) { signed, _ in signed }
            )
            let headed = try await PlainHTTP.fetch(head.url, method: "HEAD", headers: head.signedHeaders)
            let tampered = try await PlainHTTP.fetch(
                PlainHTTP.tamperedSignature(get.url),
                method: "GET",
                headers: get.signedHeaders
            )
            checks.append(
                DemoSummary.PresignedCheck(
                    scheme: scheme.label,
                    getStatus: fetched.status,
                    getBytesMatch: fetched.body == expected,
                    headStatus: headed.status,
                    headContentLength: headed.contentLength,
                    tamperedStatus: tampered.status,
                    tamperedCode: tampered.errorCode,
                    passed: fetched.status == 206 && fetched.body == expected && headed.status == 200
                        && headed.contentLength == size && tampered.status == 403
                )
            )
        }
        return (checks, example)
    }
}

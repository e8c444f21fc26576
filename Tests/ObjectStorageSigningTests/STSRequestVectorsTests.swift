//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

/// Whole STS requests against Fixtures/vectors/sts-vectors.json: the URL Alibaba's credentials library sent for
/// AssumeRole and AssumeRoleWithOIDC, rebuilt from the same inputs, byte for byte.
@Suite("STS requests are the ones Alibaba's credentials library sends")
struct STSRequestVectorsTests {
    /// The vectors of alibabacloud_credentials (the core SDK orders its parameters differently) whose values have
    /// no space: for those, its `+` and the documented `%20` (ours) differ, as AlibabaRPCSignatureVectorsTests shows.
    static let vectors: [AlibabaRPCVector] = AlibabaRPCVector.all.filter {
        $0.provider == "alibaba-sts" && !$0.id.hasPrefix("alibaba-core-")
            && !($0.expected.query ?? []).contains { $0.count == 2 && $0[1].contains(" ") }
    }

    @Test func thereAreVectorsOfBothActions() {
        #expect(Self.vectors.count(where: { $0.id.hasPrefix("alibaba-assumerole") }) >= 6)
        #expect(Self.vectors.count(where: { $0.id.hasPrefix("alibaba-oidc") }) >= 4)
    }

    @Test(arguments: Self.vectors)
    func theURLIsByteIdentical(_ vector: AlibabaRPCVector) throws {
        let query = Dictionary(vector.parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let url = try #require(vector.expected.url)
        let queryStart = try #require(url.range(of: "/?"))
        let endpoint = String(url[..<queryStart.lowerBound])
        let role = RoleRequest(
            service: STSService(vendor: .oss, endpoint: endpoint, region: ""),
            roleARN: try #require(query["RoleArn"]),
            sessionName: query["RoleSessionName"],
            externalID: query["ExternalId"],
            durationSeconds: query["DurationSeconds"].flatMap { Int($0) },
            policy: query["Policy"],
            origin: vector.id
        )
        let timestamp = try #require(query["Timestamp"])
        let date = try #require(SigningTimestamp(iso8601: timestamp)).date
        let request: STSRequest
        if query["Action"] == "AssumeRoleWithOIDC" {
            request = try STSRequest.webIdentity(
                role,
                sessionName: try #require(query["RoleSessionName"]),
                token: try #require(query["OIDCToken"]),
                providerARN: query["OIDCProviderArn"],
                at: date
            )
        } else {
            let credentials = Credentials(
                accessKeyID: try #require(query["AccessKeyId"]),
                secretAccessKey: vector.secret,
                securityToken: query["SecurityToken"]
            )
            request = try STSRequest.assumeRole(
                role,
                sessionName: try #require(query["RoleSessionName"]),
                credentials: credentials,
                at: date,
                nonce: try #require(query["SignatureNonce"])
            )
        }
        #expect(request.method == "GET")
        #expect(request.url == url)
        #expect(request.body.isEmpty)
    }
}

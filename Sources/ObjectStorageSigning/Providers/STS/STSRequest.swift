//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// One request to a security token service, built without sending it: the time and the nonce are parameters,
/// so the same inputs give the same bytes.
///
/// | | AWS STS (2011-06-15) | Alibaba Cloud STS (2015-04-01) |
/// |---|---|---|
/// | AssumeRole | `POST /`, form body, SigV4 (service `sts`) | `GET /?…`, RPC signature (HMAC-SHA1) |
/// | web identity | `AssumeRoleWithWebIdentity`, `POST /`, unsigned | `AssumeRoleWithOIDC`, `GET /?…`, unsigned |
package struct STSRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    package var method: String
    /// The whole URL, query included.
    package var url: String
    /// The headers to send (`Host` is the transport's).
    package var headers: [HTTPHeader]
    /// The body: a form for AWS, empty for Alibaba Cloud.
    package var body: [UInt8]

    /// STS `AssumeRole`, signed with `credentials`.
    ///
    /// - Parameters:
    ///   - role: The role and its settings; `role.service.vendor` picks AWS (`.s3`) or Alibaba Cloud (`.oss`).
    ///   - sessionName: The session's name.
    ///   - credentials: The credentials that sign the request (their security token is sent and signed).
    ///   - date: The signing time.
    ///   - nonce: Alibaba Cloud's `SignatureNonce` (unique per request); AWS has none.
    /// - Throws: ``SigningError`` when the endpoint is not a URL.
    package static func assumeRole(
        _ role: RoleRequest,
        sessionName: String,
        credentials: Credentials,
        at date: Date,
        nonce: String
    ) throws(SigningError) -> STSRequest {
        if role.service.vendor == .oss {
            var parameters = Self.alibabaParameters("AssumeRole", role)
            parameters += [("RoleSessionName", sessionName), ("SignatureMethod", "HMAC-SHA1")]
            parameters += [("SignatureVersion", "1.0"), ("Timestamp", Self.timestamp(date)), ("SignatureNonce", nonce)]
            if let policy = role.policy { parameters.append(("Policy", policy)) }
            if let externalID = role.externalID { parameters.append(("ExternalId", externalID)) }
            parameters.append(("AccessKeyId", credentials.accessKeyID))
            if let token = credentials.securityToken { parameters.append(("SecurityToken", token)) }
            let signature = AlibabaRPCSignature.signature(
                method: "GET",
                parameters: parameters,
                secret: credentials.secretAccessKey
            )
            parameters.append(("Signature", signature))
            return try Self.alibabaGET(role, parameters: parameters)
        }
        var form = Self.awsParameters("AssumeRole", role, sessionName: sessionName)
        if let externalID = role.externalID { form.append(("ExternalId", externalID)) }
        if let policy = role.policy { form.append(("Policy", policy)) }
        let body = Array(Self.encoded(form).utf8)
        let endpoint = try Endpoint(url: role.service.endpoint)
        let signer = RequestSigner(version: .sigV4, region: role.service.region, service: "sts")
        let signed = try signer.sign(
            SigningRequest(
                method: "POST",
                endpoint: endpoint,
                addressing: .path,
                headers: [HTTPHeader(name: "Content-Type", value: Self.formType)]
            ),
            credentials: credentials,
            at: date,
            payload: .sha256(of: body)
        )
        return STSRequest(
            method: "POST",
            url: signed.url,
            headers: signed.headers.filter { !$0.name.isNamed("host") },
            body: body
        )
    }

    /// STS `AssumeRoleWithWebIdentity` (AWS) or `AssumeRoleWithOIDC` (Alibaba Cloud): unsigned, the token proves
    /// who asks.
    ///
    /// - Parameters:
    ///   - role: The role and its settings.
    ///   - sessionName: The session's name.
    ///   - token: The OIDC token, as read from its file.
    ///   - providerARN: The OIDC provider's ARN (Alibaba Cloud requires it; AWS has none).
    ///   - date: The request time (Alibaba Cloud's `Timestamp`).
    /// - Throws: ``SigningError`` when the endpoint is not a URL.
    package static func webIdentity(
        _ role: RoleRequest,
        sessionName: String,
        token: String,
        providerARN: String?,
        at date: Date
    ) throws(SigningError) -> STSRequest {
        if role.service.vendor == .oss {
            var parameters = Self.alibabaParameters("AssumeRoleWithOIDC", role)
            parameters += [("OIDCProviderArn", providerARN ?? ""), ("OIDCToken", token)]
            parameters += [("RoleSessionName", sessionName), ("Timestamp", Self.timestamp(date))]
            if let policy = role.policy { parameters.append(("Policy", policy)) }
            return try Self.alibabaGET(role, parameters: parameters)
        }
        var form = Self.awsParameters("AssumeRoleWithWebIdentity", role, sessionName: sessionName)
        form.append(("WebIdentityToken", token))
        if let policy = role.policy { form.append(("Policy", policy)) }
        let endpoint = try Endpoint(url: role.service.endpoint)
        return STSRequest(
            method: "POST",
            url: endpoint.description + "/",
            headers: [HTTPHeader(name: "Content-Type", value: Self.formType)],
            body: Array(Self.encoded(form).utf8)
        )
    }

    private static let formType = "application/x-www-form-urlencoded; charset=utf-8"

    private static func awsParameters(
        _ action: String,
        _ role: RoleRequest,
        sessionName: String
    ) -> [(String, String)] {
        var form = [("Action", action), ("Version", "2011-06-15"), ("RoleArn", role.roleARN)]
        form.append(("RoleSessionName", sessionName))
        if let duration = role.durationSeconds { form.append(("DurationSeconds", "\(duration)")) }
        return form
    }

    /// The parameters Alibaba's credentials library sends first, in its order.
    private static func alibabaParameters(_ action: String, _ role: RoleRequest) -> [(String, String)] {
        [
            ("Action", action), ("Format", "JSON"), ("Version", "2015-04-01"),
            ("DurationSeconds", "\(role.durationSeconds ?? 3600)"), ("RoleArn", role.roleARN),
        ]
    }

    /// Alibaba Cloud's `Timestamp`: `2024-03-05T04:05:06Z`.
    private static func timestamp(_ date: Date) -> String {
        SigningTimestamp(date).iso8601WholeSeconds
    }

    private static func alibabaGET(
        _ role: RoleRequest,
        parameters: [(String, String)]
    ) throws(SigningError) -> STSRequest {
        let endpoint = try Endpoint(url: role.service.endpoint)
        return STSRequest(
            method: "GET",
            url: endpoint.description + "/?" + Self.encoded(parameters),
            headers: [],
            body: []
        )
    }

    /// `name=value&…`, each side percent-encoded as a URI component (space `%20`).
    private static func encoded(_ parameters: [(String, String)]) -> String {
        parameters.map {
            PercentEncoding.encode($0.0, style: .component) + "=" + PercentEncoding.encode($0.1, style: .component)
        }.joined(separator: "&")
    }
}

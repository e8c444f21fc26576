//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CredentialsProvider where Self == RefreshingCredentialsProvider {
    /// The credentials of an assumed role: STS `AssumeRole`, signed with the credentials of `source`, cached and
    /// refreshed before they expire.
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .assumeRole(
    ///     "arn:aws:iam::123456789012:role/uploader",
    ///     using: .environment(.s3),
    ///     externalID: "partner-42"
    /// )
    /// ```
    ///
    /// For Alibaba Cloud, pass `vendor: .oss` and a RAM role ARN (`acs:ram::UID:role/NAME`): the request goes to
    /// Alibaba Cloud STS with its RPC signature.
    ///
    /// - Parameters:
    ///   - roleARN: The role's ARN.
    ///   - source: The credentials that sign the request, e.g. `.environment(.s3)`.
    ///   - sessionName: The session's name (default `objstore-<seconds since 1970>`).
    ///   - externalID: The external id the role's trust policy requires, if any.
    ///   - duration: The credentials' lifetime, 15 minutes to 12 hours (default: the service's, one hour).
    ///   - policy: A session policy (JSON) that narrows the role's permissions.
    ///   - vendor: `.s3` for AWS STS (the default), `.oss` for Alibaba Cloud STS.
    ///   - region: AWS: the region whose STS endpoint to use (default `AWS_REGION`, else the global endpoint);
    ///     Alibaba Cloud: the STS region (default `ALIBABA_CLOUD_STS_REGION`, else `sts.aliyuncs.com`).
    ///   - endpoint: The STS endpoint's URL, overriding the region's (default `AWS_ENDPOINT_URL_STS` /
    ///     `AWS_ENDPOINT_URL` for AWS, `ALIBABA_CLOUD_STS_ENDPOINT` for Alibaba Cloud).
    /// - Returns: A refreshing provider, described as `refreshing(assumeRole(ROLE, endpoint: HOST))`.
    public static func assumeRole(
        _ roleARN: String,
        using source: some CredentialsProvider,
        sessionName: String? = nil,
        externalID: String? = nil,
        duration: Duration? = nil,
        policy: String? = nil,
        vendor: StorageVendor = .s3,
        region: String? = nil,
        endpoint: String? = nil
    ) -> RefreshingCredentialsProvider {
        let role = Self.roleRequest(
            roleARN,
            sessionName: sessionName,
            externalID: externalID,
            duration: duration,
            policy: policy,
            vendor: vendor,
            region: region,
            endpoint: endpoint
        )
        return .refreshing(STSCredentialsProvider(role: role, proof: .credentials(source)))
    }

    /// The credentials of a role assumed with a web identity (OIDC) token: AWS STS `AssumeRoleWithWebIdentity`
    /// (EKS IRSA) or Alibaba Cloud STS `AssumeRoleWithOIDC` (ACK RRSA), cached and refreshed before they expire.
    ///
    /// The token file is read again at each refresh, because Kubernetes rotates it.
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .webIdentity(
    ///     roleARN: "acs:ram::1234567890123456:role/app",
    ///     tokenFile: "/var/run/secrets/ack.alibabacloud.com/rrsa-tokens/token",
    ///     providerARN: "acs:ram::1234567890123456:oidc-provider/ack-rrsa-c123",
    ///     vendor: .oss
    /// )
    /// ```
    ///
    /// The default chain (`standard(_:)`) builds this provider from `AWS_ROLE_ARN` and
    /// `AWS_WEB_IDENTITY_TOKEN_FILE`, or `ALIBABA_CLOUD_ROLE_ARN`, `ALIBABA_CLOUD_OIDC_PROVIDER_ARN` and
    /// `ALIBABA_CLOUD_OIDC_TOKEN_FILE`, as the vendors' SDKs do.
    ///
    /// - Parameters:
    ///   - roleARN: The role's ARN.
    ///   - tokenFile: The path of the file holding the OIDC token.
    ///   - providerARN: The OIDC provider's ARN (Alibaba Cloud requires it; AWS has none).
    ///   - sessionName: The session's name (default `objstore-<seconds since 1970>`).
    ///   - duration: The credentials' lifetime, 15 minutes to 12 hours (default: the service's, one hour).
    ///   - policy: A session policy (JSON) that narrows the role's permissions.
    ///   - vendor: `.s3` for AWS STS (the default), `.oss` for Alibaba Cloud STS.
    ///   - region: As for `assumeRole(_:using:sessionName:externalID:duration:policy:vendor:region:endpoint:)`.
    ///   - endpoint: As for `assumeRole(_:using:sessionName:externalID:duration:policy:vendor:region:endpoint:)`.
    /// - Returns: A refreshing provider, described as `refreshing(webIdentity(ROLE, endpoint: HOST))`.
    public static func webIdentity(
        roleARN: String,
        tokenFile: String,
        providerARN: String? = nil,
        sessionName: String? = nil,
        duration: Duration? = nil,
        policy: String? = nil,
        vendor: StorageVendor = .s3,
        region: String? = nil,
        endpoint: String? = nil
    ) -> RefreshingCredentialsProvider {
        let role = Self.roleRequest(
            roleARN,
            sessionName: sessionName,
            externalID: nil,
            duration: duration,
            policy: policy,
            vendor: vendor,
            region: region,
            endpoint: endpoint
        )
        return .refreshing(STSCredentialsProvider(role: role, proof: .tokenFile(tokenFile, providerARN: providerARN)))
    }

    /// The role request both factories send, its STS chosen from the vendor, the region, the endpoint and the
    /// process environment.
    private static func roleRequest(
        _ roleARN: String,
        sessionName: String?,
        externalID: String?,
        duration: Duration?,
        policy: String?,
        vendor: StorageVendor,
        region: String?,
        endpoint: String?
    ) -> RoleRequest {
        let environment = ProcessInfo.processInfo.environment
        return RoleRequest(
            service: vendor == .oss
                ? .alibabaCloud(region: region, endpoint: endpoint, environment: environment)
                : .aws(region: region, endpoint: endpoint, environment: environment),
            roleARN: roleARN,
            sessionName: sessionName,
            externalID: externalID,
            durationSeconds: duration.map { Int(clamping: $0.components.seconds) },
            policy: policy,
            origin: "the app"
        )
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

extension CredentialsProvider where Self == InstanceMetadataCredentialsProvider {
    /// The temporary credentials of the RAM role attached to this Alibaba Cloud ECS (or ECI) instance, from the
    /// instance metadata service at `http://100.100.100.200`.
    ///
    /// Each call asks the metadata service:
    ///
    /// 1. `PUT /latest/api/token` (header `X-aliyun-ecs-metadata-token-ttl-seconds`) for a session token, unless
    ///    the token mode is ``InstanceMetadataTokenMode/disabled``;
    /// 2. `GET /latest/meta-data/ram/security-credentials/` for the role's name, when none is configured;
    /// 3. `GET /latest/meta-data/ram/security-credentials/<role>` for the credentials,
    ///
    /// sending the token as `X-aliyun-ecs-metadata-token` on the `GET`s. The credentials expire (typically after
    /// six hours, and are rotated an hour or more before), so wrap the provider in
    /// `refreshing(_:)`, so the metadata service is asked once per
    /// credentials lifetime, not once per request:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.alibabaCloudECSRole())
    /// // or, with the role named and the hardened mode enforced:
    /// let pinned: some CredentialsProvider = .refreshing(
    ///     .alibabaCloudECSRole(roleName: "oss-writer", tokenMode: .required)
    /// )
    /// ```
    ///
    /// An unreachable metadata service, a role that is not attached (HTTP 404) or no role at all is
    /// `CredentialsError.Code.notFound`; a `Code` other than `Success` in the document is
    /// `CredentialsError.Code.refreshFailed`.
    ///
    /// - Parameters:
    ///   - roleName: The RAM role's name, or `nil` (the default) to discover the attached role.
    ///   - endpoint: The metadata service's base URL (default `http://100.100.100.200`).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the 1 s – 6 h
    ///     the service accepts).
    ///   - timeout: How long each metadata request may take (default 5 s).
    /// - Returns: A provider that fetches credentials on every call, described as
    ///   `alibabaCloudECSRole(role: NAME, endpoint: HOST, token: MODE)`.
    public static func alibabaCloudECSRole(
        roleName: String? = nil,
        endpoint: String = "http://100.100.100.200",
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5)
    ) -> InstanceMetadataCredentialsProvider {
        InstanceMetadataCredentialsProvider(
            service: .alibabaCloudECSRole,
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout
        )
    }

    /// The temporary credentials of the agency attached to this Huawei Cloud ECS instance (for OBS), from the
    /// OpenStack metadata service's security key at `http://169.254.169.254/openstack/latest/securitykey`.
    ///
    /// Each call asks the metadata service:
    ///
    /// 1. `PUT /meta-data/latest/api/token` (header `X-Metadata-Token-Ttl-Seconds`) for a session token, unless
    ///    the token mode is ``InstanceMetadataTokenMode/disabled`` (regions without the hardened metadata mode
    ///    answer the `PUT` with an error and the plain `GET` follows);
    /// 2. `GET /openstack/latest/securitykey`, sending the token as `X-Metadata-Token`, which answers
    ///    `{"credential": {"access": …, "secret": …, "securitytoken": …, "expires_at": …}}`.
    ///
    /// The credentials expire (typically after an hour, rotated ten minutes before), so wrap the provider in
    /// `refreshing(_:)`:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.huaweiCloudECS())
    /// ```
    ///
    /// An unreachable metadata service or HTTP 404 (no agency) is `CredentialsError.Code.notFound`.
    ///
    /// - Parameters:
    ///   - endpoint: The metadata service's base URL (default `http://169.254.169.254`).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the 1 min – 6 h
    ///     the service accepts).
    ///   - timeout: How long each metadata request may take (default 5 s).
    /// - Returns: A provider that fetches credentials on every call, described as
    ///   `huaweiCloudECS(endpoint: HOST, token: MODE)`.
    public static func huaweiCloudECS(
        endpoint: String = "http://169.254.169.254",
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5)
    ) -> InstanceMetadataCredentialsProvider {
        InstanceMetadataCredentialsProvider(
            service: .huaweiCloudECS,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout
        )
    }

    /// The temporary credentials of the IAM role attached to this AWS EC2 instance (the instance profile), from
    /// the instance metadata service (IMDSv2) at `http://169.254.169.254`, asked as botocore asks it.
    ///
    /// Each call asks the metadata service:
    ///
    /// 1. `PUT /latest/api/token` (header `X-aws-ec2-metadata-token-ttl-seconds`) for a session token, unless
    ///    the token mode is ``InstanceMetadataTokenMode/disabled``;
    /// 2. `GET /latest/meta-data/iam/security-credentials/` for the role's name, when none is configured;
    /// 3. `GET /latest/meta-data/iam/security-credentials/<role>` for the credentials, which answers
    ///    `{"Code": "Success", "AccessKeyId": …, "SecretAccessKey": …, "Token": …, "Expiration": …}`,
    ///
    /// sending the token as `X-aws-ec2-metadata-token` on the `GET`s. The credentials expire (typically after
    /// six hours, rotated well before), so wrap the provider in `refreshing(_:)`:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.awsEC2Role())
    /// // or, with IMDSv1 never used (as with AWS_EC2_METADATA_V1_DISABLED=true in botocore):
    /// let hardened: some CredentialsProvider = .refreshing(.awsEC2Role(tokenMode: .required))
    /// ```
    ///
    /// In ``InstanceMetadataTokenMode/preferred`` mode the provider falls back to plain (IMDSv1) requests
    /// when the token `PUT` is answered with an error or gets no answer in time, as botocore does (a `PUT`
    /// answer needs two network hops from a container, so it may never arrive where plain requests work),
    /// with one exception taken from botocore: HTTP 400 (a malformed token request) is
    /// `CredentialsError.Code.refreshFailed`, with no fallback. An endpoint that accepts the connection but
    /// never answers therefore costs at most twice `timeout` (the token `PUT`, then the first plain `GET`).
    ///
    /// An unreachable metadata service (not an EC2 instance: the connection attempt gives up after 1 s), a role
    /// that is not attached (HTTP 404) or no role at all is `CredentialsError.Code.notFound`, so a
    /// `chain(_:)` moves on; a `Code` other than `Success` in the document (e.g.
    /// `AssumeRoleUnauthorizedAccess`) is `CredentialsError.Code.refreshFailed`. Unlike botocore, credentials
    /// that have already expired are refused (`CredentialsError.Code.expired`) rather than served for a few more
    /// minutes.
    ///
    /// - Parameters:
    ///   - roleName: The IAM role's name, or `nil` (the default) to discover the attached role.
    ///   - endpoint: The metadata service's base URL (default `http://169.254.169.254`; `http://[fd00:ec2::254]`
    ///     on IPv6-only instances).
    ///   - tokenMode: Whether to use the IMDSv2 session token (default ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the 1 s – 6 h
    ///     the service accepts).
    ///   - timeout: How long each metadata request may take, response body included (default 5 s).
    /// - Returns: A provider that fetches credentials on every call, described as
    ///   `awsEC2Role(role: NAME, endpoint: HOST, token: MODE)`.
    public static func awsEC2Role(
        roleName: String? = nil,
        endpoint: String = "http://169.254.169.254",
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5)
    ) -> InstanceMetadataCredentialsProvider {
        InstanceMetadataCredentialsProvider(
            service: .awsEC2Role,
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout
        )
    }
}

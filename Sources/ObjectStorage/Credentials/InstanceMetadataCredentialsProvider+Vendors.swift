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
}

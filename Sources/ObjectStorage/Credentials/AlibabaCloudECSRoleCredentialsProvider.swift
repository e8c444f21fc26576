//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Temporary credentials of the RAM role attached to an Alibaba Cloud ECS (or ECI) instance, from the
/// instance metadata service at `http://100.100.100.200`.
///
/// Each call asks the metadata service:
///
/// 1. `PUT /latest/api/token` (header `X-aliyun-ecs-metadata-token-ttl-seconds`) for a session token, unless
///    the token mode is ``InstanceMetadataTokenMode/disabled`` (see ``InstanceMetadataTokenMode`` for the
///    fallback when no token is issued);
/// 2. `GET /latest/meta-data/ram/security-credentials/` for the role's name, when none is configured;
/// 3. `GET /latest/meta-data/ram/security-credentials/<role>` for the credentials,
///
/// sending the token as `X-aliyun-ecs-metadata-token` on the `GET`s. The credentials expire (typically after
/// six hours, and are rotated an hour or more before), so wrap the provider in
/// `refreshing(_:configuration:now:randomNumberGenerator:)`, which
/// fetches once, serves the cached credentials to every request, and fetches again shortly before they expire:
///
/// ```swift
/// let credentials: some CredentialsProvider = .refreshing(.alibabaCloudECSRole())
/// // or, with the role named and the hardened mode enforced:
/// let pinned: some CredentialsProvider = .refreshing(
///     .alibabaCloudECSRole(roleName: "oss-writer", tokenMode: .required)
/// )
/// ```
///
/// Errors are `CredentialsError` values naming the metadata host, the path and the HTTP
/// status; an unreachable metadata service, a role that is not attached (HTTP 404) or no role at all is
/// `CredentialsError.Code.notFound`, so a
/// `chain(_:)` moves on. Neither errors nor log lines ever contain
/// the metadata token, the secret, the security token or a response body.
public struct AlibabaCloudECSRoleCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The metadata service's address, `http://100.100.100.200`.
    package static let defaultEndpoint = InstanceMetadataService.alibabaCloudECSRole.defaultEndpoint

    private let provider: InstanceMetadataCredentialsProvider

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - roleName: The RAM role's name, or `nil` (the default) to discover the attached role.
    ///   - endpoint: The metadata service's base URL (default ``defaultEndpoint``; override it for tests).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the 1 s – 6 h
    ///     the service accepts; the token is used only for the requests of one fetch).
    ///   - timeout: How long each metadata request may take (default 5 s).
    ///   - transport: The transport to send through, or `nil` (the default) for a dedicated client with a
    ///     1 s connect timeout and no proxy.
    package init(
        roleName: String? = nil,
        endpoint: String = Self.defaultEndpoint,
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5),
        transport: (any HTTPTransport)? = nil
    ) {
        self.provider = InstanceMetadataCredentialsProvider(
            service: .alibabaCloudECSRole,
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout,
            transport: transport,
            now: { Date() }
        )
    }

    /// Fetches the role's current credentials from the metadata service.
    ///
    /// - Parameter logger: A logger for diagnostics (host, path, role name and status only).
    /// - Returns: Temporary credentials with a security token and an expiration.
    /// - Throws: `CredentialsError`: `CredentialsError.Code.notFound`
    ///   when the service is unreachable or no role is attached;
    ///   `CredentialsError.Code.refreshFailed`
    ///   for another status, a malformed document or a `Code` other than `Success`;
    ///   `CredentialsError.Code.incomplete` when a field is missing;
    ///   `CredentialsError.Code.expired` when the credentials have already expired.
    public func credentials(logger: Logger) async throws -> Credentials {
        try await self.provider.credentials(logger: logger)
    }

    /// `alibabaCloudECSRole(role: NAME, endpoint: HOST, token: MODE)`; the role reads `<discovered>` when not
    /// configured.
    public var description: String { self.provider.description }
}

extension CredentialsProvider where Self == AlibabaCloudECSRoleCredentialsProvider {
    /// The temporary credentials of the RAM role attached to this Alibaba Cloud ECS instance.
    ///
    /// Wrap it in `refreshing(_:configuration:now:randomNumberGenerator:)`
    /// so the metadata service is asked once per credentials lifetime, not once per request:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.alibabaCloudECSRole(roleName: "oss-writer"))
    /// ```
    ///
    /// - Parameters:
    ///   - roleName: The RAM role's name, or `nil` (the default) to discover the attached role.
    ///   - endpoint: The metadata service's base URL (default `http://100.100.100.200`).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes).
    ///   - timeout: How long each metadata request may take (default 5 s).
    /// - Returns: A provider that fetches credentials on every call.
    public static func alibabaCloudECSRole(
        roleName: String? = nil,
        endpoint: String = "http://100.100.100.200",
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5)
    ) -> AlibabaCloudECSRoleCredentialsProvider {
        AlibabaCloudECSRoleCredentialsProvider(
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout
        )
    }
}

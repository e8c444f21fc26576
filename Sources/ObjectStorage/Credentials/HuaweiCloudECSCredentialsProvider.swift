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

/// Temporary credentials of the agency attached to a Huawei Cloud ECS instance (for OBS), from the OpenStack
/// metadata service's security key at `http://169.254.169.254/openstack/latest/securitykey`.
///
/// Each call asks the metadata service:
///
/// 1. `PUT /meta-data/latest/api/token` (header `X-Metadata-Token-Ttl-Seconds`) for a session token, unless
///    the token mode is ``InstanceMetadataTokenMode/disabled`` (see ``InstanceMetadataTokenMode`` for the
///    fallback when no token is issued; regions without the hardened metadata mode answer the `PUT` with an
///    error and the plain `GET` follows);
/// 2. `GET /openstack/latest/securitykey`, sending the token as `X-Metadata-Token`, which answers
///    `{"credential": {"access": …, "secret": …, "securitytoken": …, "expires_at": …}}`.
///
/// The credentials expire (typically after an hour, rotated ten minutes before), so wrap the provider in
/// `refreshing(_:configuration:now:randomNumberGenerator:)`:
///
/// ```swift
/// let credentials: some CredentialsProvider = .refreshing(.huaweiCloudECS())
/// ```
///
/// Errors are `CredentialsError` values naming the metadata host, the path and the HTTP
/// status; an unreachable metadata service or HTTP 404 (no agency) is
/// `CredentialsError.Code.notFound`, so a `chain(_:)`
/// moves on. Neither errors nor log lines ever contain the metadata token, the secret, the security token or a
/// response body.
public struct HuaweiCloudECSCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The metadata service's address, `http://169.254.169.254`.
    package static let defaultEndpoint = InstanceMetadataService.huaweiCloudECS.defaultEndpoint

    private let provider: InstanceMetadataCredentialsProvider

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - endpoint: The metadata service's base URL (default ``defaultEndpoint``; override it for tests).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the 1 min – 6 h
    ///     the service accepts).
    ///   - timeout: How long each metadata request may take (default 5 s).
    ///   - transport: The transport to send through, or `nil` (the default) for a dedicated client with a
    ///     1 s connect timeout and no proxy.
    package init(
        endpoint: String = Self.defaultEndpoint,
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5),
        transport: (any HTTPTransport)? = nil
    ) {
        self.provider = InstanceMetadataCredentialsProvider(
            service: .huaweiCloudECS,
            roleName: nil,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout,
            transport: transport,
            now: { Date() }
        )
    }

    /// Fetches the agency's current credentials from the metadata service.
    ///
    /// - Parameter logger: A logger for diagnostics (host, path and status only).
    /// - Returns: Temporary credentials with a security token and an expiration.
    /// - Throws: `CredentialsError`: `CredentialsError.Code.notFound`
    ///   when the service is unreachable or answers 404; `CredentialsError.Code.refreshFailed`
    ///   for another status or a malformed document; `CredentialsError.Code.incomplete`
    ///   when a field is missing; `CredentialsError.Code.expired` when the credentials
    ///   have already expired.
    public func credentials(logger: Logger) async throws -> Credentials {
        try await self.provider.credentials(logger: logger)
    }

    /// `huaweiCloudECS(endpoint: HOST, token: MODE)`.
    public var description: String { self.provider.description }
}

extension CredentialsProvider where Self == HuaweiCloudECSCredentialsProvider {
    /// The temporary credentials of the agency attached to this Huawei Cloud ECS instance (for OBS).
    ///
    /// Wrap it in `refreshing(_:configuration:now:randomNumberGenerator:)`
    /// so the metadata service is asked once per credentials lifetime, not once per request:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.huaweiCloudECS())
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: The metadata service's base URL (default `http://169.254.169.254`).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes).
    ///   - timeout: How long each metadata request may take (default 5 s).
    /// - Returns: A provider that fetches credentials on every call.
    public static func huaweiCloudECS(
        endpoint: String = "http://169.254.169.254",
        tokenMode: InstanceMetadataTokenMode = .preferred,
        tokenTTL: Duration = .seconds(300),
        timeout: Duration = .seconds(5)
    ) -> HuaweiCloudECSCredentialsProvider {
        HuaweiCloudECSCredentialsProvider(
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout
        )
    }
}

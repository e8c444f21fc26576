//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOCore
import NIOHTTP1
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
    package static let defaultEndpoint = "http://169.254.169.254"

    static let securityKeyPath = "/openstack/latest/securitykey"
    static let tokenProtocol = InstanceMetadataClient.TokenProtocol(
        path: "/meta-data/latest/api/token",
        ttlHeader: "X-Metadata-Token-Ttl-Seconds",
        tokenHeader: "X-Metadata-Token",
        ttlRange: 60...21_600
    )

    /// Whether the session token is asked for, and whether it is required.
    package let tokenMode: InstanceMetadataTokenMode
    /// The lifetime requested for the session token (clamped to the 1 min – 6 h the service accepts).
    package let tokenTTL: Duration
    private let client: InstanceMetadataClient
    private let now: @Sendable () -> Date

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - endpoint: The metadata service's base URL (default ``defaultEndpoint``; override it for tests).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes).
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
        self.init(
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout,
            transport: transport,
            now: { Date() }
        )
    }

    init(
        endpoint: String,
        tokenMode: InstanceMetadataTokenMode,
        tokenTTL: Duration,
        timeout: Duration,
        transport: (any HTTPTransport)?,
        now: @escaping @Sendable () -> Date
    ) {
        self.tokenMode = tokenMode
        self.tokenTTL = tokenTTL
        self.client = InstanceMetadataClient(
            endpoint: endpoint,
            source: "Huawei Cloud ECS security key",
            transport: transport,
            timeout: timeout
        )
        self.now = now
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
        var logger = logger
        logger[metadataKey: "metadata.host"] = "\(self.client.host)"
        logger.debug("fetching credentials from the instance metadata service", metadata: ["provider": "\(self)"])

        let outcome = try await self.client.sessionToken(
            Self.tokenProtocol,
            mode: self.tokenMode,
            ttl: self.tokenTTL,
            logger: logger
        )
        var headers = HTTPHeaders()
        if case .token(let token) = outcome {
            headers.add(name: Self.tokenProtocol.tokenHeader, value: token)
        }

        let path = Self.securityKeyPath
        let step = "fetching the security key"
        let response: InstanceMetadataClient.Response
        do {
            response = try await self.client.send(.GET, path, headers: headers, logger: logger)
        } catch {
            throw self.client.error(for: error, step: step, path: path)
        }
        guard response.status == .ok else {
            throw self.client.error(forStatus: response.status, step: step, path: path)
        }
        let credentials = try self.parse(response.body, step: step)
        logger.debug(
            "fetched credentials from the instance metadata service",
            metadata: [
                "accessKeyID": "\(credentials.accessKeyID)",
                "expiration": "\(credentials.expiration.map { "\($0)" } ?? "-")",
            ]
        )
        return credentials
    }

    private struct Document: Decodable {
        struct Credential: Decodable {
            var access: String?
            var secret: String?
            var securitytoken: String?
            var expiresAt: String?

            enum CodingKeys: String, CodingKey {
                case access
                case secret
                case securitytoken
                case expiresAt = "expires_at"
            }
        }

        var credential: Credential?
    }

    private func parse(_ body: ByteBuffer, step: String) throws -> Credentials {
        let source = self.client.source
        let credential: Document.Credential
        do {
            let document = try JSONDecoder().decode(Document.self, from: Data(body.readableBytesView))
            guard let found = document.credential else {
                throw CredentialsError.incomplete("\(source): \(step): the response has no credential object")
            }
            credential = found
        } catch let error as CredentialsError {
            throw error
        } catch {
            throw CredentialsError.refreshFailed("\(source): \(step): the response is not a security key document")
        }
        let missing = [
            credential.access == nil ? "access" : nil,
            credential.secret == nil ? "secret" : nil,
            credential.securitytoken == nil ? "securitytoken" : nil,
            credential.expiresAt == nil ? "expires_at" : nil,
        ].compactMap { $0 }
        guard missing.isEmpty, let accessKeyID = credential.access, let secret = credential.secret,
            let token = credential.securitytoken, let expirationText = credential.expiresAt
        else {
            throw CredentialsError.incomplete(
                "\(source): \(step): the credential lacks \(missing.joined(separator: ", "))"
            )
        }
        guard let expiration = InstanceMetadataTimestamp.parse(expirationText) else {
            throw CredentialsError.refreshFailed("\(source): \(step): expires_at is not an RFC 3339 timestamp")
        }
        let now = self.now()
        guard expiration > now else {
            throw CredentialsError.expired("\(source): \(step): the credentials expired at \(expiration) (now \(now))")
        }
        if accessKeyID.isEmpty || secret.isEmpty {
            throw CredentialsError.incomplete("\(source): \(step): the access key id or the secret is empty")
        }
        return Credentials(
            accessKeyID: accessKeyID,
            secretAccessKey: secret,
            securityToken: token,
            expiration: expiration
        )
    }

    /// `huaweiCloudECS(endpoint: HOST, token: MODE)`.
    public var description: String {
        "huaweiCloudECS(endpoint: \(self.client.host), token: \(self.tokenMode))"
    }
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

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
    package static let defaultEndpoint = "http://100.100.100.200"

    static let credentialsPath = "/latest/meta-data/ram/security-credentials/"
    static let tokenProtocol = InstanceMetadataClient.TokenProtocol(
        path: "/latest/api/token",
        ttlHeader: "X-aliyun-ecs-metadata-token-ttl-seconds",
        tokenHeader: "X-aliyun-ecs-metadata-token",
        ttlRange: 1...21_600
    )

    /// The role's name, or `nil` to ask the metadata service for the attached role.
    package let roleName: String?
    /// Whether the session token is asked for, and whether it is required.
    package let tokenMode: InstanceMetadataTokenMode
    /// The lifetime requested for the session token (clamped to the 1 s – 6 h the service accepts).
    package let tokenTTL: Duration
    private let client: InstanceMetadataClient
    private let now: @Sendable () -> Date

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - roleName: The RAM role's name, or `nil` (the default) to discover the attached role.
    ///   - endpoint: The metadata service's base URL (default ``defaultEndpoint``; override it for tests).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes; the token is used only
    ///     for the requests of one fetch).
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
        self.init(
            roleName: roleName,
            endpoint: endpoint,
            tokenMode: tokenMode,
            tokenTTL: tokenTTL,
            timeout: timeout,
            transport: transport,
            now: { Date() }
        )
    }

    init(
        roleName: String?,
        endpoint: String,
        tokenMode: InstanceMetadataTokenMode,
        tokenTTL: Duration,
        timeout: Duration,
        transport: (any HTTPTransport)?,
        now: @escaping @Sendable () -> Date
    ) {
        self.roleName = roleName.flatMap { $0.isEmpty ? nil : $0 }
        self.tokenMode = tokenMode
        self.tokenTTL = tokenTTL
        self.client = InstanceMetadataClient(
            endpoint: endpoint,
            source: "Alibaba Cloud ECS RAM role",
            transport: transport,
            timeout: timeout
        )
        self.now = now
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

        let roleName: String
        if let configured = self.roleName {
            roleName = configured
        } else {
            roleName = try await self.discoverRoleName(headers: headers, logger: logger)
        }

        let path = Self.credentialsPath + PercentEncoding.encode(roleName, style: .component)
        let step = "fetching the credentials of role \(roleName)"
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
                "role": "\(roleName)",
                "accessKeyID": "\(credentials.accessKeyID)",
                "expiration": "\(credentials.expiration.map { "\($0)" } ?? "-")",
            ]
        )
        return credentials
    }

    private func discoverRoleName(headers: HTTPHeaders, logger: Logger) async throws -> String {
        let path = Self.credentialsPath
        let step = "discovering the instance's RAM role"
        let response: InstanceMetadataClient.Response
        do {
            response = try await self.client.send(.GET, path, headers: headers, logger: logger)
        } catch {
            throw self.client.error(for: error, step: step, path: path)
        }
        guard response.status == .ok else {
            throw self.client.error(forStatus: response.status, step: step, path: path)
        }
        let names = response.text.split(whereSeparator: \.isNewline)
            .map { InstanceMetadataClient.trimmed(String($0)) }
            .filter { !$0.isEmpty }
        guard let name = names.first else {
            throw CredentialsError.notFound(
                "\(self.client.source): no RAM role is attached to this instance (\(self.client.host)\(path) is empty)"
            )
        }
        if names.count > 1 {
            logger.debug("several RAM roles are listed; using the first", metadata: ["role": "\(name)"])
        }
        return name
    }

    private struct Document: Decodable {
        var code: String?
        var accessKeyID: String?
        var accessKeySecret: String?
        var securityToken: String?
        var expiration: String?

        enum CodingKeys: String, CodingKey {
            case code = "Code"
            case accessKeyID = "AccessKeyId"
            case accessKeySecret = "AccessKeySecret"
            case securityToken = "SecurityToken"
            case expiration = "Expiration"
        }
    }

    private func parse(_ body: ByteBuffer, step: String) throws -> Credentials {
        let source = self.client.source
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(body.readableBytesView))
        } catch {
            throw CredentialsError.refreshFailed("\(source): \(step): the response is not a credentials document")
        }
        if let code = document.code, code != "Success" {
            throw CredentialsError.refreshFailed(
                "\(source): \(step): the metadata service answered Code \(Self.printable(code)) instead of Success"
            )
        }
        let missing = [
            document.accessKeyID == nil ? "AccessKeyId" : nil,
            document.accessKeySecret == nil ? "AccessKeySecret" : nil,
            document.securityToken == nil ? "SecurityToken" : nil,
            document.expiration == nil ? "Expiration" : nil,
        ].compactMap { $0 }
        guard missing.isEmpty, let accessKeyID = document.accessKeyID, let secret = document.accessKeySecret,
            let token = document.securityToken, let expirationText = document.expiration
        else {
            throw CredentialsError.incomplete(
                "\(source): \(step): the response lacks \(missing.joined(separator: ", "))"
            )
        }
        guard let expiration = InstanceMetadataTimestamp.parse(expirationText) else {
            throw CredentialsError.refreshFailed("\(source): \(step): the Expiration is not an RFC 3339 timestamp")
        }
        let now = self.now()
        guard expiration > now else {
            throw CredentialsError.expired("\(source): \(step): the credentials expired at \(expiration) (now \(now))")
        }
        let credentials = Credentials(
            accessKeyID: accessKeyID,
            secretAccessKey: secret,
            securityToken: token,
            expiration: expiration
        )
        if credentials.accessKeyID.isEmpty || credentials.secretAccessKey.isEmpty {
            throw CredentialsError.incomplete("\(source): \(step): the access key id or the secret is empty")
        }
        return credentials
    }

    /// A short, safe rendering of a server-supplied code: identifier characters only, at most 64 of them.
    static func printable(_ text: String) -> String {
        let allowed = text.unicodeScalars.prefix(64).allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._-".unicodeScalars.contains($0))
        }
        return allowed && !text.isEmpty && text.unicodeScalars.count <= 64 ? text : "<unprintable>"
    }

    /// `alibabaCloudECSRole(role: NAME, endpoint: HOST, token: MODE)`; the role reads `<discovered>` when not
    /// configured.
    public var description: String {
        "alibabaCloudECSRole(role: \(self.roleName ?? "<discovered>"), endpoint: \(self.client.host), "
            + "token: \(self.tokenMode))"
    }
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

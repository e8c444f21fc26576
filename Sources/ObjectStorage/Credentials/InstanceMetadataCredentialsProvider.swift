//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
public import ObjectStorageSigning
package import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Temporary credentials from a cloud instance's metadata service: the role of an EC2 instance
/// (`.awsEC2Role(roleName:endpoint:tokenMode:tokenTTL:timeout:)`, IMDSv2), the RAM role of an Alibaba Cloud ECS
/// instance (`.alibabaCloudECSRole(roleName:endpoint:tokenMode:tokenTTL:timeout:)`) or the agency of a Huawei Cloud
/// ECS instance (`.huaweiCloudECS(endpoint:tokenMode:tokenTTL:timeout:)`).
///
/// Each call asks the metadata service:
///
/// 1. for a session token (`PUT`), unless the token mode is ``InstanceMetadataTokenMode/disabled`` (see
///    ``InstanceMetadataTokenMode`` for the fallback when no token is issued);
/// 2. for the role's name, when the service keeps credentials per role and none is configured;
/// 3. for the credentials,
///
/// sending the token on the `GET`s. The credentials expire within hours, so wrap the provider in
/// `refreshing(_:)`, which fetches once, serves the cached credentials to
/// every request, and fetches again shortly before they expire:
///
/// ```swift
/// let credentials: some CredentialsProvider = .refreshing(.alibabaCloudECSRole())
/// ```
///
/// Errors are `CredentialsError` values naming the metadata host, the path and the HTTP status; an unreachable
/// metadata service, HTTP 404 or no role at all is `CredentialsError.Code.notFound`, so a `chain(_:)` moves on.
/// Neither errors nor log lines ever contain the metadata token, the secret, the security token or a response body.
public struct InstanceMetadataCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    let service: InstanceMetadataService
    /// The role's name, or `nil` to ask the metadata service for the attached role (services with roles only).
    let roleName: String?
    /// Whether the session token is asked for, and whether it is required.
    let tokenMode: InstanceMetadataTokenMode
    /// The lifetime requested for the session token (clamped to the range the service accepts).
    let tokenTTL: Duration
    private let client: InstanceMetadataClient

    /// The token mode when none is given: the session token is asked for, and the provider falls back without one.
    package static let defaultTokenMode = InstanceMetadataTokenMode.preferred
    /// The session token's lifetime when none is given.
    package static let defaultTokenTTL = Duration.seconds(300)

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - service: The cloud's metadata service.
    ///   - roleName: The role's name, or `nil` (the default) to discover the attached role (services with roles
    ///     only; ignored by the others).
    ///   - endpoint: The metadata service's base URL (default: the service's own address; override it for tests).
    ///   - tokenMode: Whether to use the hardened mode's session token (default
    ///     ``InstanceMetadataTokenMode/preferred``).
    ///   - tokenTTL: The lifetime requested for the session token (default 5 minutes, clamped to the range the
    ///     service accepts; the token is used only for the requests of one fetch).
    ///   - timeout: How long each metadata request may take (default 5 s).
    ///   - transport: The transport to send through, or `nil` (the default) for a dedicated client with a
    ///     1 s connect timeout and no proxy.
    package init(
        service: InstanceMetadataService,
        roleName: String? = nil,
        endpoint: String? = nil,
        tokenMode: InstanceMetadataTokenMode = defaultTokenMode,
        tokenTTL: Duration = defaultTokenTTL,
        timeout: Duration = .seconds(5),
        transport: (any HTTPTransport)? = nil
    ) {
        self.service = service
        self.roleName = CredentialsText.nonEmpty(roleName)
        self.tokenMode = tokenMode
        self.tokenTTL = tokenTTL
        self.client = InstanceMetadataClient(
            endpoint: endpoint ?? service.defaultEndpoint,
            source: service.source,
            transport: transport,
            timeout: timeout
        )
    }

    /// Fetches the current credentials from the metadata service.
    ///
    /// - Parameter logger: A logger for diagnostics (host, path, role name and status only).
    /// - Returns: Temporary credentials with a security token and an expiration.
    /// - Throws: `CredentialsError`: `CredentialsError.Code.notFound` when the service is unreachable, answers
    ///   404 or has no role attached; `CredentialsError.Code.refreshFailed` for another status or a malformed
    ///   document; `CredentialsError.Code.incomplete` when a field is missing;
    ///   `CredentialsError.Code.expired` when the credentials have already expired.
    public func credentials(logger: Logger) async throws -> Credentials {
        var logger = logger
        logger[metadataKey: "metadata.host"] = "\(self.client.host)"
        logger.debug("fetching credentials from the instance metadata service", metadata: ["provider": "\(self)"])

        let outcome = try await self.client.sessionToken(
            self.service.tokenProtocol,
            mode: self.tokenMode,
            ttl: self.tokenTTL,
            logger: logger
        )
        var headers = HTTPHeaders()
        if case .token(let token) = outcome {
            headers.add(name: self.service.tokenProtocol.tokenHeader, value: token)
        }

        var metadata: Logger.Metadata = [:]
        let path: String
        let step: String
        switch self.service.location {
        case .fixed(let fixedPath, let fixedStep):
            (path, step) = (fixedPath, fixedStep)
        case .role(let directory, let kind):
            let roleName: String
            if let configured = self.roleName {
                roleName = configured
            } else {
                roleName = try await self.discoverRole(in: directory, kind: kind, headers: headers, logger: logger)
            }
            path = directory + PercentEncoding.encode(roleName, style: .component)
            step = "fetching the credentials of role \(roleName)"
            metadata["role"] = "\(roleName)"
        }
        let response = try await self.get(path, step: step, headers: headers, logger: logger)
        let credentials = try InstanceMetadataDocument.credentials(
            from: response.body,
            format: self.service.document,
            context: "\(self.client.source): \(step)",
            now: Date()
        )
        metadata["accessKeyID"] = "\(credentials.accessKeyID)"
        metadata["expiration"] = "\(credentials.expiration.map { "\($0)" } ?? "-")"
        logger.debug("fetched credentials from the instance metadata service", metadata: metadata)
        return credentials
    }

    /// The first role `directory` lists.
    private func discoverRole(
        in directory: String,
        kind: String,
        headers: HTTPHeaders,
        logger: Logger
    ) async throws -> String {
        let step = "discovering the instance's \(kind)"
        let response = try await self.get(directory, step: step, headers: headers, logger: logger)
        let names = response.text.split(whereSeparator: \.isNewline)
            .map { InstanceMetadataClient.trimmed(String($0)) }
            .filter { !$0.isEmpty }
        guard let name = names.first else {
            throw CredentialsError.notFound(
                "\(self.client.source): no \(kind) is attached to this instance (\(self.client.host)\(directory) is empty)"
            )
        }
        if names.count > 1 {
            logger.debug("several \(kind)s are listed; using the first", metadata: ["role": "\(name)"])
        }
        return name
    }

    /// `GET path`, answered 200.
    private func get(
        _ path: String,
        step: String,
        headers: HTTPHeaders,
        logger: Logger
    ) async throws(CredentialsError) -> InstanceMetadataClient.Response {
        let response: InstanceMetadataClient.Response
        do {
            response = try await self.client.send(.GET, path, headers: headers, logger: logger)
        } catch {
            throw self.client.error(for: error, step: step, path: path)
        }
        guard response.status == .ok else {
            throw self.client.error(forStatus: response.status, step: step, path: path)
        }
        return response
    }

    /// `NAME(role: ROLE, endpoint: HOST, token: MODE)`, the role only for services with roles (`<discovered>`
    /// when not configured).
    public var description: String {
        var role = ""
        if case .role = self.service.location { role = "role: \(self.roleName ?? "<discovered>"), " }
        return "\(self.service.name)(\(role)endpoint: \(self.client.host), token: \(self.tokenMode.name))"
    }
}

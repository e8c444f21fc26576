//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
import NIOCore
import NIOHTTP1
package import ObjectStorageSigning
package import ObjectStorageTransport

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Temporary credentials for a role, from a security token service: AWS STS or Alibaba Cloud STS.
///
/// - **Assumed role** (`AssumeRole`): signed with the credentials of a source provider (SigV4 for AWS,
///   Alibaba's RPC signature), with the session name, duration, external id and policy the role request gives.
/// - **Web identity** (AWS `AssumeRoleWithWebIdentity`, Alibaba `AssumeRoleWithOIDC`): unsigned; the OIDC token
///   is read from its file at every call, because Kubernetes rotates it (EKS IRSA, ACK RRSA).
///
/// Each call asks STS once, so put the provider behind `refreshing(_:)`, which the factories do:
/// `.assumeRole(_:using:sessionName:externalID:duration:policy:vendor:region:endpoint:)` and
/// `.webIdentity(roleARN:tokenFile:providerARN:sessionName:duration:policy:vendor:region:endpoint:)`.
///
/// Errors are `CredentialsError` values naming the role, the endpoint's host and what STS answered (its error code
/// and message, or the HTTP status); they never contain the token, a secret or a signature. An STS that cannot be
/// reached fails within the connect timeout (5 s) and an STS that does not answer within the request timeout
/// (10 s).
package struct STSCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// How the request proves who asks.
    package enum Proof: Sendable {
        /// `AssumeRole`, signed with the source's credentials.
        case credentials(any CredentialsProvider)
        /// A web identity (OIDC) token read from a file.
        case tokenFile(String, providerARN: String?)
    }

    /// The transport used when the app supplies none: a 5 s connect timeout, never a redirect.
    static let defaultTransport = AsyncHTTPClientTransport(
        configuration: HTTPConfiguration(
            connectTimeout: .seconds(5),
            readIdleTimeout: .seconds(10),
            maximumConnectionsPerHost: 2
        )
    )

    /// The largest token file read.
    static let maximumTokenSize = 64 * 1024

    /// The role and its settings.
    package let role: RoleRequest
    /// How the request proves who asks.
    package let proof: Proof
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let now: @Sendable () -> Date

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - role: The role, its settings and the STS to ask.
    ///   - proof: The source credentials (AssumeRole) or the token file (web identity).
    ///   - timeout: How long one STS request may take.
    ///   - transport: The transport, or `nil` for a dedicated one.
    ///   - now: The clock (inject one in tests).
    package init(
        role: RoleRequest,
        proof: Proof,
        timeout: Duration = .seconds(10),
        transport: (any HTTPTransport)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.role = role
        self.proof = proof
        self.timeout = timeout
        self.transport = transport ?? Self.defaultTransport
        self.now = now
    }

    /// Asks STS for the role's credentials.
    ///
    /// - Parameter logger: A logger for diagnostics (role, host, status; never a secret or the token).
    /// - Returns: Temporary credentials with a security token and an expiration.
    /// - Throws: `CredentialsError`: the source provider's error; `unreadableFile` / `incomplete` for a token file
    ///   that cannot be read or is empty; `refreshFailed` when STS cannot be reached or refuses (its code and
    ///   message quoted); `incomplete` / `expired` for an answer without usable credentials.
    package func credentials(logger: Logger) async throws -> Credentials {
        try await self.grant(logger: logger).credentials
    }

    /// Asks STS, returning the assumed role's ARN with the credentials (for `objstore whoami`).
    package func grant(logger: Logger) async throws -> STSResponse.Grant {
        let date = self.now()
        let sessionName = self.role.sessionName ?? "objstore-\(Int64(date.timeIntervalSince1970))"
        let request: STSRequest
        do {
            switch self.proof {
            case .credentials(let source):
                let credentials = try await source.credentials(logger: logger)
                request = try STSRequest.assumeRole(
                    self.role,
                    sessionName: sessionName,
                    credentials: credentials,
                    at: date,
                    nonce: UUID().uuidString.lowercased()
                )
            case .tokenFile(let path, let providerARN):
                request = try STSRequest.webIdentity(
                    self.role,
                    sessionName: sessionName,
                    token: try Self.readToken(path, origin: self.role.origin),
                    providerARN: providerARN,
                    at: date
                )
            }
        } catch let error as SigningError {
            throw CredentialsError.incomplete("\(self.context): \(error.message)")
        }
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        let body: TransportRequest.Body? = request.body.isEmpty ? nil : .bytes(ByteBuffer(bytes: request.body))
        let answer: (status: HTTPResponseStatus, body: ByteBuffer)
        do {
            let response = try await self.transport.execute(
                TransportRequest(
                    method: HTTPMethod(rawValue: request.method),
                    url: request.url,
                    headers: headers,
                    body: body
                ),
                timeout: self.timeout,
                logger: logger
            )
            answer = (response.status, try await response.body.collect(upTo: STSResponse.maximumBodySize))
        } catch let error as TransportError {
            throw CredentialsError.refreshFailed("\(self.context): the request to \(self.host) failed (\(error.code))")
        }
        let bytes = Array(answer.body.readableBytesView)
        guard answer.status == .ok else {
            let summary = STSResponse.errorSummary(from: bytes, vendor: self.role.service.vendor)
            logger.debug(
                "STS refused",
                metadata: ["role": "\(self.role.roleARN)", "status": "\(answer.status.code)"]
            )
            throw CredentialsError.refreshFailed(
                "\(self.context): \(self.host) answered HTTP \(answer.status.code)"
                    + (summary.map { " \($0)" } ?? "")
            )
        }
        let grant = try STSResponse.grant(
            from: bytes,
            vendor: self.role.service.vendor,
            context: self.context,
            now: self.now()
        )
        logger.debug(
            "STS granted credentials",
            metadata: [
                "role": "\(self.role.roleARN)", "accessKeyID": "\(grant.credentials.accessKeyID)",
                "expiration": "\(grant.credentials.expiration.map { "\($0)" } ?? "-")",
            ]
        )
        return grant
    }

    /// The token, read whole and sent as it is, as the vendors' SDKs send it.
    private static func readToken(_ path: String, origin: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CredentialsError.unreadableFile(
                path: path,
                reason: "(the web identity token of \(origin)) could not be read"
            )
        }
        guard data.count <= Self.maximumTokenSize else {
            throw CredentialsError.unreadableFile(path: path, reason: "is larger than \(Self.maximumTokenSize) bytes")
        }
        let token = String(decoding: data, as: UTF8.self)
        guard token.contains(where: { !$0.isWhitespace }) else {
            throw CredentialsError.incomplete("the web identity token file \(path) is empty")
        }
        return token
    }

    private var action: String {
        switch (self.proof, self.role.service.vendor) {
        case (.credentials, _): "AssumeRole"
        case (.tokenFile, .oss): "AssumeRoleWithOIDC"
        case (.tokenFile, _): "AssumeRoleWithWebIdentity"
        }
    }

    private var host: String {
        URLAuthority.host(of: self.role.service.endpoint)
    }

    /// `STS AssumeRole of ROLE (from ORIGIN)`, the prefix of every message.
    private var context: String {
        "STS \(self.action) of \(self.role.roleARN) (\(self.role.origin))"
    }

    /// `assumeRole(ROLE, endpoint: HOST)` or `webIdentity(ROLE, endpoint: HOST)`.
    package var description: String {
        let kind = if case .credentials = self.proof { "assumeRole" } else { "webIdentity" }
        return "\(kind)(\(self.role.roleARN), endpoint: \(self.host))"
    }
}

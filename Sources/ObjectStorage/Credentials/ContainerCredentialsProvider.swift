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
package import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Temporary credentials from a credentials endpoint that the platform names in environment variables: the
/// container credentials of AWS ECS tasks and EKS Pod Identity (`.awsContainer(environment:timeout:)`), or
/// Alibaba Cloud's credentials URI (`.alibabaCloudCredentialsURI(environment:timeout:)`).
///
/// The variables are read at each call, and the endpoint is asked once per call (one `GET`, with no retry), so
/// wrap the provider in `refreshing(_:)`:
///
/// ```swift
/// let credentials: some CredentialsProvider = .refreshing(.awsContainer())
/// ```
///
/// When the variables are not set the provider throws `CredentialsError.Code.notFound`, so a `chain(_:)` moves
/// on. Once they are set, the platform has said where the credentials are: any failure (an unreachable
/// endpoint, an HTTP error, a malformed document) is `CredentialsError.Code.refreshFailed` (or `incomplete`,
/// `unsupported`, `expired`), never `notFound`. Neither errors, log lines nor ``description`` ever contain the
/// authorization token, the secret, the security token, a response body or the endpoint's path and query: only
/// its host.
public struct ContainerCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The vendor protocols a container credentials endpoint speaks.
    package enum Source: Sendable {
        /// AWS ECS / EKS Pod Identity container credentials (botocore's `ContainerProvider`).
        case awsContainer
        /// Alibaba Cloud's `ALIBABA_CLOUD_CREDENTIALS_URI` (alibabacloud_credentials' `URLCredentialsProvider`).
        case alibabaCloudCredentialsURI
    }

    let source: Source
    /// The variables to read instead of the process environment (tests), or `nil`.
    let environment: [String: String]?
    /// How long the request may take, response body included.
    let timeout: Duration
    let transport: (any HTTPTransport)?
    /// Where `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` is appended: `http://169.254.170.2` but in tests.
    let awsContainerBase: String

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - source: The vendor protocol.
    ///   - environment: The variables to read instead of the process environment, or `nil` (the default) for the
    ///     process environment, read at each call.
    ///   - timeout: How long the request may take, response body included (default: 2 s for AWS, as botocore;
    ///     5 s for Alibaba Cloud).
    ///   - transport: The transport to send through, or `nil` (the default) for a dedicated client with a 1 s
    ///     connect timeout and no proxy.
    ///   - awsContainerBase: Where a relative URI is appended (default `http://169.254.170.2`; tests only).
    package init(
        _ source: Source,
        environment: [String: String]? = nil,
        timeout: Duration? = nil,
        transport: (any HTTPTransport)? = nil,
        awsContainerBase: String = "http://169.254.170.2"
    ) {
        self.source = source
        self.environment = environment
        self.timeout = timeout ?? source.defaultTimeout
        self.transport = transport
        self.awsContainerBase = awsContainerBase
    }

    /// Fetches the current credentials from the endpoint the environment names.
    ///
    /// - Parameter logger: A logger for diagnostics (host and status only).
    /// - Returns: Temporary credentials with a security token and an expiration.
    /// - Throws: `CredentialsError`: `CredentialsError.Code.notFound` when the variables are not set;
    ///   `CredentialsError.Code.unsupported` for an endpoint that is not an `http` or `https` URL, or a plain-`http`
    ///   AWS endpoint on a host other than those allowed, or an authorization token with a line break;
    ///   `CredentialsError.Code.unreadableFile` when the authorization token file cannot be read;
    ///   `CredentialsError.Code.refreshFailed` when the endpoint cannot be reached, does not answer within the
    ///   timeout, answers another status than 200 or a malformed document; `CredentialsError.Code.incomplete` when a
    ///   field is missing; `CredentialsError.Code.expired` when the credentials have already expired.
    public func credentials(logger: Logger) async throws -> Credentials {
        let variables = self.environment ?? ProcessInfo.processInfo.environment
        let endpoint = try self.endpoint(in: variables).get()
        var headers = HTTPHeaders()
        if self.source == .awsContainer {
            headers.add(name: "Accept", value: "application/json")
            if let authorization = try await Self.awsAuthorization(in: variables) {
                headers.add(name: "Authorization", value: authorization)
            }
        }

        var logger = logger
        logger[metadataKey: "metadata.host"] = "\(endpoint.host)"
        logger.debug("fetching credentials from the container credentials endpoint", metadata: ["provider": "\(self)"])
        let client = InstanceMetadataClient(
            endpoint: endpoint.origin,
            source: self.source.name,
            transport: self.transport,
            timeout: self.timeout
        )
        let step = "fetching the credentials"
        let response: InstanceMetadataClient.Response
        do {
            response = try await client.send(.GET, endpoint.target, headers: headers, logger: logger)
        } catch {
            if InstanceMetadataClient.isUnreachable(error), case .transport(let transportError) = error {
                throw CredentialsError.refreshFailed(
                    "\(self.source.name): the credentials endpoint \(endpoint.host) named by \(endpoint.variable) "
                        + "is unreachable (\(transportError.code))"
                )
            }
            throw client.error(for: error, step: step, path: endpoint.path)
        }
        guard response.status == .ok else {
            throw CredentialsError.refreshFailed(
                "\(self.source.name): \(step): \(endpoint.host)\(endpoint.path) answered HTTP \(response.status.code)"
            )
        }
        let credentials = try InstanceMetadataDocument.credentials(
            from: response.body,
            format: self.source.document,
            context: "\(self.source.name): \(step)",
            now: Date()
        )
        logger.debug(
            "fetched credentials from the container credentials endpoint",
            metadata: [
                "accessKeyID": "\(credentials.accessKeyID)",
                "expiration": "\(credentials.expiration.map { "\($0)" } ?? "-")",
            ]
        )
        return credentials
    }

    /// `awsContainer(endpoint: HOST)` or `alibabaCloudCredentialsURI(endpoint: HOST)`, from the environment as it
    /// is now; `(not configured)` when the variables are not set, `(unsupported endpoint)` when they do not name
    /// an `http` or `https` URL.
    public var description: String {
        let variables = self.environment ?? ProcessInfo.processInfo.environment
        switch self.endpoint(in: variables) {
        case .success(let endpoint):
            return "\(self.source.label)(endpoint: \(endpoint.host))"
        case .failure(let error) where error.code == .notFound:
            return "\(self.source.label)(not configured)"
        case .failure:
            return "\(self.source.label)(unsupported endpoint)"
        }
    }
}

extension ContainerCredentialsProvider {
    /// The AWS variables.
    enum AWSVariable {
        static let relativeURI = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"
        static let fullURI = "AWS_CONTAINER_CREDENTIALS_FULL_URI"
        static let tokenFile = "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"
        static let token = "AWS_CONTAINER_AUTHORIZATION_TOKEN"
    }

    /// Alibaba Cloud's variable.
    static let alibabaCloudCredentialsURIVariable = "ALIBABA_CLOUD_CREDENTIALS_URI"

    /// The hosts, besides loopback addresses, that a plain-`http` `AWS_CONTAINER_CREDENTIALS_FULL_URI` may name
    /// (botocore's `ContainerMetadataFetcher._ALLOWED_HOSTS`).
    static let awsAllowedHTTPHosts: Set<String> = ["169.254.170.2", "169.254.170.23", "fd00:ec2::23", "localhost"]

    /// The largest authorization token file read.
    static let maximumTokenFileSize = 16 * 1024

    /// The endpoint the variables name.
    ///
    /// - Returns: The endpoint, or the `CredentialsError` explaining why there is none.
    func endpoint(in variables: [String: String]) -> Result<CredentialsEndpoint, CredentialsError> {
        func value(_ name: String) -> String? {
            CredentialsText.nonEmpty(variables[name])
        }
        switch self.source {
        case .alibabaCloudCredentialsURI:
            let name = Self.alibabaCloudCredentialsURIVariable
            guard let uri = value(name) else {
                return .failure(.notFound("\(self.source.name): \(name) is not set"))
            }
            return CredentialsEndpoint.parse(uri, variable: name, source: self.source.name)
        case .awsContainer:
            if let relative = value(AWSVariable.relativeURI) {
                // A relative URI that does not start with `/` must not change the host (`@host/…` would).
                let url = self.awsContainerBase + (relative.hasPrefix("/") ? relative : "/" + relative)
                return CredentialsEndpoint.parse(url, variable: AWSVariable.relativeURI, source: self.source.name)
            }
            guard let full = value(AWSVariable.fullURI) else {
                return .failure(
                    .notFound(
                        "\(self.source.name): neither \(AWSVariable.relativeURI) nor \(AWSVariable.fullURI) is set"
                    )
                )
            }
            let parsed = CredentialsEndpoint.parse(full, variable: AWSVariable.fullURI, source: self.source.name)
            guard case .success(let endpoint) = parsed, endpoint.scheme == "http",
                !Self.isAllowedHTTPHost(endpoint.hostName)
            else { return parsed }
            return .failure(
                .unsupported(
                    "\(self.source.name): \(AWSVariable.fullURI) names plain http on \(endpoint.host); plain http is "
                        + "allowed only to a loopback address or to 169.254.170.2, 169.254.170.23, fd00:ec2::23 or "
                        + "localhost (use https for another host)"
                )
            )
        }
    }

    /// Whether a plain-`http` full URI may name `host` (lowercased, without brackets): a loopback address
    /// (127.0.0.0/8, `::1`) or one of ``awsAllowedHTTPHosts``.
    static func isAllowedHTTPHost(_ host: String) -> Bool {
        if Self.awsAllowedHTTPHosts.contains(host) {
            return true
        }
        guard let address = try? SocketAddress(ipAddress: host, port: 0), let normalized = address.ipAddress else {
            return false
        }
        switch address {
        case .v4:
            return normalized.hasPrefix("127.")
        case .v6:
            return normalized == "::1" || Self.awsAllowedHTTPHosts.contains(normalized)
        case .unixDomainSocket:
            return false
        }
    }

    /// The `Authorization` value: the content of `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` (read now, trailing
    /// line breaks removed), else `AWS_CONTAINER_AUTHORIZATION_TOKEN`, else `nil`.
    ///
    /// - Throws: `CredentialsError`: `unreadableFile` when the file cannot be read or is too large;
    ///   `unsupported` for a token with a line break (it cannot travel in a header) or an empty token file.
    static func awsAuthorization(in variables: [String: String]) async throws(CredentialsError) -> String? {
        let source = Source.awsContainer.name
        let token: String
        let origin: String
        if let path = variables[AWSVariable.tokenFile], !path.isEmpty {
            var text = try await Self.readTokenFile(atPath: path)
            while let last = text.unicodeScalars.last, last == "\n" || last == "\r" {
                text.unicodeScalars.removeLast()
            }
            guard !text.isEmpty else {
                throw .unsupported(
                    "\(source): the authorization token file \(path) (\(AWSVariable.tokenFile)) is empty"
                )
            }
            (token, origin) = (text, "the file \(path) (\(AWSVariable.tokenFile))")
        } else if let value = variables[AWSVariable.token], !value.isEmpty {
            (token, origin) = (value, AWSVariable.token)
        } else {
            return nil
        }
        if token.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
            throw .unsupported(
                "\(source): the authorization token from \(origin) contains a line break, which a header cannot carry"
            )
        }
        return token
    }

    /// The content of the token file (at most ``maximumTokenFileSize`` bytes), read off the cooperative pool.
    private static func readTokenFile(atPath path: String) async throws(CredentialsError) -> String {
        let data: Data
        do {
            data = try await BlockingIO.run { try Data(contentsOf: URL(fileURLWithPath: path)) }
        } catch {
            throw .unreadableFile(path: path, reason: "the authorization token file could not be read")
        }
        guard data.count <= Self.maximumTokenFileSize else {
            throw .unreadableFile(
                path: path,
                reason: "the authorization token file is larger than \(Self.maximumTokenFileSize) bytes"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension ContainerCredentialsProvider.Source {
    /// The name in descriptions, e.g. `awsContainer`.
    var label: String {
        switch self {
        case .awsContainer: return "awsContainer"
        case .alibabaCloudCredentialsURI: return "alibabaCloudCredentialsURI"
        }
    }

    /// The provider's name in messages.
    var name: String {
        switch self {
        case .awsContainer: return "AWS container credentials"
        case .alibabaCloudCredentialsURI: return "Alibaba Cloud credentials URI"
        }
    }

    /// botocore's 2 s; Alibaba's library allows 5 s to connect.
    var defaultTimeout: Duration {
        switch self {
        case .awsContainer: return .seconds(2)
        case .alibabaCloudCredentialsURI: return .seconds(5)
        }
    }

    /// How the document names its members.
    var document: InstanceMetadataDocument.Format {
        switch self {
        case .awsContainer:
            // No `Code`; `AccountId` and `RoleArn` are ignored.
            return InstanceMetadataDocument.Format(
                name: "credentials document",
                container: nil,
                code: nil,
                accessKeyID: "AccessKeyId",
                secret: "SecretAccessKey",
                securityToken: "Token",
                expiration: "Expiration"
            )
        case .alibabaCloudCredentialsURI:
            return InstanceMetadataService.alibabaCloudECSRole.document
        }
    }
}

/// A credentials endpoint's URL, split for the request and for messages.
struct CredentialsEndpoint: Sendable {
    /// `http` or `https`.
    var scheme: String
    /// `scheme://host[:port]`.
    var origin: String
    /// `host[:port]` as written, for messages.
    var host: String
    /// The host alone, lowercased, without the brackets of an IPv6 address.
    var hostName: String
    /// The path and query sent (`/` when the URL has no path).
    var target: String
    /// The path without the query, for messages.
    var path: String
    /// The variable that named the endpoint, for messages.
    var variable: String

    /// Splits `url`.
    ///
    /// - Returns: The endpoint, or `CredentialsError.Code.unsupported` when `url` is not an absolute `http` or
    ///   `https` URL with a host (the message names the variable, never the URL: its query may be secret).
    static func parse(_ url: String, variable: String, source: String) -> Result<Self, CredentialsError> {
        let unsupported = CredentialsError.unsupported(
            "\(source): \(variable) is not an http or https URL with a host and no user information"
        )
        guard let separator = url.firstRange(of: "://") else { return .failure(unsupported) }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return .failure(unsupported) }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = rest[authorityEnd...]
        if let fragment = target.firstIndex(of: "#") {
            target = target[..<fragment]
        }
        guard !authority.isEmpty, !authority.contains("@"), let hostName = Self.hostName(of: authority) else {
            return .failure(unsupported)
        }
        let fullTarget = target.hasPrefix("/") ? String(target) : "/" + target
        return .success(
            CredentialsEndpoint(
                scheme: scheme,
                origin: "\(scheme)://\(authority)",
                host: String(authority),
                hostName: hostName,
                target: fullTarget,
                path: String(fullTarget.prefix { $0 != "?" }),
                variable: variable
            )
        )
    }

    /// The host of `host[:port]` or `[v6][:port]`, lowercased, or `nil` when it is empty or the port is not a
    /// number.
    private static func hostName(of authority: Substring) -> String? {
        let host: Substring
        let port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            (host, port) = (authority, nil)
        }
        if let port, port.isEmpty || !port.allSatisfy({ $0.isASCII && $0.isNumber }) || UInt16(port) == nil {
            return nil
        }
        return host.isEmpty ? nil : host.lowercased()
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import Logging
import ObjectStorage
import ObjectStorageSigning

/// The flags `presign` and `sign` share.
struct SigningOptions: ParsableArguments {
    @Option(help: "HTTP method: GET, HEAD, PUT, POST or DELETE.")
    var method: String = "GET"

    @OptionGroup var target: SigningTargetOptions

    @Option(name: .customLong("header"), help: "A header the request carries, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(name: .customLong("query"), help: "An extra query parameter, name=value or name (repeatable).")
    var queries: [String] = []

    @Option(name: .customLong("additional-header"), help: "An OSS V4 additional signed header name (repeatable).")
    var additionalHeaders: [String] = []

    @Flag(help: "Print JSON instead of text.")
    var json = false
}

/// Where and how to sign: the flags `presign`, `sign` and `presign-post` share.
struct SigningTargetOptions: ParsableArguments {
    @OptionGroup var service: ServiceOptions

    @OptionGroup var credentials: CredentialsOptions

    @Option(help: "Signing time: UNIX seconds, ISO 8601 or an HTTP date (default: now).")
    var date: String?
}

/// Everything needed to sign, resolved from the flags and the environment.
struct SigningContext {
    var request: SigningRequest
    var signer: RequestSigner
    var date: Date
    /// The chain the credentials come from: the vendor's default, or `--profile`'s.
    var credentials: ChainCredentialsProvider

    private static let allowedMethods: Set<String> = ["GET", "HEAD", "PUT", "POST", "DELETE"]

    init(
        location: ObjectURL,
        options: SigningOptions,
        versionID: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) {
        let method = options.method.uppercased()
        guard Self.allowedMethods.contains(method) else {
            throw .usage("--method: '\(options.method)' is not one of GET, HEAD, PUT, POST, DELETE")
        }
        try self.init(
            location: location,
            target: options.target,
            method: method,
            query: try options.queries.map(Self.queryParameter)
                + (versionID.map { [QueryParameter(name: "versionId", value: $0)] } ?? []),
            headers: try options.headers.map(Self.header),
            additionalHeaders: options.additionalHeaders,
            environment: environment
        )
    }

    init(
        location: ObjectURL,
        target: SigningTargetOptions,
        method: String,
        query: [QueryParameter] = [],
        headers: [HTTPHeader] = [],
        additionalHeaders: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) {
        let version = try Self.signatureVersion(target.service.signature, for: location.vendor)
        let (choice, region) = try ServiceEnvironment(location.vendor, variables: environment)
            .resolve(endpoint: target.service.endpoint, region: target.service.region)
        if let warning = choice.missingSchemeWarning { printError(warning) }
        let endpoint = choice.endpoint
        let addressing: AddressingStyle =
            target.service.pathStyle || endpoint.isIPAddressOrLocalhost ? .path : .virtualHosted
        request = SigningRequest(
            method: method,
            endpoint: endpoint,
            addressing: addressing,
            bucket: location.bucket,
            key: location.key,
            query: query,
            headers: headers
        )
        let service = version == .sigV4 ? "s3" : nil
        signer = RequestSigner(
            version: version,
            region: region,
            service: service,
            additionalHeaders: additionalHeaders
        )
        date = try target.date.map(Self.parseDate) ?? Date()
        credentials = try target.credentials.chain(for: location.vendor, environment: environment)
    }

    /// Loads the vendor's credentials (see ``CommandCredentials``) and signs with them: what `sign`, `presign` and
    /// `presign-post` do once their request is built.
    ///
    /// - Parameter sign: Signs with the credentials.
    /// - Returns: What `sign` returns.
    /// - Throws: ``CLIError``: the credentials' failure, or a ``SigningError`` as invalid input (status 65).
    func signing<Signed>(
        _ sign: (Credentials) throws(SigningError) -> Signed
    ) async throws(CLIError) -> Signed {
        let found = try await CommandCredentials.resolve(self.credentials, logger: Logger(label: "objstore"))
        do {
            return try sign(found.credentials)
        } catch {
            throw .invalidInput(CLIError.sentence(error.message))
        }
    }

    static func signatureVersion(_ name: String?, for vendor: StorageVendor) throws(CLIError) -> SignatureVersion {
        let accepted: [String: SignatureVersion]
        let fallback: SignatureVersion
        switch vendor {
        case .oss:
            accepted = ["v1": .ossV1, "v4": .ossV4]
            fallback = .ossV4
        case .obs:
            accepted = ["obs": .obs, "v2": .awsV2, "v4": .sigV4, "sigv4": .sigV4]
            fallback = .obs
        default:
            accepted = ["sigv4": .sigV4, "v4": .sigV4, "v2": .awsV2]
            fallback = .sigV4
        }
        guard let name else { return fallback }
        guard let version = accepted[name.lowercased()] else {
            let names = accepted.keys.sorted().joined(separator: ", ")
            throw .usage("--signature: '\(name)' is not valid for \(vendor); use one of \(names)")
        }
        return version
    }

    static func header(_ text: String) throws(CLIError) -> HTTPHeader {
        guard let colon = text.firstIndex(of: ":") else {
            throw .usage("--header: '\(text)' is not 'Name: value'")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else {
            throw .usage("--header: '\(text)' has no valid header name")
        }
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return HTTPHeader(name: name, value: value)
    }

    static func queryParameter(_ text: String) throws(CLIError) -> QueryParameter {
        guard let equals = text.firstIndex(of: "=") else {
            guard !text.isEmpty else { throw .usage("--query: a parameter needs a name") }
            return QueryParameter(name: text, value: nil)
        }
        let name = String(text[..<equals])
        guard !name.isEmpty else { throw .usage("--query: '\(text)' has no name before '='") }
        return QueryParameter(name: name, value: String(text[text.index(after: equals)...]))
    }

    /// Accepts UNIX seconds, extended ISO 8601 (`2024-03-05T04:05:06Z`, fractions and offsets
    /// allowed), the basic form signatures use (`20240305T040506Z`) or an HTTP date
    /// (`Tue, 05 Mar 2024 04:05:06 GMT`).
    /// Refuses a time outside 1970-01-01 ... 9999-12-31 (exit 65): no signature scheme can write it.
    static func parseDate(_ text: String) throws(CLIError) -> Date {
        guard let date = parseAnyDate(text) else {
            throw .usage("--date: '\(text)' is neither UNIX seconds nor an ISO 8601 time")
        }
        guard (0...TimeInterval(SigningTimestamp.representableSeconds.upperBound)).contains(date.timeIntervalSince1970)
        else {
            throw .invalidInput("--date: '\(text)' is outside the years 1970 to 9999")
        }
        return date
    }

    private static func parseAnyDate(_ text: String) -> Date? {
        if let seconds = Int64(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        if let timestamp = SigningTimestamp(iso8601Basic: text) ?? SigningTimestamp(httpDate: text) {
            return timestamp.date
        }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

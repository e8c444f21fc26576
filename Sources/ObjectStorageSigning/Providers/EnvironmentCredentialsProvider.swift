//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provider that reads a vendor's standard environment variables.
///
/// ```swift
/// let provider: some CredentialsProvider = .environment(.oss)  // OSS_ACCESS_KEY_ID, OSS_ACCESS_KEY_SECRET, ...
/// ```
///
/// The variables are read on every call; wrap the provider in `.refreshing(...)` to read them once.
/// Values are trimmed of surrounding whitespace; an empty value counts as unset.
/// When neither the id nor the secret is set the provider throws ``CredentialsError/Code/notFound``;
/// when only one of them is (or only the token), it throws ``CredentialsError/Code/incomplete``
/// naming the missing variable.
public struct EnvironmentCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The vendor whose variables this provider reads.
    package let vendor: StorageVendor
    private let environment: [String: String]?

    /// Creates a provider for a vendor's variables.
    ///
    /// - Parameters:
    ///   - vendor: Which variables to read.
    ///   - environment: The variables to read instead of the process environment (for tests).
    package init(_ vendor: StorageVendor, environment: [String: String]? = nil) {
        self.vendor = vendor
        self.environment = environment
    }

    /// Reads the vendor's variables.
    ///
    /// - Parameter logger: A logger for diagnostics (variable names only).
    /// - Returns: Credentials from the environment.
    /// - Throws: ``CredentialsError/Code/notFound`` when neither the id nor the secret is set,
    ///   ``CredentialsError/Code/incomplete`` when only some of the variables are.
    public func credentials(logger: Logger) async throws -> Credentials {
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let vendor = self.vendor
        func value(_ name: String) -> String? {
            guard let raw = environment[name] else { return nil }
            let trimmed = CredentialsText.trimmed(raw)
            return trimmed.isEmpty ? nil : trimmed
        }
        let accessKeyID = value(vendor.accessKeyIDVariable)
        let secret = value(vendor.secretAccessKeyVariable)
        let token = value(vendor.securityTokenVariable)

        switch (accessKeyID, secret) {
        case (let accessKeyID?, let secret?):
            logger.trace(
                "credentials from environment",
                metadata: ["vendor": "\(vendor.name)", "securityToken": "\(token == nil ? "absent" : "present")"]
            )
            return Credentials(accessKeyID: accessKeyID, secretAccessKey: secret, securityToken: token)
        case (.some, nil):
            throw CredentialsError.incomplete(
                "\(vendor.accessKeyIDVariable) is set but \(vendor.secretAccessKeyVariable) is not"
            )
        case (nil, .some):
            throw CredentialsError.incomplete(
                "\(vendor.secretAccessKeyVariable) is set but \(vendor.accessKeyIDVariable) is not"
            )
        case (nil, nil):
            if token != nil {
                throw CredentialsError.incomplete(
                    "\(vendor.securityTokenVariable) is set but \(vendor.accessKeyIDVariable) and "
                        + "\(vendor.secretAccessKeyVariable) are not"
                )
            }
            throw CredentialsError.notFound(
                "\(vendor.accessKeyIDVariable) and \(vendor.secretAccessKeyVariable) are not set"
            )
        }
    }

    /// `environment(OSS)`.
    public var description: String {
        "environment(\(self.vendor.name))"
    }
}

extension CredentialsProvider where Self == EnvironmentCredentialsProvider {
    /// A provider that reads a vendor's standard environment variables.
    ///
    /// - Parameters:
    ///   - vendor: Whose variables to read: `.oss` (`OSS_ACCESS_KEY_ID`, `OSS_ACCESS_KEY_SECRET`,
    ///     `OSS_SESSION_TOKEN`), `.obs` (`OBS_ACCESS_KEY_ID`, `OBS_SECRET_ACCESS_KEY`, `OBS_SECURITY_TOKEN`) or `.s3`
    ///     (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`).
    ///   - environment: The variables to read instead of the process environment (for tests).
    /// - Returns: An environment provider.
    public static func environment(
        _ vendor: StorageVendor,
        environment: [String: String]? = nil
    ) -> EnvironmentCredentialsProvider {
        EnvironmentCredentialsProvider(vendor, environment: environment)
    }
}

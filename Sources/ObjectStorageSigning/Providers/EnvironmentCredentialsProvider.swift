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
    /// The names of a vendor's credentials variables.
    public struct Vendor: Sendable, Hashable, CustomStringConvertible {
        /// The vendor's short name, used in messages (e.g. `OSS`).
        package var name: String
        /// The access key id variable, e.g. `OSS_ACCESS_KEY_ID`.
        package var accessKeyIDVariable: String
        /// The secret variable, e.g. `OSS_ACCESS_KEY_SECRET`.
        package var secretAccessKeyVariable: String
        /// The security token variable, e.g. `OSS_SESSION_TOKEN`.
        package var securityTokenVariable: String

        /// Creates a set of variable names, for a vendor this SDK does not list.
        ///
        /// - Parameters:
        ///   - name: A short name for messages.
        ///   - accessKeyIDVariable: The access key id variable.
        ///   - secretAccessKeyVariable: The secret variable.
        ///   - securityTokenVariable: The security token variable.
        package init(
            name: String,
            accessKeyIDVariable: String,
            secretAccessKeyVariable: String,
            securityTokenVariable: String
        ) {
            self.name = name
            self.accessKeyIDVariable = accessKeyIDVariable
            self.secretAccessKeyVariable = secretAccessKeyVariable
            self.securityTokenVariable = securityTokenVariable
        }

        /// Alibaba Cloud OSS: `OSS_ACCESS_KEY_ID`, `OSS_ACCESS_KEY_SECRET`, `OSS_SESSION_TOKEN`.
        public static let oss = Vendor(
            name: "OSS",
            accessKeyIDVariable: "OSS_ACCESS_KEY_ID",
            secretAccessKeyVariable: "OSS_ACCESS_KEY_SECRET",
            securityTokenVariable: "OSS_SESSION_TOKEN"
        )

        /// Huawei Cloud OBS: `OBS_ACCESS_KEY_ID`, `OBS_SECRET_ACCESS_KEY`, `OBS_SECURITY_TOKEN`.
        public static let obs = Vendor(
            name: "OBS",
            accessKeyIDVariable: "OBS_ACCESS_KEY_ID",
            secretAccessKeyVariable: "OBS_SECRET_ACCESS_KEY",
            securityTokenVariable: "OBS_SECURITY_TOKEN"
        )

        /// AWS S3 and S3-compatible services: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`.
        public static let aws = Vendor(
            name: "AWS",
            accessKeyIDVariable: "AWS_ACCESS_KEY_ID",
            secretAccessKeyVariable: "AWS_SECRET_ACCESS_KEY",
            securityTokenVariable: "AWS_SESSION_TOKEN"
        )

        /// The vendor's name.
        public var description: String {
            self.name
        }
    }

    /// The variables this provider reads.
    package let vendor: Vendor
    private let environment: [String: String]?

    /// Creates a provider for a vendor's variables.
    ///
    /// - Parameters:
    ///   - vendor: Which variables to read.
    ///   - environment: The variables to read instead of the process environment (for tests).
    package init(_ vendor: Vendor, environment: [String: String]? = nil) {
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
    ///   - vendor: Which variables to read: `.oss`, `.obs` or `.aws`.
    ///   - environment: The variables to read instead of the process environment (for tests).
    /// - Returns: An environment provider.
    public static func environment(
        _ vendor: EnvironmentCredentialsProvider.Vendor,
        environment: [String: String]? = nil
    ) -> EnvironmentCredentialsProvider {
        EnvironmentCredentialsProvider(vendor, environment: environment)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error from a credentials provider: a machine-readable ``Code`` and a human-readable message.
///
/// The message names what was looked at (environment variable names, file paths, profile names) so
/// a user can fix the set-up, and never contains a secret or a security token.
///
/// <!-- snippet: given provider: some CredentialsProvider, logger: Logger -->
/// ```swift
/// import Logging
///
/// do {
///     let credentials = try await provider.credentials(logger: logger)
/// } catch let error as CredentialsError where error.code == .notFound {
///     // nothing configured: tell the user how to set credentials
/// }
/// ```
public struct CredentialsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set of values that can be compared and switched over.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `notFound`.
        public let description: String

        private init(_ name: String) { self.description = name }

        /// No credentials were configured where the provider looked (a "no credentials" outcome).
        ///
        /// A ``CredentialsProvider/chain(_:)-([CredentialsProvider])`` moves on to its next provider only on this
        /// code.
        public static let notFound = Code("notFound")
        /// Credentials were only partly configured, e.g. an access key id without its secret.
        public static let incomplete = Code("incomplete")
        /// A credentials or config file exists but could not be parsed.
        public static let malformedFile = Code("malformedFile")
        /// A credentials or config file exists but could not be read.
        public static let unreadableFile = Code("unreadableFile")
        /// The configuration asks for a kind of credentials this provider does not support.
        public static let unsupported = Code("unsupported")
        /// A provider returned credentials that have already expired.
        public static let expired = Code("expired")
        /// Refreshing expiring credentials failed and no valid credentials remain.
        public static let refreshFailed = Code("refreshFailed")
    }

    /// What went wrong.
    public var code: Code
    /// What went wrong and where, with context such as variable names, file paths and profile names.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: Context for a human; it must never contain a secret.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message, e.g. `notFound: OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET are not set`.
    public var description: String {
        "\(self.code): \(self.message)"
    }

    /// No credentials were configured where the provider looked.
    ///
    /// - Parameter message: What was looked at.
    /// - Returns: An error with code ``Code/notFound``.
    package static func notFound(_ message: String) -> CredentialsError {
        CredentialsError(code: .notFound, message: message)
    }

    /// Credentials were only partly configured.
    ///
    /// - Parameter message: What is present and what is missing (names only, never values).
    /// - Returns: An error with code ``Code/incomplete``.
    package static func incomplete(_ message: String) -> CredentialsError {
        CredentialsError(code: .incomplete, message: message)
    }

    /// A file could not be parsed.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - line: The 1-based line number of the problem, if known.
    ///   - reason: What is wrong (never the line's content, which may hold a secret).
    /// - Returns: An error with code ``Code/malformedFile``.
    package static func malformedFile(path: String, line: Int? = nil, reason: String) -> CredentialsError {
        let location = line.map { "\(path):\($0)" } ?? path
        return CredentialsError(code: .malformedFile, message: "\(location): \(reason)")
    }

    /// A file exists but could not be read.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - reason: Why it could not be read.
    /// - Returns: An error with code ``Code/unreadableFile``.
    package static func unreadableFile(path: String, reason: String) -> CredentialsError {
        CredentialsError(code: .unreadableFile, message: "\(path): \(reason)")
    }

    /// The configuration asks for an unsupported kind of credentials.
    ///
    /// - Parameter message: What was asked for and where.
    /// - Returns: An error with code ``Code/unsupported``.
    package static func unsupported(_ message: String) -> CredentialsError {
        CredentialsError(code: .unsupported, message: message)
    }

    /// A provider returned credentials that have already expired.
    ///
    /// - Parameter message: Which provider and when the credentials expired.
    /// - Returns: An error with code ``Code/expired``.
    package static func expired(_ message: String) -> CredentialsError {
        CredentialsError(code: .expired, message: message)
    }

    /// Refreshing failed and no valid credentials remain.
    ///
    /// - Parameter message: What failed.
    /// - Returns: An error with code ``Code/refreshFailed``.
    package static func refreshFailed(_ message: String) -> CredentialsError {
        CredentialsError(code: .refreshFailed, message: message)
    }
}

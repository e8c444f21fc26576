//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An error raised by the Signing layer before anything is signed or sent.
///
/// Errors carry a ``Code`` to switch on and a human-readable ``message`` with context (the
/// offending value, the allowed range). They never contain a secret, a security token or a
/// signature.
///
/// <!-- snippet: given presign: (Duration) async throws -> PresignedURL -->
/// ```swift
/// do {
///     _ = try await presign(.seconds(700_000))  // client.presign(bucket:key:expires:) with a week and more
/// } catch let error as SigningError where error.code == .invalidExpiry {
///     print(error.message)  // "presign expiry 700000 s is outside 1...604800 s for OSS V4"
/// }
/// ```
public struct SigningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set of values (new codes may be added).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `invalidExpiry`.
        public let description: String

        private init(_ name: String) { self.description = name }

        /// A presign expiry outside the range the signature scheme allows.
        public static let invalidExpiry = Code("invalidExpiry")
        /// A V4 scheme (OSS V4, SigV4) was asked to sign without a region.
        public static let missingRegion = Code("missingRegion")
        /// An endpoint URL that is not `scheme://host[:port]`.
        public static let invalidEndpoint = Code("invalidEndpoint")
        /// A request that cannot be signed (a key without a bucket, a header with a line break...).
        public static let invalidRequest = Code("invalidRequest")
    }

    /// What went wrong.
    public var code: Code
    /// A description with context. Never contains a secret, token or signature.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A description with context; must not contain secrets.
    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `SigningError.<code>: <message>`.
    public var description: String { "SigningError.\(self.code): \(self.message)" }

    /// A presign expiry outside `range` seconds for `scheme`.
    static func invalidExpiry(seconds: Int64, range: ClosedRange<Int64>, scheme: String) -> SigningError {
        SigningError(
            code: .invalidExpiry,
            message: "presign expiry \(seconds) s is outside \(range.lowerBound)...\(range.upperBound) s for \(scheme)"
        )
    }

    /// A V4 scheme without a region.
    static func missingRegion(scheme: String) -> SigningError {
        SigningError(code: .missingRegion, message: "\(scheme) signing needs a region; none was configured")
    }

    /// An endpoint that could not be parsed.
    /// The endpoint is shown without its user info (`user:password@`), which may hold a secret.
    static func invalidEndpoint(_ text: String, reason: String) -> SigningError {
        SigningError(code: .invalidEndpoint, message: "invalid endpoint '\(redactingUserInfo(text))': \(reason)")
    }

    /// `scheme://user:password@host/...` → `scheme://REDACTED@host/...`; other text unchanged.
    static func redactingUserInfo(_ text: String) -> String {
        let authorityStart = text.firstRange(of: "://")?.upperBound ?? text.startIndex
        let rest = text[authorityStart...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return text[..<authorityStart] + "REDACTED" + text[at...]
    }

    /// A request that cannot be signed.
    static func invalidRequest(_ reason: String) -> SigningError {
        SigningError(code: .invalidRequest, message: reason)
    }
}

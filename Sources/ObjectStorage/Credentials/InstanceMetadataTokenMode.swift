//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Whether an instance-metadata credentials provider uses the metadata service's session token (the
/// "security hardening" mode, like AWS IMDSv2) before asking for credentials.
///
/// In hardening mode the provider first sends a `PUT` for a short-lived token, then sends that token with
/// every `GET`. A server-side request forgery that can only make `GET` requests cannot obtain the token, so
/// instances configured to require the token are protected from it.
///
/// ```swift
/// let provider: some CredentialsProvider = .refreshing(.alibabaCloudECSRole(tokenMode: .required))
/// ```
public struct InstanceMetadataTokenMode: Sendable, Hashable {
    private enum Base: String, Hashable, Sendable {
        case preferred
        case required
        case disabled
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// Ask for a token first; when the token request is answered with an error, or the answer does not
    /// arrive in time, fall back to plain requests without a token (the default).
    ///
    /// When the metadata service cannot be reached at all (connection refused or timed out), there is no
    /// fallback: a plain request could not reach it either.
    public static let preferred = InstanceMetadataTokenMode(.preferred)

    /// Ask for a token first and fail when none is issued: never send a plain request.
    public static let required = InstanceMetadataTokenMode(.required)

    /// Never ask for a token: send plain requests only (for metadata services without hardening mode).
    public static let disabled = InstanceMetadataTokenMode(.disabled)

    /// The mode's name, e.g. `preferred`.
    var name: String {
        self.base.rawValue
    }
}

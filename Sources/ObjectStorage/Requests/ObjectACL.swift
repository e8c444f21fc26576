//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A canned access control list (`x-oss-object-acl`, `x-obs-acl`, `x-amz-acl`). An open set.
public struct ObjectACL: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral {
    /// The value as sent.
    public var rawValue: String

    /// Creates an ACL value.
    ///
    /// - Parameter rawValue: The value as sent, e.g. `private`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an ACL value from a literal.
    ///
    /// - Parameter value: The value as sent.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Only the owner has access.
    public static let `private`: ObjectACL = "private"
    /// Anyone may read.
    public static let publicRead: ObjectACL = "public-read"
    /// Anyone may read and write.
    public static let publicReadWrite: ObjectACL = "public-read-write"
    /// OSS: inherit the bucket's ACL.
    public static let ossDefault: ObjectACL = "default"
}

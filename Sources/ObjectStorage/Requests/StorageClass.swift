//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A storage class (`x-oss-storage-class`, `x-obs-storage-class`, `x-amz-storage-class`), spelled as
/// the vendor spells it. An open set.
public struct StorageClass: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral {
    /// The value as sent.
    public var rawValue: String

    /// Creates a storage class.
    ///
    /// - Parameter rawValue: The value as sent, e.g. `STANDARD_IA`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a storage class from a literal.
    ///
    /// - Parameter value: The value as sent.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// S3 and OBS standard storage.
    public static let standard: StorageClass = "STANDARD"
    /// S3 infrequent access.
    public static let standardIA: StorageClass = "STANDARD_IA"
    /// OBS infrequent access.
    public static let obsWarm: StorageClass = "WARM"
    /// OBS archive.
    public static let obsCold: StorageClass = "COLD"
    /// OSS standard storage.
    public static let ossStandard: StorageClass = "Standard"
    /// OSS infrequent access.
    public static let ossIA: StorageClass = "IA"
    /// OSS archive.
    public static let ossArchive: StorageClass = "Archive"
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where the bucket name goes in the URL.
public struct AddressingStyle: Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case virtualHosted, path
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    /// `https://BUCKET.endpoint/KEY`: the vendors' default.
    public static let virtualHosted = AddressingStyle(.virtualHosted)
    /// `https://endpoint/BUCKET/KEY`: for IP addresses, `localhost` and S3-compatible servers.
    public static let path = AddressingStyle(.path)

    /// `virtual-hosted` or `path`.
    public var description: String { self.base == .path ? "path" : "virtual-hosted" }

    /// The style to use when none is chosen: path-style for IP and `localhost` endpoints (which
    /// cannot carry a bucket sub-domain), virtual-hosted otherwise.
    ///
    /// - Parameter endpoint: The service endpoint.
    /// - Returns: ``path`` or ``virtualHosted``.
    package static func `default`(for endpoint: Endpoint) -> AddressingStyle {
        endpoint.isIPAddressOrLocalhost ? .path : .virtualHosted
    }
}

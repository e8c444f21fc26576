//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where a service listens: `scheme://host[:port]`, without a path.
///
/// ```swift
/// let hangzhou = Endpoint.oss(region: "cn-hangzhou")              // https://oss-cn-hangzhou.aliyuncs.com
/// let minio = try Endpoint(url: "http://127.0.0.1:9000")         // path-style by default
/// ```
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// `https` or `http`.
    public var scheme: String
    /// The host name or IP address (an IPv6 address in brackets, `[::1]`).
    public var host: String
    /// The port, if not the scheme's default.
    public var port: Int?

    /// Creates an endpoint from its parts (not validated; see ``init(url:)``).
    ///
    /// - Parameters:
    ///   - scheme: `https` or `http`.
    ///   - host: The host name or IP address.
    ///   - port: The port, or `nil` for the scheme's default.
    public init(scheme: String = "https", host: String, port: Int? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Parses `scheme://host[:port]` (a trailing `/` is allowed).
    ///
    /// - Parameter url: For example `https://oss-cn-hangzhou.aliyuncs.com` or `http://127.0.0.1:9000`.
    /// - Throws: ``SigningError/Code/invalidEndpoint`` for another scheme, a path, a query, a
    ///   fragment, user info, an empty host or a bad port.
    public init(url: String) throws(SigningError) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else {
            throw .invalidEndpoint(url, reason: "expected scheme://host[:port]")
        }
        let scheme = url[..<colon].lowercased()
        guard scheme == "https" || scheme == "http" else {
            throw .invalidEndpoint(url, reason: "the scheme must be http or https")
        }
        var authority = url[url.index(colon, offsetBy: 3)...]
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw .invalidEndpoint(url, reason: "an endpoint has no path, query or fragment")
        }
        if authority.contains("@") {
            throw .invalidEndpoint(url, reason: "user info is not allowed; credentials come from a provider")
        }
        if authority.contains(where: { $0.isWhitespace || $0.isNewline }) {
            throw .invalidEndpoint(url, reason: "whitespace in the host")
        }
        var host = Substring(authority)
        var port: Int? = nil
        let portSeparator: String.Index?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidEndpoint(url, reason: "unterminated IPv6 address")
            }
            let after = authority.index(after: close)
            host = authority[...close]
            if after == authority.endIndex {
                portSeparator = nil
            } else if authority[after] == ":" {
                portSeparator = after
            } else {
                throw .invalidEndpoint(url, reason: "unexpected text after the IPv6 address")
            }
        } else {
            portSeparator = authority.firstIndex(of: ":")
            if let portSeparator { host = authority[..<portSeparator] }
        }
        if let portSeparator {
            let portText = authority[authority.index(after: portSeparator)...]
            guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 &- 48 < 10 }),
                let value = Int(portText), (1...65535).contains(value)
            else {
                throw .invalidEndpoint(url, reason: "the port must be a number in 1...65535")
            }
            port = value
        }
        guard !host.isEmpty, host != "[]" else {
            throw .invalidEndpoint(url, reason: "the host is empty")
        }
        self.init(scheme: scheme, host: String(host).lowercased(), port: port)
    }

    /// Alibaba Cloud OSS's public endpoint: `https://oss-REGION.aliyuncs.com`.
    ///
    /// - Parameter region: For example `cn-hangzhou`.
    /// - Returns: The endpoint.
    public static func oss(region: String) -> Endpoint {
        Endpoint(scheme: "https", host: "oss-\(region).aliyuncs.com")
    }

    /// Huawei Cloud OBS's public endpoint: `https://obs.REGION.myhuaweicloud.com`.
    ///
    /// - Parameter region: For example `cn-north-4`.
    /// - Returns: The endpoint.
    public static func obs(region: String) -> Endpoint {
        Endpoint(scheme: "https", host: "obs.\(region).myhuaweicloud.com")
    }

    /// Amazon S3's regional endpoint: `https://s3.REGION.amazonaws.com`.
    ///
    /// - Parameter region: For example `us-east-1`.
    /// - Returns: The endpoint.
    public static func s3(region: String) -> Endpoint {
        Endpoint(scheme: "https", host: "s3.\(region).amazonaws.com")
    }

    /// Whether the host is an IPv4/IPv6 address or `localhost`, where virtual-hosted addressing
    /// cannot work and path-style is the default.
    package var isIPAddressOrLocalhost: Bool {
        let host = self.host.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.utf8.count <= 3 && part.utf8.allSatisfy({ $0 &- 48 < 10 })
                    && (Int(part) ?? 256) <= 255
            }
    }

    /// The port to show in `Host` and URLs: `nil` when absent or the scheme's default (80/443).
    var explicitPort: Int? {
        guard let port = self.port else { return nil }
        if port == 443 && self.scheme == "https" { return nil }
        if port == 80 && self.scheme == "http" { return nil }
        return port
    }

    /// The `Host` header value for `bucket` under `addressing` (`BUCKET.host[:port]` or `host[:port]`).
    ///
    /// - Parameters:
    ///   - bucket: The bucket, if any.
    ///   - addressing: The addressing style.
    /// - Returns: The host, with the port when it is not the scheme's default.
    package func hostHeader(bucket: String?, addressing: AddressingStyle) -> String {
        var result = ""
        if addressing == .virtualHosted, let bucket, !bucket.isEmpty {
            result.reserveCapacity(bucket.utf8.count + self.host.utf8.count + 7)
            result += bucket
            result += "."
        }
        result += self.host
        if let port = self.explicitPort {
            result += ":"
            result += String(port)
        }
        return result
    }

    /// `scheme://host[:port]`.
    public var description: String {
        guard let port = self.port else { return "\(self.scheme)://\(self.host)" }
        return "\(self.scheme)://\(self.host):\(port)"
    }
}

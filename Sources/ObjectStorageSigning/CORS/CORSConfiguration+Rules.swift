//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Why a vendor refuses a CORS configuration; shared by the client, which checks before it sends, and the local
/// server, which answers with the service's error.
package enum CORSViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document's structure: no rule, a rule without an origin or a method, an unknown element (S3
    /// `MalformedXML`).
    case malformed(String)
    /// A value the service does not accept (S3 `InvalidRequest`).
    case invalid(String)
    /// More rules than the vendor keeps.
    case tooManyRules(count: Int, limit: Int)

    package var description: String {
        switch self {
        case .malformed(let message), .invalid(let message): message
        case .tooManyRules(let count, let limit):
            "the configuration has \(count) CORS rules, but a bucket keeps at most \(limit)"
        }
    }
}

extension CORSConfiguration {
    /// The methods a rule may admit.
    package static let methods: Set<String> = ["GET", "PUT", "POST", "DELETE", "HEAD"]

    /// The most rules `vendor` keeps per bucket: 10 on OSS, 100 on S3 and OBS.
    package static func maximumRules(for vendor: StorageVendor) -> Int { vendor.kind == .oss ? 10 : 100 }

    /// The largest document `vendor` accepts, in bytes: 16 KiB on OSS, 64 KiB on S3 and OBS.
    package static func maximumDocumentSize(for vendor: StorageVendor) -> Int {
        vendor.kind == .oss ? 16 << 10 : 64 << 10
    }

    /// The first reason `vendor` would refuse this configuration, or `nil`.
    package func violation(for vendor: StorageVendor) -> CORSViolation? {
        guard !self.rules.isEmpty else { return .malformed("the CORS configuration has no rule") }
        let limit = Self.maximumRules(for: vendor)
        guard self.rules.count <= limit else { return .tooManyRules(count: self.rules.count, limit: limit) }
        if self.responseVary != nil, vendor.kind != .oss {
            return .malformed("ResponseVary is OSS's; \(vendor.name) has no such setting")
        }
        for (index, rule) in self.rules.enumerated() {
            let name = "CORS rule \(index + 1)"
            guard !rule.allowedOrigins.isEmpty else { return .malformed("\(name) has no AllowedOrigin") }
            guard !rule.allowedMethods.isEmpty else { return .malformed("\(name) has no AllowedMethod") }
            if let method = rule.allowedMethods.first(where: { !Self.methods.contains($0) }) {
                return .invalid(
                    "\(name) allows the method '\(method)', which is not one of GET, PUT, POST, DELETE, HEAD"
                )
            }
            if let origin = rule.allowedOrigins.first(where: { $0.isEmpty || $0.count(of: "*") > 1 }) {
                return .invalid("\(name) allows the origin '\(origin)', which is empty or has more than one '*'")
            }
            if let header = rule.allowedHeaders.first(where: { $0.isEmpty || $0.count(of: "*") > 1 }) {
                return .invalid("\(name) allows the header '\(header)', which is empty or has more than one '*'")
            }
            if let header = rule.exposeHeaders.first(where: { $0.isEmpty || $0.contains("*") }) {
                return .invalid("\(name) exposes the header '\(header)', which is empty or has a '*'")
            }
            if let id = rule.id, id.count > 255 { return .invalid("\(name) has an ID longer than 255 characters") }
            if let age = rule.maxAgeSeconds, age < 0, vendor.kind != .obs {
                return .invalid("\(name) has a negative MaxAgeSeconds")
            }
        }
        return nil
    }
}

extension String {
    /// How many times `character` occurs.
    fileprivate func count(of character: Character) -> Int { self.reduce(0) { $1 == character ? $0 + 1 : $0 } }
}

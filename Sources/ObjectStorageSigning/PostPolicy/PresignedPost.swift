//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A signed POST policy form: a browser posts `multipart/form-data` to ``url`` with every field of
/// ``fields``, in order, and then the file in a last field named `file` (fields after `file` are ignored
/// by the services).
///
/// Render it as an HTML form or return it as JSON to a page's script; the signature and the policy let
/// only what the policy allows through, until ``expiration``.
public struct PresignedPost: Sendable, Hashable, CustomStringConvertible {
    /// One form field, as it must be posted.
    public struct Field: Sendable, Hashable {
        /// The field name, e.g. `key` or `policy`.
        public var name: String
        /// The field value. A `key` ending in `${filename}` is completed by the service with the name of
        /// the posted file.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field name.
        ///   - value: The field value.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The URL to post the form to: the bucket's URL, path-style or virtual-hosted as the client is configured.
    public var url: String
    /// The fields to post before the file, in order: the key, the attributes, the credentials, the policy
    /// and the signature.
    public var fields: [Field]
    /// When the policy stops being valid.
    public var expiration: Date

    /// Creates a presigned form.
    ///
    /// - Parameters:
    ///   - url: The form's URL.
    ///   - fields: The fields, in order.
    ///   - expiration: When the policy expires.
    package init(url: String, fields: [Field], expiration: Date) {
        self.url = url
        self.fields = fields
        self.expiration = expiration
    }

    /// The URL and the field names, with the values of the signature and the security token redacted.
    public var description: String {
        let fields = self.fields.map { field in
            "\(field.name)=\(Self.isSecret(field.name) ? "<redacted>" : field.value)"
        }
        return "PresignedPost(url: \(self.url), fields: [\(fields.joined(separator: ", "))])"
    }

    /// Whether a field holds a signature or a session token.
    package static func isSecret(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "signature" || name.hasSuffix("-signature") || name.hasSuffix("security-token")
    }
}

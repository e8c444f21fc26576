//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Why a vendor refuses a bucket policy; shared by the client, which checks before it sends, and the local server,
/// which answers with the service's error. Only the document's shape is checked (JSON, an object, a `Statement`
/// list whose statements say `Effect` and an action, OSS's `Version`, the size): the grammar of principals,
/// actions, resources and conditions differs per vendor and is the service's to judge.
package enum BucketPolicyViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a JSON document, or not one whose first byte is `{` (S3 `MalformedPolicy`, OSS `InvalidPolicyDocument`);
    /// the line of a syntax error.
    case notJSON(String, line: Int?)
    /// Larger than the vendor keeps.
    case tooLarge(size: Int, limit: Int)
    /// OSS's `Version` is missing or not `"1"`.
    case version(String)
    /// JSON of the wrong shape: no statement, a statement without `Effect` or an action.
    case malformed(String)

    package var description: String {
        switch self {
        case .notJSON(let reason, _): "the bucket policy is not valid JSON: \(reason)"
        case .tooLarge(let size, let limit):
            "the bucket policy is \(size) bytes, more than the \(limit >> 10) KiB the service keeps"
        case .version(let reason), .malformed(let reason): reason
        }
    }
}

/// The checks a bucket policy document must pass, per vendor.
package enum BucketPolicyRules {
    /// The largest policy `vendor` keeps, in bytes: 16 KiB on OSS, 20 KiB on S3 and OBS.
    package static func maximumSize(for vendor: StorageVendor) -> Int { vendor.kind == .oss ? 16 << 10 : 20 << 10 }

    /// The size the vendor measures against ``maximumSize(for:)``: S3 counts the policy without the whitespace
    /// between its tokens; OSS and OBS count the bytes sent.
    package static func measuredSize(of bytes: [UInt8], for vendor: StorageVendor) -> Int {
        guard vendor.kind == .s3 else { return bytes.count }
        var size = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                size += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                size += 1
            } else if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                size += 1
            }
        }
        return size
    }

    /// The first reason `vendor` would refuse `bytes` as a bucket policy, or `nil`.
    package static func violation(in bytes: [UInt8], for vendor: StorageVendor) -> BucketPolicyViolation? {
        let size = Self.measuredSize(of: bytes, for: vendor)
        let limit = Self.maximumSize(for: vendor)
        guard size <= limit else { return .tooLarge(size: size, limit: limit) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard first == UInt8(ascii: "{") else {
            return .notJSON(first == nil ? "the document is empty" : "its first character is not '{'", line: nil)
        }
        let document: JSONValue
        do {
            document = try StrictJSON.parse(bytes)
        } catch {
            return .notJSON("\(error)", line: error.line)
        }
        guard case .object(let members) = document else {
            return .notJSON("the document is not a JSON object", line: nil)
        }
        if vendor.kind == .oss {
            switch members.first(where: { $0.0 == "Version" })?.1 {
            case nil: return .version("the bucket policy has no Version; OSS needs \"Version\": \"1\"")
            case .string("1"): break
            case .string(let other):
                return .version("the bucket policy's Version is \"\(other)\"; OSS takes only \"1\"")
            default: return .malformed("the bucket policy's Version must be the string \"1\" on OSS")
            }
        }
        let statements: [JSONValue]
        switch members.first(where: { $0.0 == "Statement" })?.1 {
        case nil: return .malformed("the bucket policy has no Statement")
        case .array(let items): statements = items
        // IAM's grammar takes a single statement; S3 keeps it, OSS and OBS want a list.
        case .object(let single) where vendor.kind == .s3: statements = [.object(single)]
        default: return .malformed("the bucket policy's Statement is not a list of statements")
        }
        guard !statements.isEmpty else { return .malformed("the bucket policy's Statement list is empty") }
        for (index, statement) in statements.enumerated() {
            let name = "statement \(index + 1)"
            guard case .object(let fields) = statement else {
                return .malformed("the bucket policy's \(name) is not a JSON object")
            }
            func field(_ key: String) -> JSONValue? { fields.first { $0.0 == key }?.1 }
            switch field("Effect") {
            case .string("Allow"), .string("Deny"): break
            case .string(let effect):
                return .malformed("the bucket policy's \(name) has the Effect \"\(effect)\", not Allow or Deny")
            default: return .malformed("the bucket policy's \(name) has no Effect (Allow or Deny)")
            }
            guard field("Action") != nil || field("NotAction") != nil else {
                return .malformed("the bucket policy's \(name) has no Action")
            }
        }
        return nil
    }
}

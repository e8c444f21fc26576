//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The fields of a POST object form (those before `file`), looked up by name case-insensitively as the
/// services do, and the signature scheme they use.
struct PostForm: Sendable {
    /// The fields in order; names as posted.
    var fields: [(name: String, value: String)]

    init(fields: [(name: String, value: String)]) { self.fields = fields }

    /// The first field posted under a name (any case) that an earlier field already has, as posted the second
    /// time; `nil` when every name is posted once.
    ///
    /// A policy condition and the stored attributes must see one value: with two, a condition checked against the
    /// first would let the second be stored beside it.
    var repeatedFieldName: String? {
        var seen: Set<String> = []
        return fields.first { !seen.insert($0.name.lowercased()).inserted }?.name
    }

    /// The value of the first field named `name` (any case).
    func value(_ name: String) -> String? {
        let name = name.lowercased()
        return fields.first { $0.name.lowercased() == name }?.value
    }

    /// The scheme the form is signed with, from the fields it carries; `nil` for an unsigned form.
    var scheme: PostFormScheme? {
        if value("x-oss-signature-version") != nil { return PostFormScheme(.ossV4) }
        if value("OSSAccessKeyId") != nil { return PostFormScheme(.ossV1) }
        if value("x-amz-algorithm") != nil { return PostFormScheme(.sigV4) }
        if value("AWSAccessKeyId") != nil { return PostFormScheme(.awsV2) }
        if value("AccessKeyId") != nil { return PostFormScheme(.obs) }
        return nil
    }

    /// The dialect a scheme's form is answered in: OSS for the OSS schemes, OBS for OBS's own, S3 for the AWS
    /// forms (as for signed headers).
    static func dialect(of scheme: PostFormScheme) -> StorageVendor {
        switch scheme.version {
        case .ossV1, .ossV4: .oss
        case .obs: .obs
        default: .s3
        }
    }

    /// The fields a policy need not name: the file, the policy and the credentials of the signature, and, for S3,
    /// `x-ignore-*` fields. OSS checks no field against the policy, so it has no such list.
    static func isExempt(_ name: String, scheme: PostFormScheme?) -> Bool {
        let name = name.lowercased()
        if name.hasPrefix("x-ignore-") { return true }
        switch name {
        case "file", "policy", "signature", "x-amz-signature", "awsaccesskeyid", "accesskeyid": return true
        default: break
        }
        return scheme.map { name == $0.signatureField.lowercased() } ?? false
    }
}

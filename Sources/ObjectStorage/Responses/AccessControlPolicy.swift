//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The access control list of a bucket or an object, as `GetBucketAcl` and `GetObjectAcl` answer it.
///
/// OSS answers the canned ACL by name; S3 and OBS answer grants, which ``cannedACL`` names when they are those of
/// a canned ACL the vendor takes (the owner's `FULL_CONTROL`, and `READ` for everyone with ``ObjectACL/publicRead``).
public struct AccessControlPolicy: Sendable, Hashable {
    /// One grant: who, and what they may do.
    public struct Grant: Sendable, Hashable {
        /// Who a grant is for.
        public enum Grantee: Sendable, Hashable {
            /// An account: S3's canonical id, OBS's account id.
            case user(id: String)
            /// A group: S3's URI (`http://acs.amazonaws.com/groups/global/AllUsers`), OBS's `Everyone`.
            case group(String)
            /// An account by its e-mail address (S3).
            case email(String)
        }

        /// Who.
        public var grantee: Grantee
        /// What: `FULL_CONTROL`, `READ`, `WRITE`, `READ_ACP` or `WRITE_ACP`.
        public var permission: String
        /// OBS, a bucket's grant: whether it applies to the bucket's objects too.
        public var delivered: Bool?

        init(grantee: Grantee, permission: String, delivered: Bool? = nil) {
            self.grantee = grantee
            self.permission = permission
            self.delivered = delivered
        }
    }

    /// The owner's id, when the answer names it.
    public var ownerID: String?
    /// The grants (empty on OSS, which answers ``cannedACL`` only).
    public var grants: [Grant]
    /// The canned ACL: OSS's answer, or the one S3's or OBS's grants amount to; `nil` when they amount to none.
    public var cannedACL: ObjectACL?
    /// OBS, an object: whether the bucket's ACL applies to it.
    public var delivered: Bool?

    init(ownerID: String? = nil, grants: [Grant] = [], cannedACL: ObjectACL? = nil, delivered: Bool? = nil) {
        self.ownerID = ownerID
        self.grants = grants
        self.cannedACL = cannedACL
        self.delivered = delivered
    }

    /// The list `document` holds, with the canned ACL its grants amount to on `vendor`.
    init(_ document: ACLDocument, vendor: StorageVendor, object: Bool) {
        self.init(
            ownerID: document.ownerID,
            grants: document.grants.map { grant in
                let grantee: Grant.Grantee =
                    switch grant.grantee {
                    case .user(let id): .user(id: id)
                    case .group(let group): .group(group)
                    case .email(let address): .email(address)
                    }
                return Grant(grantee: grantee, permission: grant.permission, delivered: grant.delivered)
            },
            cannedACL: document.matchingCannedName(vendor: vendor, object: object).map(ObjectACL.init(rawValue:)),
            delivered: document.delivered
        )
    }
}

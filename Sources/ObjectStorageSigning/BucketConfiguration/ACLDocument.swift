//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One grant of an access control list: who, and what they may do (`FULL_CONTROL`, `READ`, `WRITE`, `READ_ACP`,
/// `WRITE_ACP`).
package struct ACLGrant: Hashable, Sendable {
    package enum Grantee: Hashable, Sendable {
        /// An account, by its canonical id (S3) or account id (OBS).
        case user(String)
        /// A group: S3's URI (`http://acs.amazonaws.com/groups/global/AllUsers`), OBS's `Everyone`.
        case group(String)
        /// An account by its e-mail address (S3, in requests).
        case email(String)
    }

    package var grantee: Grantee
    package var permission: String
    /// OBS, a bucket's grant: whether it also applies to the bucket's objects.
    package var delivered: Bool?

    package init(_ grantee: Grantee, _ permission: String, delivered: Bool? = nil) {
        self.grantee = grantee
        self.permission = permission
        self.delivered = delivered
    }
}

/// An access control list as `GET ?acl` answers it, and the canned ACLs each vendor takes, with the grants each
/// amounts to: shared by the client, which names the canned ACL an answer's grants amount to, and the local server,
/// which writes the grants of the canned ACL it keeps.
///
/// OSS answers the canned name itself (`<Grant>public-read</Grant>`); S3 and OBS answer grants.
package struct ACLDocument: Hashable, Sendable {
    package var ownerID: String?
    package var grants: [ACLGrant]
    /// OSS: the canned ACL the answer names.
    package var cannedName: String?
    /// OBS, an object's ACL: whether the bucket's ACL applies to it.
    package var delivered: Bool?

    package static let allUsers = "http://acs.amazonaws.com/groups/global/AllUsers"
    package static let authenticatedUsers = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers"
    package static let logDelivery = "http://acs.amazonaws.com/groups/s3/LogDelivery"
    /// The canonical id of the account S3's `aws-exec-read` grants `READ` (Amazon EC2's).
    package static let ec2AccountID = "6aa5a366c34c1cbe25dc49211496e913e0351eb0e8c37aa3477e40942ec6b97c"

    package init(ownerID: String?, grants: [ACLGrant], cannedName: String? = nil, delivered: Bool? = nil) {
        self.ownerID = ownerID
        self.grants = grants
        self.cannedName = cannedName
        self.delivered = delivered
    }

    /// The canned ACLs `vendor` takes on a bucket or an object, in the order an answer's grants are matched.
    package static func cannedNames(for vendor: StorageVendor, object: Bool) -> [String] {
        switch vendor.kind {
        case .oss:
            return object
                ? ["default", "private", "public-read", "public-read-write"]
                : ["private", "public-read", "public-read-write"]
        case .obs:
            return object
                ? ["private", "public-read", "public-read-write", "bucket-owner-full-control"]
                : [
                    "private", "public-read", "public-read-write", "public-read-delivered",
                    "public-read-write-delivered",
                ]
        case .s3:
            return object
                ? [
                    "private", "public-read", "public-read-write", "authenticated-read", "aws-exec-read",
                    "bucket-owner-read", "bucket-owner-full-control",
                ]
                : [
                    "private", "public-read", "public-read-write", "authenticated-read", "aws-exec-read",
                    "log-delivery-write",
                ]
        }
    }

    /// The grants canned ACL `name` amounts to on `vendor`, the owner's `FULL_CONTROL` first; `nil` for a name the
    /// vendor does not take. The bucket owner's grants of `bucket-owner-read` and `bucket-owner-full-control` fold
    /// into the owner's, as the services show them when the object's owner owns the bucket.
    package static func grants(
        ofCanned name: String,
        ownerID: String,
        vendor: StorageVendor,
        object: Bool
    ) -> [ACLGrant]? {
        guard Self.cannedNames(for: vendor, object: object).contains(name), vendor.kind != .oss else { return nil }
        let owner = ACLGrant(.user(ownerID), "FULL_CONTROL", delivered: vendor.kind == .obs && !object ? false : nil)
        if vendor.kind == .obs {
            let delivered: Bool? = object ? nil : name.hasSuffix("-delivered")
            let everyone = ACLGrant.Grantee.group("Everyone")
            switch name {
            case "public-read", "public-read-delivered":
                return [owner, ACLGrant(everyone, "READ", delivered: delivered)]
            case "public-read-write", "public-read-write-delivered":
                return [
                    owner, ACLGrant(everyone, "READ", delivered: delivered),
                    ACLGrant(everyone, "WRITE", delivered: delivered),
                ]
            default: return [owner]
            }
        }
        switch name {
        case "public-read": return [owner, ACLGrant(.group(Self.allUsers), "READ")]
        case "public-read-write":
            return [owner, ACLGrant(.group(Self.allUsers), "READ"), ACLGrant(.group(Self.allUsers), "WRITE")]
        case "authenticated-read": return [owner, ACLGrant(.group(Self.authenticatedUsers), "READ")]
        case "aws-exec-read": return [owner, ACLGrant(.user(Self.ec2AccountID), "READ")]
        case "log-delivery-write":
            return [owner, ACLGrant(.group(Self.logDelivery), "WRITE"), ACLGrant(.group(Self.logDelivery), "READ_ACP")]
        default: return [owner]
        }
    }

    /// The list of canned ACL `name` (OSS: the name itself).
    package init(canned name: String, ownerID: String, vendor: StorageVendor, object: Bool) {
        if vendor.kind == .oss {
            self.init(ownerID: ownerID, grants: [], cannedName: name)
        } else {
            self.init(
                ownerID: ownerID,
                grants: Self.grants(ofCanned: name, ownerID: ownerID, vendor: vendor, object: object) ?? [],
                delivered: vendor.kind == .obs && object ? false : nil
            )
        }
    }

    /// The canned ACL this list amounts to on `vendor`: OSS's named one, or the first whose grants are these (in
    /// any order); `nil` when the grants are no canned ACL's. OBS answers in S3's form (groups by URI) a request
    /// signed as S3 signs: those grants are matched against S3's canned ACLs.
    package func matchingCannedName(vendor: StorageVendor, object: Bool) -> String? {
        if let cannedName { return cannedName }
        guard let ownerID, vendor.kind != .oss else { return nil }
        func normalized(_ grants: [ACLGrant]) -> [String] {
            grants.map { "\($0.grantee)|\($0.permission)|\($0.delivered ?? false)" }.sorted()
        }
        let actual = normalized(self.grants)
        for table in vendor.kind == .obs ? [vendor, .s3] : [vendor] {
            let match = Self.cannedNames(for: table, object: object).first { name in
                Self.grants(ofCanned: name, ownerID: ownerID, vendor: table, object: object).map(normalized) == actual
            }
            if let match { return match }
        }
        return nil
    }

    /// The `AccessControlPolicy` document `GET ?acl` answers in `vendor`'s form.
    package func document(for vendor: StorageVendor, namespace: String?) -> [UInt8] {
        var xml = XMLWriter()
        xml.open("AccessControlPolicy", namespace: namespace)
        let ownerID = self.ownerID
        xml.element("Owner") {
            $0.element("ID", ownerID)
            if vendor.kind != .obs { $0.element("DisplayName", ownerID) }
        }
        if let delivered = self.delivered { xml.element("Delivered", String(delivered)) }
        xml.open("AccessControlList")
        if let cannedName = self.cannedName {
            xml.element("Grant", cannedName)
        }
        for grant in self.grants {
            xml.open("Grant")
            switch (vendor.kind, grant.grantee) {
            case (.obs, .group(let name)):
                xml.element("Grantee") { $0.element("Canned", name) }
            case (.obs, .user(let id)):
                xml.element("Grantee") { $0.element("ID", id) }
            case (_, .user(let id)):
                xml.append(raw: Self.granteeOpening("CanonicalUser"))
                xml.element("ID", id)
                if id == ownerID { xml.element("DisplayName", id) }
                xml.close("Grantee")
            case (_, .group(let uri)):
                xml.append(raw: Self.granteeOpening("Group"))
                xml.element("URI", uri)
                xml.close("Grantee")
            case (_, .email(let address)):
                xml.append(raw: Self.granteeOpening("AmazonCustomerByEmail"))
                xml.element("EmailAddress", address)
                xml.close("Grantee")
            }
            xml.element("Permission", grant.permission)
            if let delivered = grant.delivered { xml.element("Delivered", String(delivered)) }
            xml.close("Grant")
        }
        xml.close("AccessControlList")
        xml.close("AccessControlPolicy")
        return xml.bytes
    }

    private static func granteeOpening(_ type: String) -> String {
        "<Grantee xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"\(type)\">"
    }

    /// Reads an `AccessControlPolicy` answer of any of the three vendors.
    ///
    /// - Throws: A description of what is missing, for another document or a grant without grantee or permission.
    package init(document root: XMLNode) throws(ACLDocumentError) {
        guard root.name == "AccessControlPolicy" else {
            throw ACLDocumentError(message: "<\(root.name)> is not an AccessControlPolicy")
        }
        var grants: [ACLGrant] = []
        var cannedName: String?
        for grant in root.child("AccessControlList")?.children("Grant") ?? [] {
            guard let grantee = grant.child("Grantee") else {
                // OSS: the canned name as the grant's text.
                let name = grant.text.filter { !$0.isWhitespace }
                guard !name.isEmpty else { throw ACLDocumentError(message: "a Grant names no grantee") }
                cannedName = name
                continue
            }
            let who: ACLGrant.Grantee
            if let id = grantee["ID"] {
                who = .user(id)
            } else if let uri = grantee["URI"] {
                who = .group(uri)
            } else if let canned = grantee["Canned"] {
                who = .group(canned)
            } else if let address = grantee["EmailAddress"] {
                who = .email(address)
            } else {
                throw ACLDocumentError(message: "a Grantee has no ID, URI, Canned or EmailAddress")
            }
            guard let permission = grant["Permission"] else {
                throw ACLDocumentError(message: "a Grant has no Permission")
            }
            grants.append(ACLGrant(who, permission, delivered: grant["Delivered"].map { $0 == "true" }))
        }
        self.init(
            ownerID: root.child("Owner")?["ID"],
            grants: grants,
            cannedName: cannedName,
            delivered: root["Delivered"].map { $0 == "true" }
        )
    }
}

/// Why an `AccessControlPolicy` answer cannot be read.
package struct ACLDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { self.message }
}

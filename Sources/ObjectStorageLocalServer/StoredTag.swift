//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// One tag of an object, as stored: in the order the request gave it.
struct StoredTag: Codable, Sendable, Equatable {
    var key: String
    var value: String
}

/// Reading tags from requests and refusing what the services refuse (``ObjectTagRules``).
enum TagInput {
    /// The tags of the dialect's `x-*-tagging` header, checked; `nil` without the header.
    static func fromHeader(_ request: IncomingRequest, dialect: StorageVendor) throws(ServerError) -> [StoredTag]? {
        guard let value = request.header(dialect.headerPrefix + "tagging") else { return nil }
        guard let pairs = ObjectTagRules.tags(fromHeader: value) else {
            var error = ServerError.invalidArgument(
                "The header '\(dialect.headerPrefix)tagging' shall be encoded as UTF-8 then URLEncoded URL query "
                    + "parameters without tag name duplicates.",
                name: dialect.headerPrefix + "tagging",
                value: value
            )
            error.ossEC = "0010-00000219"
            throw error
        }
        return try Self.checked(pairs, dialect: dialect)
    }

    /// The tags of a `<Tagging><TagSet><Tag><Key/><Value/></Tag>…` document, checked.
    static func fromDocument(_ root: XMLNode?, dialect: StorageVendor) throws(ServerError) -> [StoredTag] {
        guard let root, root.name == "Tagging", let set = root.child("TagSet") else {
            throw ServerError.malformedXML()
        }
        var pairs: [(key: String, value: String)] = []
        for tag in set.children("Tag") {
            guard let key = tag.child("Key")?.text else { throw ServerError.malformedXML("a Tag without a Key") }
            pairs.append((key, tag.child("Value")?.text ?? ""))
        }
        return try Self.checked(pairs, dialect: dialect)
    }

    static func checked(
        _ pairs: [(key: String, value: String)],
        dialect: StorageVendor
    ) throws(ServerError)
        -> [StoredTag]
    {
        if let violation = ObjectTagRules(vendor: dialect).violation(in: pairs) {
            throw ServerError.invalidTag(violation, dialect: dialect)
        }
        return pairs.map { StoredTag(key: $0.key, value: $0.value) }
    }
}

extension ServerError {
    /// A tag set the service refuses: S3 answers too many tags with `BadRequest`, anything else with `InvalidTag`.
    static func invalidTag(_ violation: ObjectTagRules.Violation, dialect: StorageVendor) -> ServerError {
        if case .tooMany = violation, dialect.kind == .s3 {
            return ServerError(status: 400, code: "BadRequest", message: "Object tags cannot be greater than 10")
        }
        let message =
            switch violation {
            case .tooMany: "Object tags cannot be greater than 10"
            case .emptyKey: "The TagKey you have provided is invalid"
            case .duplicateKey: "Cannot provide multiple Tags with the same key"
            case .keyTooLong: "The TagKey you have provided is too long, max 128"
            case .valueTooLong:
                "The TagValue you have provided is too long, max \(ObjectTagRules(vendor: dialect).maximumValueLength)"
            case .invalidKey: "The TagKey you have provided is invalid"
            case .invalidValue: "The TagValue you have provided is invalid"
            }
        // OSS's error entries for its tagging errors (its help pages 0010-00000209, -214 and -217).
        let entry =
            switch violation {
            case .keyTooLong: "0010-00000209"
            case .valueTooLong: "0010-00000214"
            default: "0010-00000217"
            }
        return ServerError(status: 400, code: "InvalidTag", message: message, ossEC: entry)
    }
}

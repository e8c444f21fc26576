//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import ObjectStorageSigning

/// Object tags: `GET`, `PUT` and `DELETE` of a key's `?tagging`, in every dialect (the same document in each).
/// Changing an object's tags leaves its modification time and ETag as they are.
extension RequestHandler {
    func getObjectTagging(_ context: Context, bucket: String, key: String) throws -> Reply {
        let metadata = try store.object(bucket, key)
        var xml = XMLWriter()
        xml.open("Tagging", namespace: context.dialect.xmlNamespace)
        xml.open("TagSet")
        for tag in metadata.tags ?? [] {
            xml.element("Tag") {
                $0.element("Key", tag.key)
                $0.element("Value", tag.value)
            }
        }
        xml.close("TagSet")
        xml.close("Tagging")
        return .xml(xml)
    }

    func putObjectTagging(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        _ = try store.object(bucket, key)
        let document = try await collect(body, context: context)
        let tags = try TagInput.fromDocument(RequestDocument.parse(document), dialect: context.dialect)
        try store.setTags(bucket, key, tags)
        return Reply()
    }

    func deleteObjectTagging(_ context: Context, bucket: String, key: String) throws -> Reply {
        try store.setTags(bucket, key, nil)
        return Reply(status: 204)
    }
}

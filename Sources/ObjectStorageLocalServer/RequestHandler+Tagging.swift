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
        let versionID = context.request.queryValue("versionId")
        let metadata = try store.object(bucket, key, versionID: versionID)
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
        return .xml(xml, headers: Self.versionHeaders(metadata.versionID, context: context))
    }

    func putObjectTagging(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        let versionID = context.request.queryValue("versionId")
        let metadata = try store.object(bucket, key, versionID: versionID)
        let document = try await collect(body, context: context)
        let tags = try TagInput.fromDocument(RequestDocument.parse(document), dialect: context.dialect)
        try store.setTags(bucket, key, versionID: versionID, tags)
        return Reply(headers: Self.versionHeaders(metadata.versionID, context: context))
    }

    func deleteObjectTagging(_ context: Context, bucket: String, key: String) throws -> Reply {
        let versionID = context.request.queryValue("versionId")
        try store.setTags(bucket, key, versionID: versionID, nil)
        return Reply(status: 204, headers: Self.versionHeaders(versionID, context: context))
    }
}

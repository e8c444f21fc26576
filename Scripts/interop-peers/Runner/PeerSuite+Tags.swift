//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension PeerSuite {
    /// The typed tag calls: tags set by a PUT are counted by HEAD and read back; a CopyObject keeps them or takes
    /// its own; replacing and removing them leaves the ETag as it was.
    func tags() async throws {
        var put = PutObjectRequest(bucket: self.bucket, key: "tags/report.csv", body: .bytes(Array("a,b\n".utf8)))
        put.attributes.tags = ["project": "blue sky", "retention": "30d"]
        try await self.client.putObject(put)
        let head = try await self.client.headObject(bucket: self.bucket, key: "tags/report.csv")
        try require(head.tagCount == 2, "HEAD reports \(head.tagCount.map(String.init) ?? "no") tag count, not 2")
        let read = try await self.client.getObjectTagging(bucket: self.bucket, key: "tags/report.csv")
        try require(read == put.attributes.tags, "GET ?tagging read \(read)")

        try await self.client.copyObject(
            bucket: self.bucket,
            key: "tags/kept.csv",
            sourceBucket: self.bucket,
            sourceKey: "tags/report.csv"
        )
        let kept = try await self.client.getObjectTagging(bucket: self.bucket, key: "tags/kept.csv")
        try require(kept == put.attributes.tags, "the copy has \(kept), not its source's tags")
        var own = UploadAttributes()
        own.tags = ["kind": "copy"]
        try await self.client.copyObject(
            bucket: self.bucket,
            key: "tags/own.csv",
            sourceBucket: self.bucket,
            sourceKey: "tags/report.csv",
            attributes: own
        )
        let replacedOnCopy = try await self.client.getObjectTagging(bucket: self.bucket, key: "tags/own.csv")
        // Ceph RGW 16 ignores the tagging directive: the copy keeps the source's tags (docs/PEERS.md).
        let expected = self.peer.replacesTagsOnCopy ? ["kind": "copy"] : put.attributes.tags
        try require(replacedOnCopy == expected, "the copy with its own tags has \(replacedOnCopy)")

        try await self.client.putObjectTagging(bucket: self.bucket, key: "tags/report.csv", tags: ["owner": "ops"])
        let replaced = try await self.client.getObjectTagging(bucket: self.bucket, key: "tags/report.csv")
        try require(replaced == ["owner": "ops"], "after PUT ?tagging: \(replaced)")
        try await self.client.deleteObjectTagging(bucket: self.bucket, key: "tags/report.csv")
        let removed = try await self.client.getObjectTagging(bucket: self.bucket, key: "tags/report.csv")
        try require(removed.isEmpty, "after DELETE ?tagging: \(removed)")
        let after = try await self.client.headObject(bucket: self.bucket, key: "tags/report.csv")
        try require(
            after.etag == head.etag,
            "changing tags changed the ETag from \(head.etag ?? "") to \(after.etag ?? "")"
        )
    }
}

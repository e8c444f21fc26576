//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension PeerSuite {
    /// `send(_:)`: a PUT with a header and a body, the GET of it, and a ListObjectsV2 read with the XML helper.
    func anyRequest() async throws {
        let bytes = Pattern.bytes(count: 40 * 1024 + 5, seed: 21)
        let put = try await self.client.send(
            ServiceRequest(
                method: "PUT",
                bucket: self.bucket,
                key: "raw/object.bin",
                headers: ["Content-Type": "application/x-raw", "x-amz-meta-origin": "send"],
                body: .bytes(bytes)
            )
        )
        try require(put.header("ETag") != nil, "the raw PUT's answer has no ETag")
        let get = try await self.client.send(ServiceRequest(method: "GET", bucket: self.bucket, key: "raw/object.bin"))
        try require(
            get.header("x-amz-meta-origin") == "send",
            "GET x-amz-meta-origin \(get.header("x-amz-meta-origin") ?? "nil")"
        )
        let body = Array(try await get.body.collect(upTo: 1 << 20).readableBytesView)
        try require(body == bytes, "the raw GET returned \(body.count) bytes that differ from the \(bytes.count) put")
        let listing = try await self.client.send(
            ServiceRequest(method: "GET", bucket: self.bucket, query: ["list-type": "2", "prefix": "raw"])
        )
        let keys = try await listing.xml().children("Contents").compactMap { $0["Key"] }
        try require(keys == ["raw/object.bin"], "the raw listing names \(keys)")
    }

    /// Object tags through `send(_:)`: what a PUT `?tagging` stores, a GET `?tagging` reads back.
    func anyRequestTagging() async throws {
        try await self.put("raw/tagged.txt", Array("tagged".utf8))
        let document =
            "<Tagging><TagSet><Tag><Key>team</Key><Value>web</Value></Tag>"
            + "<Tag><Key>tier</Key><Value>cold</Value></Tag></TagSet></Tagging>"
        _ = try await self.client.send(
            ServiceRequest(
                method: "PUT",
                bucket: self.bucket,
                key: "raw/tagged.txt",
                query: ["tagging": ""],
                body: .bytes(Array(document.utf8))
            )
        )
        let answer = try await self.client.send(
            ServiceRequest(method: "GET", bucket: self.bucket, key: "raw/tagged.txt", query: ["tagging": ""])
        )
        let tags = try await answer.xml().child("TagSet")?.children("Tag").map {
            "\($0["Key"] ?? "")=\($0["Value"] ?? "")"
        }
        try require(tags?.sorted() == ["team=web", "tier=cold"], "GET ?tagging read \(tags ?? [])")
    }
}

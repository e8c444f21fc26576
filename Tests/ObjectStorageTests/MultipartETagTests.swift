//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ObjectStorage

@Suite("The multipart ETag")
struct MultipartETagTests {
    @Test("md5 of the concatenated binary part MD5s, dash, part count")
    func knownValue() {
        // The part MD5s of "a" and "b"; expected = md5(unhex(md5("a") + md5("b"))), computed with Python.
        let parts = ["\"0CC175B9C0F1B6A831C399E269772661\"", "92eb5ffee6ae2fec3ad71c777531578f"]
        #expect(MultipartETag.of(partETags: parts)?.text == "96e024ba2074fe77e8e965ba43a704be-2")
    }

    @Test("no value unless every part ETag is a plain MD5")
    func nonMD5ETags() {
        #expect(MultipartETag.of(partETags: ["not-an-md5"]) == nil)
        #expect(MultipartETag.of(partETags: ["0cc175b9c0f1b6a831c399e269772661-2"]) == nil)
        #expect(MultipartETag.of(partETags: []) == nil)
    }

    @Test("reads quoted and bare ETags of any case; refuses single-part, weak and malformed ones")
    func parsing() {
        let quoted = MultipartETag("\"96E024BA2074FE77E8E965BA43A704BE-2\"")
        #expect(quoted?.digest == "96e024ba2074fe77e8e965ba43a704be")
        #expect(quoted?.partCount == 2)
        #expect(MultipartETag("96e024ba2074fe77e8e965ba43a704be-10000")?.partCount == 10_000)
        for etag in [
            "96e024ba2074fe77e8e965ba43a704be", "W/\"96e024ba2074fe77e8e965ba43a704be-2\"",
            "96e024ba2074fe77e8e965ba43a704be-0", "96e024ba2074fe77e8e965ba43a704be-10001",
            "96e024ba2074fe77e8e965ba43a704be-", "96e024ba2074fe77e8e965ba43a704be-+2",
            "96e024ba2074fe77e8e965ba43a704be-99999999999999999999", "zze024ba2074fe77e8e965ba43a704be-2", "",
        ] {
            #expect(MultipartETag(etag) == nil, "\(etag)")
        }
    }

    @Test("a part size fits when it cuts the object into exactly the ETag's number of parts")
    func admittedPartSizes() throws {
        let three = try #require(MultipartETag("96e024ba2074fe77e8e965ba43a704be-3"))
        let mebibyte: Int64 = 1 << 20
        #expect(three.admits(partSize: 8 * mebibyte, objectSize: 16 * mebibyte + 1))
        #expect(three.admits(partSize: 8 * mebibyte, objectSize: 24 * mebibyte))
        #expect(!three.admits(partSize: 8 * mebibyte, objectSize: 16 * mebibyte))
        #expect(!three.admits(partSize: 8 * mebibyte, objectSize: 24 * mebibyte + 1))
        #expect(three.admits(partSize: 10 * mebibyte, objectSize: 24 * mebibyte))
        #expect(!three.admits(partSize: 0, objectSize: 24 * mebibyte))
        #expect(!three.admits(partSize: .max, objectSize: 24 * mebibyte))
        let one = try #require(MultipartETag("96e024ba2074fe77e8e965ba43a704be-1"))
        #expect(one.admits(partSize: .max, objectSize: 5))
    }
}

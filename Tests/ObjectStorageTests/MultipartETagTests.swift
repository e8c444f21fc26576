//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ObjectStorage

@Suite("uploadFile: the multipart ETag")
struct UploadFileMultipartETagTests {
    @Test("md5 of the concatenated binary part MD5s, dash, part count")
    func knownValue() {
        // The part MD5s of "a" and "b"; expected = md5(unhex(md5("a") + md5("b"))), computed with Python.
        let parts = ["\"0CC175B9C0F1B6A831C399E269772661\"", "92eb5ffee6ae2fec3ad71c777531578f"]
        #expect(ObjectStorageClient.multipartETag(of: parts) == "96e024ba2074fe77e8e965ba43a704be-2")
    }

    @Test("no value unless every part ETag is a plain MD5")
    func nonMD5ETags() {
        #expect(ObjectStorageClient.multipartETag(of: ["not-an-md5"]) == nil)
        #expect(ObjectStorageClient.multipartETag(of: ["0cc175b9c0f1b6a831c399e269772661-2"]) == nil)
        #expect(ObjectStorageClient.multipartETag(of: []) == nil)
    }
}

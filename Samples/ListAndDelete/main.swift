//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Listing and deleting
//
// Writes a few objects under a prefix, lists them with `listObjects` (an async sequence that fetches
// the next page as you iterate, here two keys a page), lists one level like a directory (`delimiter`),
// then deletes everything under the prefix with `deleteObjects`, up to 1000 keys a request.
//
// ```sh
// swift run ListAndDeleteSample
// ```

import ObjectStorage
import SampleSupport

try await SampleStorage.run("ListAndDelete") { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them
    // (OSS_ENDPOINT, OSS_REGION, OSS_ACCESS_KEY_ID...; with no bucket configured, they name the embedded server).
    let client = ObjectStorageClient(configuration: try .environment(storage.vendor))
    let names = ["notes/1.txt", "notes/2.txt", "photos/cat.jpg", "photos/2024/dog.jpg", "readme.txt"]
    for name in names {
        let body = UploadBody.bytes(Array("contents of \(name)\n".utf8))
        _ = try await client.putObject(PutObjectRequest(bucket: storage.bucket, key: storage.prefix + name, body: body))
    }
    print("Wrote \(names.count) objects under \(storage.prefix)")

    // Every key under the prefix, two a page.
    var keys: [String] = []
    var pages = 0
    for try await page in client.listObjects(bucket: storage.bucket, prefix: storage.prefix, maxKeys: 2) {
        pages += 1
        for object in page.contents { print("  page \(pages): \(object.key) (\(object.size) bytes)") }
        keys += page.contents.map(\.key)
    }

    // One level, like a directory: "folders" are common prefixes.
    for try await page in client.listObjects(bucket: storage.bucket, prefix: storage.prefix, delimiter: "/") {
        for folder in page.commonPrefixes { print("  folder \(folder)") }
        for object in page.contents { print("  file   \(object.key)") }
    }

    // Delete them all, 1000 keys a request.
    var deleted = 0
    for start in stride(from: 0, to: keys.count, by: 1000) {
        let batch = Array(keys[start..<min(start + 1000, keys.count)])
        let response = try await client.deleteObjects(bucket: storage.bucket, keys: batch)
        deleted += response.deleted.count
        for failure in response.failures { print("  could not delete \(failure.key): \(failure.code)") }
    }
    var remaining = 0
    for try await page in client.listObjects(bucket: storage.bucket, prefix: storage.prefix) {
        remaining += page.contents.count
    }
    print("Deleted \(deleted) of \(keys.count) objects; \(remaining) left under the prefix")
}

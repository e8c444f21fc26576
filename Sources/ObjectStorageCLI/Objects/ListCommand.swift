//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorage

/// `objstore ls URL`: lists objects under a bucket or prefix.
struct ListCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the objects under a bucket or prefix.",
        discussion: """
            Without --recursive, keys are grouped at the next '/' and the groups print as 'PRE prefix/'. \
            Text lines are 'LAST-MODIFIED SIZE KEY' with the full key; --json prints one JSON object per line \
            ({"key","size","lastModified","etag","storageClass"} or {"prefix"}).
            """
    )

    @Argument(help: "oss://BUCKET[/PREFIX], obs://BUCKET[/PREFIX] or s3://BUCKET[/PREFIX]")
    var url: String

    @Flag(name: .shortAndLong, help: "List every key under the prefix instead of one level.")
    var recursive = false

    @Flag(help: "Print JSON lines instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.any(url)
        let client = try await ClientFactory(options: remote).makeClient(for: location.provider)
        try await RemoteFailure.run {
            var request = ListObjectsV2Request(bucket: location.bucket, prefix: location.key)
            request.delimiter = recursive ? nil : "/"
            for try await page in client.listObjectsV2(request) {
                for prefix in page.commonPrefixes {
                    try emit(prefix: prefix)
                }
                for object in page.contents {
                    try emit(object: object)
                }
            }
        }
    }

    private func emit(prefix: String) throws {
        if json {
            try JSONOutput.print(ListedPrefix(prefix: prefix))
        } else {
            print("\(String(repeating: " ", count: 20)) \(Self.pad("PRE", 12)) \(prefix)")
        }
    }

    private func emit(object: ListObjectsV2Response.Object) throws {
        let modified = object.lastModified.map(JSONOutput.iso8601)
        if json {
            try JSONOutput.print(
                ListedObject(
                    key: object.key,
                    size: object.size,
                    lastModified: modified,
                    etag: object.etag,
                    storageClass: object.storageClass
                )
            )
        } else {
            print("\(Self.pad(modified ?? "-", 20)) \(Self.pad(String(object.size), 12)) \(object.key)")
        }
    }

    /// Right-aligns `text` in `width` columns.
    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

private struct ListedObject: Encodable {
    var key: String
    var size: Int64
    var lastModified: String?
    var etag: String?
    var storageClass: String?
}

private struct ListedPrefix: Encodable {
    var prefix: String
}

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
import ObjectStorageSigning

/// `objstore stat URL`: an object's headers (HEAD).
struct StatCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "stat",
        abstract: "Show an object's size, ETag, content type, last-modified time, storage class, metadata, version "
            + "and CRC-64 (CRC-64/NVME on S3)."
    )

    @OptionGroup var object: ObjectArgument

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            let head = try await client.headObject(
                bucket: location.bucket,
                key: location.key ?? "",
                versionID: object.versionID
            )
            let output = ObjectStat(location: location, attributes: head, vendor: client.configuration.vendor)
            if json {
                try JSONOutput.print(output)
            } else {
                output.printText()
            }
        }
    }
}

/// What `stat` prints. The CRC-64/XZ (OSS, OBS) is a decimal string, as the service sends it: it does not fit a
/// JSON number without loss; S3's CRC-64/NVME is base64, as S3 sends it.
private struct ObjectStat: Encodable {
    var url: String
    var bucket: String
    var key: String
    var size: Int64?
    var etag: String?
    var contentType: String?
    var lastModified: String?
    var metadata: [String: String]
    var versionId: String?
    var crc64: String?
    var crc64nvme: String?
    var storageClass: String?
    var tagCount: Int?

    init(location: ObjectURL, attributes: ObjectAttributes, vendor: StorageVendor) {
        url = RemoteLocation.text(location)
        bucket = location.bucket
        key = location.key ?? ""
        size = attributes.contentLength
        etag = attributes.etag
        contentType = attributes.contentType
        lastModified = attributes.lastModified.map(JSONOutput.iso8601)
        metadata = attributes.metadata
        versionId = attributes.versionID
        crc64 = attributes.crc64.map { String($0) }
        crc64nvme = attributes.crc64NVME.map(CRC64.base64)
        // S3 and OBS name the storage class only when it is not Standard; OSS always names it.
        storageClass = attributes.storageClass ?? (vendor == .oss ? nil : "STANDARD")
        tagCount = attributes.tagCount
    }

    func printText() {
        let rows: [(String, String?)] = [
            ("URL", url), ("Size", size.map { String($0) }), ("ETag", etag), ("Content-Type", contentType),
            ("Last-Modified", lastModified), ("Storage-Class", storageClass), ("Version-Id", versionId),
            ("CRC64", crc64), ("CRC64NVME", crc64nvme), ("Tags", tagCount.map { String($0) }),
        ]
        for case let (name, value?) in rows {
            printLine("\(name): \(value)")
        }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            printLine("Metadata: \(name): \(value)")
        }
    }
}

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

/// `objstore ls URL`: lists objects under a bucket or prefix.
struct ListCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the buckets, or the objects under a bucket or prefix.",
        discussion: """
            With no URL, or with a bare oss://, obs:// or s3://, lists the buckets the credentials own \
            ('CREATED NAME' lines, or {"name","creationDate","region"} with --json); with no URL the service \
            is the one whose credentials the environment holds (OSS_*, OBS_* or AWS_*), when exactly one does.

            Without --recursive, keys are grouped at the next '/' and the groups print as 'PRE prefix/'. \
            Text lines are 'LAST-MODIFIED SIZE KEY' with the full key; --json prints one JSON object per line \
            ({"key","size","lastModified","etag","storageClass"} or {"prefix"}).

            With --incomplete, lists the unfinished multipart uploads under the bucket or prefix instead: \
            'INITIATED UPLOAD-ID KEY' lines, or {"key","uploadID","initiated","storageClass"} with --json. \
            'objstore rm --incomplete URL' aborts them.

            With --versions, lists every version and delete marker of the keys instead, newest first per key: \
            'LAST-MODIFIED SIZE KEY VERSION-ID' lines ending in ' (latest)' for the current version and \
            'DELETE-MARKER' in place of the size for a delete marker; \
            {"key","versionID","isLatest","isDeleteMarker","size","lastModified","etag","storageClass"} with --json.
            """
    )

    @Argument(help: "oss://BUCKET[/PREFIX], obs://BUCKET[/PREFIX] or s3://BUCKET[/PREFIX]; none lists buckets")
    var url: String?

    @Flag(name: .shortAndLong, help: "List every key under the prefix instead of one level.")
    var recursive = false

    @Flag(help: "List the unfinished multipart uploads under the bucket or prefix instead of objects.")
    var incomplete = false

    @Flag(help: "List every version and delete marker of the keys (a versioned bucket's history).")
    var versions = false

    @Flag(help: "Print JSON lines instead of text.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        guard let url, !Self.bareSchemes.keys.contains(url.lowercased()) else {
            guard !recursive else { throw CLIError.usage("ls: --recursive lists the keys of a bucket; name one") }
            guard !incomplete else { throw CLIError.usage("ls: --incomplete lists the uploads of a bucket; name one") }
            guard !versions else { throw CLIError.usage("ls: --versions lists the versions in a bucket; name one") }
            return try await listBuckets(Self.vendor(named: url))
        }
        let location = try RemoteLocation.any(url)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            guard !incomplete else {
                for try await page in client.listMultipartUploads(bucket: location.bucket, prefix: location.key) {
                    for upload in page.uploads {
                        try emit(upload: upload)
                    }
                }
                return
            }
            guard !versions else {
                for try await page in client.listObjectVersions(
                    bucket: location.bucket,
                    prefix: location.key,
                    delimiter: recursive ? nil : "/"
                ).readingAhead() {
                    for prefix in page.commonPrefixes {
                        try emit(prefix: prefix)
                    }
                    for version in page.versions {
                        try emit(version: version)
                    }
                }
                return
            }
            for try await page in client.listObjects(
                bucket: location.bucket,
                prefix: location.key,
                delimiter: recursive ? nil : "/"
            ).readingAhead() {
                for prefix in page.commonPrefixes {
                    try emit(prefix: prefix)
                }
                for object in page.contents {
                    try emit(object: object)
                }
            }
        }
    }

    /// `oss://`, `obs://` and `s3://`, which name a service and no bucket.
    private static let bareSchemes: [String: StorageVendor] = ["oss://": .oss, "obs://": .obs, "s3://": .s3]

    /// The service whose buckets to list: the bare scheme's, or with no URL the only one whose
    /// credentials the environment holds.
    static func vendor(
        named url: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CLIError) -> StorageVendor {
        if let url, let vendor = bareSchemes[url.lowercased()] { return vendor }
        let variables: [(vendor: StorageVendor, names: [String])] = [
            (.oss, ["OSS_ACCESS_KEY_ID", "ALIBABA_CLOUD_PROFILE"]), (.obs, ["OBS_ACCESS_KEY_ID"]),
            (.s3, ["AWS_ACCESS_KEY_ID", "AWS_PROFILE"]),
        ]
        let configured = variables.filter { $0.names.contains { !(environment[$0] ?? "").isEmpty } }.map(\.vendor)
        // One server in several dialects (what `objstore serve` exports): its buckets are listed once.
        let endpoints = Set(configured.map { environment[$0.endpointVariable] ?? "" })
        if configured.count > 1, endpoints.count == 1, endpoints.first?.isEmpty == false {
            return configured.contains(.s3) ? .s3 : configured[0]
        }
        guard configured.count == 1, let vendor = configured.first else {
            throw .usage(
                "ls: say which service's buckets to list: objstore ls oss://, objstore ls obs:// or objstore ls s3:// "
                    + (configured.isEmpty
                        ? "(none of OSS_ACCESS_KEY_ID, OBS_ACCESS_KEY_ID, AWS_ACCESS_KEY_ID, AWS_PROFILE is set)"
                        : "(credentials for several services are set)")
            )
        }
        return vendor
    }

    private func listBuckets(_ vendor: StorageVendor) async throws {
        try await ClientFactory(options: remote).run(on: vendor) { client in
            for bucket in try await client.listBuckets().buckets {
                let created = bucket.creationDate.map(JSONOutput.iso8601)
                try emit(
                    ListedBucket(name: bucket.name, creationDate: created, region: bucket.region),
                    "\(Self.pad(created ?? "-", 20)) \(bucket.name)"
                )
            }
        }
    }

    private func emit(prefix: String) throws {
        try emit(ListedPrefix(prefix: prefix), "\(String(repeating: " ", count: 20)) \(Self.pad("PRE", 12)) \(prefix)")
    }

    private func emit(object: ListObjectsResponse.Object) throws {
        let modified = object.lastModified.map(JSONOutput.iso8601)
        try emit(
            ListedObject(
                key: object.key,
                size: object.size,
                lastModified: modified,
                etag: object.etag,
                storageClass: object.storageClass
            ),
            "\(Self.pad(modified ?? "-", 20)) \(Self.pad(String(object.size), 12)) \(object.key)"
        )
    }

    private func emit(version: ListObjectVersionsResponse.Version) throws {
        let modified = version.lastModified.map(JSONOutput.iso8601)
        let size = version.isDeleteMarker ? "DELETE-MARKER" : String(version.size)
        try emit(
            ListedVersion(
                key: version.key,
                versionID: version.versionID,
                isLatest: version.isLatest,
                isDeleteMarker: version.isDeleteMarker,
                size: version.size,
                lastModified: modified,
                etag: version.etag,
                storageClass: version.storageClass
            ),
            "\(Self.pad(modified ?? "-", 20)) \(Self.pad(size, 13)) \(version.key) \(version.versionID)"
                + (version.isLatest ? " (latest)" : "")
        )
    }

    private func emit(upload: ListMultipartUploadsResponse.Upload) throws {
        let initiated = upload.initiated.map(JSONOutput.iso8601)
        try emit(
            ListedUpload(
                key: upload.key,
                uploadID: upload.uploadID,
                initiated: initiated,
                storageClass: upload.storageClass
            ),
            "\(Self.pad(initiated ?? "-", 20)) \(upload.uploadID) \(upload.key)"
        )
    }

    /// Prints one listed item: `record` as a JSON line with `--json`, else `line`.
    private func emit(_ record: some Encodable, _ line: @autoclosure () -> String) throws {
        if json {
            try JSONOutput.print(record)
        } else {
            printLine(line())
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

private struct ListedVersion: Encodable {
    var key: String
    var versionID: String
    var isLatest: Bool
    var isDeleteMarker: Bool
    var size: Int64
    var lastModified: String?
    var etag: String?
    var storageClass: String?
}

private struct ListedBucket: Encodable {
    var name: String
    var creationDate: String?
    var region: String?
}

private struct ListedUpload: Encodable {
    var key: String
    var uploadID: String
    var initiated: String?
    var storageClass: String?
}

private struct ListedPrefix: Encodable {
    var prefix: String
}

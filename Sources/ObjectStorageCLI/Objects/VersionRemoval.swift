//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// Removes every version and delete marker under a prefix, for good: `rm -r --all-versions` and `rb --force`
/// (a versioned bucket is not empty, and cannot be deleted, while any of them remains).
struct VersionRemoval {
    var location: ObjectURL
    var client: ObjectStorageClient
    var output: OutputFlags
    var dryrun: Bool

    /// What was removed (or with `--dryrun`, would be).
    struct Counts {
        var versions = 0
        var deleteMarkers = 0
        var failures = 0
    }

    /// Removes the versions of `location`'s key and of every key under `key/` (the whole bucket for a bucket URL),
    /// in batches of 1000, printing `delete: URL (version ID)` or `delete: URL (delete marker ID)` for each.
    func run() async throws -> Counts {
        let key = location.key ?? ""
        let directory = key.isEmpty || key.hasSuffix("/") ? key : key + "/"
        var counts = Counts()
        var batch: [ListObjectVersionsResponse.Version] = []
        for try await page in client.listObjectVersions(bucket: location.bucket, prefix: key.isEmpty ? nil : key) {
            for version in page.versions where version.key == key || version.key.hasPrefix(directory) {
                batch.append(version)
                if batch.count == RemoveCommand.batchSize {
                    try await self.remove(batch, counts: &counts)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try await self.remove(batch, counts: &counts) }
        return counts
    }

    private func remove(_ batch: [ListObjectVersionsResponse.Version], counts: inout Counts) async throws {
        var failed = Set<ObjectVersion>()
        if !dryrun {
            let response = try await client.deleteObjects(
                bucket: location.bucket,
                objects: batch.map { ObjectVersion(key: $0.key, versionID: $0.versionID) },
                quiet: true
            )
            for failure in response.failures {
                failed.insert(ObjectVersion(key: failure.key, versionID: failure.versionID))
                let url = ObjectURL(vendor: location.vendor, bucket: location.bucket, key: failure.key)
                printError(
                    "objstore: delete failed: \(RemoteLocation.text(url)) (version \(failure.versionID ?? "-")): "
                        + "\(failure.code): \(failure.message)"
                )
            }
            counts.failures += response.failures.count
        }
        for version in batch where !failed.contains(ObjectVersion(key: version.key, versionID: version.versionID)) {
            let url = ObjectURL(vendor: location.vendor, bucket: location.bucket, key: version.key)
            let what = version.isDeleteMarker ? "delete marker" : "version"
            output.report(
                "\(dryrun ? "(dryrun) " : "")delete: \(RemoteLocation.text(url)) (\(what) \(version.versionID))"
            )
            if version.isDeleteMarker { counts.deleteMarkers += 1 } else { counts.versions += 1 }
        }
    }
}

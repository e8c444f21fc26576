//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The older versions and delete markers of one key, as a data directory keeps them
/// (`meta/SHA256(key).versions.json`), newest first.
struct VersionsFile: Codable {
    var key: String
    var versions: [Entry]

    struct Entry: Codable {
        var versionID: String
        var lastModified: Int64
        var lastModifiedMilliseconds: Int64
        /// The object's metadata, with its data files; `nil` for a delete marker.
        var metadata: ObjectMetadata?

        init(_ version: StoredVersion) {
            self.versionID = version.versionID
            self.lastModified = version.lastModified
            self.lastModifiedMilliseconds = version.lastModifiedMilliseconds
            self.metadata = version.object?.metadata
        }

        /// The version, its blob in the bucket directory `directory`.
        func version(in directory: String) -> StoredVersion {
            guard let metadata, let files = metadata.dataFiles else {
                return StoredVersion(
                    deleteMarker: versionID,
                    lastModified: lastModified,
                    lastModifiedMilliseconds: lastModifiedMilliseconds
                )
            }
            return StoredVersion(StoredObject(stored: metadata, files: files, in: directory))
        }
    }
}

extension StoredObject {
    /// An object of a data directory: `metadata` and its data `files` in the bucket directory `directory`.
    init(stored metadata: ObjectMetadata, files: [ObjectMetadata.DataFile], in directory: String) {
        self.init(
            metadata: metadata,
            blob: .files(files.map { BlobFile(path: directory + "/data/" + $0.name, size: $0.size) })
        )
    }
}

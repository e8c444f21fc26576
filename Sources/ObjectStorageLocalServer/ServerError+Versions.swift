//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension ServerError {
    /// A GET or HEAD that met a delete marker: `404 NoSuchKey` when the marker is the key's latest version and no
    /// version was named, `405 MethodNotAllowed` when the request named the marker; both say `delete-marker: true`.
    static func deleteMarker(_ marker: StoredVersion, key: String, named: Bool) -> ServerError {
        var error = named ? ServerError.methodNotAllowed("GET") : ServerError.noSuchKey(key)
        error.deleteMarkerVersionID = marker.versionID
        error.headers.append(("Last-Modified", HTTPDate.imfFixdate(marker.lastModified)))
        return error
    }

    /// A version id the key does not have.
    static func noSuchVersion(_ versionID: String, key: String) -> ServerError {
        ServerError(
            status: 404,
            code: "NoSuchVersion",
            message: "The specified version does not exist.",
            details: [("Key", key), ("VersionId", versionID)]
        )
    }
}

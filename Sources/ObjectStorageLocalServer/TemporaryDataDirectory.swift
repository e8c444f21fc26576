//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
import ObjectStorageSigning
#else
import Foundation
#endif

/// A new, uniquely named data directory (mode 0700) under the system's temporary directory, for a server that
/// keeps nothing once it stops (``LocalObjectServer/withRunning(vendor:faults:logger:configureServer:configureClient:isolation:_:)`` and
/// `objstore serve`).
package struct TemporaryDataDirectory: Sendable {
    /// Why the directory could not be made.
    package struct CreationFailed: Error, CustomStringConvertible {
        /// The directory that could not be made.
        package var path: String
        /// The underlying error's description.
        package var reason: String
        package var description: String { "cannot create the temporary data directory \(path): \(reason)" }
    }

    /// The directory's path.
    package let path: String

    /// Creates the directory.
    ///
    /// - Parameter prefix: The start of the directory's name; a UUID follows.
    /// - Returns: The new directory.
    /// - Throws: ``CreationFailed`` when it cannot be made.
    package static func create(
        prefix: String = "objstore-local-server-"
    ) throws(CreationFailed) -> TemporaryDataDirectory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString).path
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw CreationFailed(path: path, reason: "\(error)")
        }
        return TemporaryDataDirectory(path: path)
    }

    /// Deletes the directory and everything in it.
    package func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Where the CLI keeps the files a command finds again on its next run (directory jobs' manifests, copies'
/// checkpoints): `$XDG_CACHE_HOME/objstore/<kind>` (`~/.cache` without the variable), private to the user (mode
/// 0700), never the shared temporary directory, where another account could plant a file or a link at a name it
/// can predict.
enum CacheDirectory {
    /// The directory for `kind` (`jobs`, `copies`), created when missing.
    ///
    /// - Parameters:
    ///   - kind: The subdirectory.
    ///   - option: The option that names a file elsewhere instead, for the error.
    /// - Returns: The directory's path.
    /// - Throws: ``CLIError/invalidInput(_:)`` when it cannot be created.
    static func path(_ kind: String, otherwise option: String) throws(CLIError) -> String {
        let environment = ProcessInfo.processInfo.environment
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.cache")
        let directory = cache + "/objstore/" + kind
        do {
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .invalidInput("cannot create '\(directory)' (set XDG_CACHE_HOME or \(option))")
        }
        return directory
    }
}

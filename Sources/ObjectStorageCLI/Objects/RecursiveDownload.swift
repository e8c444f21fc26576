//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// `objstore cp --recursive REMOTE_PREFIX LOCAL_DIR`: downloads every object under a prefix into a
/// directory, never writing outside it.
///
/// Keys are mapped with ``LocalPaths``: a key that would escape the directory or change meaning
/// (`../`, an absolute path, a backslash, NUL, a control character, an empty component) is skipped
/// with a line on standard error, and so is a download that fails; the other objects are still
/// downloaded. The command then exits 1 naming how many were skipped or failed, so a script notices.
/// Directory markers (keys ending in `/`) are skipped silently. Ctrl-C stops at once (exit 130).
enum RecursiveDownload {
    /// What happened to the listing.
    struct Summary {
        var downloaded = 0
        var unsafe = 0
        var failed = 0
    }

    static func run(
        from origin: ObjectURL,
        toDirectory directory: String,
        flags: TransferFlags,
        output: OutputFlags,
        client: ObjectStorageClient
    ) async throws -> Summary {
        var prefix = origin.key ?? ""
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        var summary = Summary()
        for try await page in client.listObjectsV2(bucket: origin.bucket, prefix: prefix.isEmpty ? nil : prefix) {
            for object in page.contents where !LocalPaths.isDirectoryMarker(object.key) {
                try Task.checkCancellation()
                let source = ObjectURL(provider: origin.provider, bucket: origin.bucket, key: object.key)
                let path: String
                do {
                    path = try LocalPaths.path(forKey: object.key, removingPrefix: prefix, under: directory)
                    try LocalPaths.createParentDirectories(of: path, under: directory)
                } catch {
                    printError("cp: skipped: \(RemoteFailure.cliError(error).message)")
                    summary.unsafe += 1
                    continue
                }
                do {
                    try await CopyTransfer.download(
                        from: source,
                        toFile: path,
                        flags: flags,
                        client: client,
                        bar: ProgressBar(label: "download", output: output.level)
                    )
                    output.report("download: \(RemoteLocation.text(source)) to \(path)")
                    summary.downloaded += 1
                } catch {
                    if Task.isCancelled || error is CancellationError { throw error }
                    printError("cp: failed: \(RemoteLocation.text(source)): \(RemoteFailure.cliError(error).message)")
                    summary.failed += 1
                }
            }
        }
        return summary
    }

    /// The local directory, created when missing; refuses a path that exists and is not a directory.
    static func prepareDirectory(_ path: String) throws(CLIError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .usage("cp: '\(path)' exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .invalidInput("cp: cannot create the directory '\(path)'")
        }
    }
}

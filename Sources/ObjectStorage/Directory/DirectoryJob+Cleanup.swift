//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DirectoryJob {
    /// Flushes the downloaded files of a job to disk with one call (they are written without an `fsync` each).
    func syncFileSystem() {
        guard self.direction == .download, !self.options.isDryRun else { return }
        #if canImport(Glibc)
        // `syncfs` (one file system, not all of them) is declared only with _GNU_SOURCE, which the Glibc
        // module does not set.
        typealias SyncFileSystem = @convention(c) (Int32) -> Int32
        guard let root = self.root, let symbol = dlsym(nil, "syncfs") else { return sync() }
        _ = unsafeBitCast(symbol, to: SyncFileSystem.self)(root.descriptor)
        #else
        sync()
        #endif
    }

    /// The checkpoint of a large object, beside the manifest: named by the job's manifest and a hash of the name.
    static func checkpointPath(manifest: String, name: String, direction: Direction) -> String {
        let suffix = direction == .download ? CheckpointPaths.downloadSuffix : CheckpointPaths.uploadSuffix
        return manifest + "-" + JobFileName.hash(name) + suffix
    }

    /// Discards what large objects started by this job and never finished left behind, once the job ends with no
    /// failure: their source vanished, or their name is now filtered out, so no run will resume them. An upload's
    /// multipart upload is aborted (its parts are billed until then) and a download's `.part` file deleted, with
    /// their checkpoints. A copy's unfinished multipart upload is left to `ls --incomplete` / `rm --incomplete`.
    func discardAbandonedCheckpoints(manifest: DirectoryManifest, state: RunState) async {
        let started = manifest.started.merging(state.startedLarge) { first, _ in first }
        for (bytes, name) in started
        where !state.finishedLarge.contains(bytes) && manifest.finished[bytes] == nil {
            var options = TransferOptions(enableCheckpoint: true)
            options.checkpointFilePath = Self.checkpointPath(
                manifest: manifest.path,
                name: name,
                direction: self.direction
            )
            switch self.direction {
            case .upload:
                _ = try? await self.client.abandonUploadFile(
                    from: self.directory + "/" + name,
                    options: options,
                    logger: self.logger
                )
            case .download:
                guard
                    let path = try? LocalPaths.path(
                        forKey: self.prefix + name,
                        removingPrefix: self.prefix,
                        under: self.directory
                    ),
                    let root = self.root,
                    let destination = try? LocalPaths.destination(of: path, under: root, creating: false)
                else { continue }
                _ = try? self.client.abandonResumableDownload(to: destination, options: options, logger: self.logger)
            case .copy:
                continue
            }
        }
    }

    // MARK: Deleting

    /// Deletes the names the source does not have, once every transfer has succeeded.
    func deleteExtraneous(state: inout RunState) async throws {
        let extraneous = state.extraneous
        state.extraneous = []
        guard !extraneous.isEmpty else { return }
        guard state.summary.failed == 0 else {
            state.summary.deletionsWithheld = extraneous.count
            return
        }
        if self.options.isDryRun {
            for (name, _) in extraneous { self.report(.deleted(name: name), &state) }
            return
        }
        switch self.direction {
        case .upload, .copy:
            var start = 0
            while start < extraneous.count {
                try Task.checkCancellation()
                let batch = extraneous[start..<min(start + 1000, extraneous.count)]
                start += batch.count
                let names = Dictionary(batch.map { ($0.target, $0.name) }) { first, _ in first }
                let response = try await self.client.deleteObjects(bucket: self.bucket, keys: batch.map(\.target))
                for key in response.deleted {
                    self.report(.deleted(name: names[key] ?? key), &state)
                }
                for failure in response.failures {
                    // The key's code and message, with the status of the response that carried them.
                    let error = ServiceError(
                        statusCode: 200,
                        code: ServiceError.Code(rawValue: failure.code),
                        message: failure.message,
                        requestID: response.requestID,
                        details: ["Key": failure.key]
                    )
                    self.report(.deletionFailed(name: names[failure.key] ?? failure.key, error: error), &state)
                }
            }
        case .download:
            for (name, path) in extraneous {
                if let error = self.deleteFile(path) {
                    self.report(.deletionFailed(name: name, error: error), &state)
                } else {
                    self.report(.deleted(name: name), &state)
                }
            }
        }
    }

    /// Deletes a file of a download's directory, found from the job's root one real directory at a time, so that
    /// a link in the way (planted, or swapped in since the walk) never leads the deletion outside the directory.
    ///
    /// - Returns: `nil` when the file is gone, else why it is not: ``ObjectStorageError/Code/unsafePath`` when a link
    ///   is in the way, ``ObjectStorageError/Code/fileSystem`` when the system refuses.
    private func deleteFile(_ path: String) -> ObjectStorageError? {
        guard let root = self.root else {
            return ObjectStorageError(code: .fileSystem, message: "cannot delete: the job's directory is not open")
        }
        let destination: DownloadDestination
        do {
            destination = try LocalPaths.destination(of: path, under: root, creating: false)
        } catch  where error.code == .unsafePath {
            return ObjectStorageError(code: .unsafePath, message: "not deleted: \(error.message)")
        } catch {
            var info = stat()
            guard lstat(path, &info) == 0 || errno != ENOENT else { return nil }
            return ObjectStorageError(code: error.code, message: "cannot delete: \(error.message)")
        }
        guard let failure = destination.directory.remove(destination.name) else { return nil }
        return ObjectStorageError(code: .fileSystem, message: "cannot delete: \(SystemErrorText.describe(failure))")
    }
}

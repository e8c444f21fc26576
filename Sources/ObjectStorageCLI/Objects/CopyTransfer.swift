//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageSigning

/// The transfer engine `cp` uses, one function per direction: the resumable `uploadFile` and
/// `resumableDownload` engines for files, the resumable server-side copy between objects.
enum CopyTransfer {
    /// Runs `transfer` with a progress bar labelled `verb`, then reports `verb: from to to (figures)` in the one
    /// line every single-object `cp` prints; a `--no-clobber` write the service refused is reported as kept.
    static func reported(
        _ verb: String,
        from: String,
        to: String,
        flags: TransferFlags,
        output: OutputFlags,
        _ transfer: (ProgressBar) async throws -> String
    ) async throws {
        do {
            let figures = try await transfer(ProgressBar(label: verb, output: output.level))
            output.report("\(verb): \(from) to \(to) (\(figures))")
        } catch let error where flags.isKept(error) {
            TransferFlags.reportKept(to, output: output)
        }
    }

    /// Local file → object with the resumable upload engine, reporting progress on `bar`.
    ///
    /// A cancelled task (Ctrl-C) keeps the checkpoint, so rerunning the same command resumes.
    ///
    /// - Returns: The figures of the transfer, for the line that reports it (the same for the three directions).
    static func upload(
        file path: String,
        to destination: ObjectURL,
        contentType: String?,
        flags: TransferFlags,
        client: ObjectStorageClient,
        bar: ProgressBar
    ) async throws -> String {
        let attributes = flags.uploadAttributes(contentType: contentType)
        let options = flags.options
        let checkpoint = options.checkpoint { try CheckpointPaths.upload(source: path, override: $0) }
        return try await reporting(bar, checkpoint: checkpoint) {
            try await client.uploadFile(
                from: path,
                bucket: destination.bucket,
                key: destination.key ?? "",
                attributes: attributes,
                options: options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
    }

    /// Object → local file with the resumable download engine, reporting progress on `bar`. The file appears only
    /// when complete; a cancelled task (Ctrl-C) keeps the checkpoint for a rerun.
    ///
    /// - Parameter createsDirectory: Whether a missing directory of the file is created: when the command named
    ///   a directory (`cp URL down/`), as aws-cli and `cp -r` do. A file path whose directory is missing fails
    ///   instead: a mistyped path is not made real.
    static func download(
        from source: ObjectURL,
        versionID: String? = nil,
        toFile path: String,
        createsDirectory: Bool,
        flags: TransferFlags,
        client: ObjectStorageClient,
        bar: ProgressBar
    ) async throws -> String {
        if createsDirectory {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError(
                    status: .failure,
                    message: "cp: cannot create the directory '\(directory)': \(error.localizedDescription)"
                )
            }
        }
        let options = flags.options
        let checkpoint = options.checkpoint { try CheckpointPaths.download(destination: path, override: $0) }
        return try await reporting(bar, checkpoint: checkpoint) {
            try await client.resumableDownload(
                bucket: source.bucket,
                key: source.key ?? "",
                versionID: versionID,
                to: path,
                options: options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
    }

    /// Object → object with the resumable copy engine: on one endpoint server-side (one CopyObject for a source
    /// that fits in one part, parallel UploadPartCopy parts for a larger one); between two services streamed
    /// through this process, the source read by `sourceClient`. A cancelled task (Ctrl-C) keeps the checkpoint,
    /// so rerunning the same command resumes without copying the finished parts again.
    static func copy(
        from source: ObjectURL,
        versionID: String? = nil,
        to destination: ObjectURL,
        flags: TransferFlags,
        client: ObjectStorageClient,
        sourceClient: ObjectStorageClient? = nil,
        bar: ProgressBar
    ) async throws -> String {
        var options = flags.options
        if options.enableCheckpoint && options.checkpointFilePath == nil {
            do {
                options.checkpointFilePath = try defaultCheckpointPath(from: source, to: destination, client: client)
            } catch {
                // No place of the user's own for it: the copy runs without one, rather than in a shared directory.
                options.enableCheckpoint = false
                if bar.output != .errors {
                    printError("cp: warning: no checkpoint: \(error.message); a rerun will start over")
                }
            }
        }
        let checkpoint = options.checkpoint { $0 }
        return try await reporting(bar, checkpoint: checkpoint) {
            try await client.resumableCopy(
                bucket: destination.bucket,
                key: destination.key ?? "",
                from: sourceClient,
                sourceBucket: source.bucket,
                sourceKey: source.key ?? "",
                sourceVersionID: versionID,
                attributes: flags.uploadAttributes(contentType: nil),
                options: options,
                logger: bar.logger,
                progress: bar.handler
            )
        }
    }

    /// Where a copy keeps its checkpoint without `--checkpoint-file`: a copy has no local file to put it beside,
    /// so in the user's cache (``CacheDirectory``), named after the endpoint, the source and the destination, so
    /// that the same command finds it again.
    static func defaultCheckpointPath(
        from source: ObjectURL,
        to destination: ObjectURL,
        client: ObjectStorageClient
    ) throws(CLIError)
        -> String
    {
        let configuration = client.configuration
        let identity = [
            configuration.vendor.description, configuration.endpoint.description,
            source.bucket, source.key ?? "", destination.bucket, destination.key ?? "",
        ].joined(separator: "\u{0}")
        let name = "objstore-copy-" + ByteEncoding.hex(Hashing.SHA256.hash(identity)).prefix(32) + ".ccp"
        return try CacheDirectory.path("copies", otherwise: "--checkpoint-file") + "/" + name
    }

    /// Runs a transfer and erases the bar, returning the transfer's figures; ends the bar's line if it fails or is
    /// interrupted, and an interruption (Ctrl-C) says what `checkpoint` (`nil` without one) keeps for a rerun.
    private static func reporting(
        _ bar: ProgressBar,
        checkpoint: String?,
        _ body: () async throws -> TransferResult
    ) async throws -> String {
        do {
            let result = try await body()
            bar.erase()
            return bar.figures(result)
        } catch {
            bar.interrupt()
            if Task.isCancelled || error is CancellationError {
                throw InterruptionNote.transfer(checkpoint: checkpoint)
            }
            throw error
        }
    }
}

extension TransferOptions {
    /// The checkpoint file a transfer with these options keeps: `path` of the `--checkpoint-file` given (`nil` for
    /// the default), or `nil` without a checkpoint or a usable path.
    fileprivate func checkpoint(_ path: (String?) throws -> String?) -> String? {
        guard enableCheckpoint else { return nil }
        return (try? path(checkpointFilePath)) ?? nil
    }
}

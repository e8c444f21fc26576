//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// `cp -r` and `sync` between a local directory and a remote prefix, through the SDK's directory jobs.
///
/// Each object prints a line in the aws-cli idiom (`upload: DIR/a to s3://b/p/a`, `(dryrun) delete: ...`), or
/// one JSON object with `--json`; skipped and failed names go to standard error. The summary line goes to
/// standard error. Exit status: 0 when every object made it, 1 when a transfer or deletion failed, 2 when
/// nothing failed but names were skipped (as aws s3 does).
struct DirectoryTransfer: Sendable {
    enum Mode: Sendable {
        case copy
        case sync(comparison: DirectoryTransferOptions.Comparison, delete: Bool)
    }

    var command: String
    var mode: Mode
    var source: String
    var destination: String
    var contentType: String?
    var flags: DirectoryFlags
    var transfer: TransferFlags
    var output: OutputFlags
    var remote: RemoteOptions

    func run() async throws {
        let sourceURL = try ObjectURL(parsing: source)
        let destinationURL = try ObjectURL(parsing: destination)
        if transfer.checkpointFile != nil {
            throw CLIError.usage(
                "\(command): --checkpoint-file names one file's checkpoint; a directory job keeps its own (see --manifest)"
            )
        }
        let uploadOnlyFlag = transfer.uploadOnlyFlags.first ?? (contentType == nil ? nil : "--content-type")
        if sourceURL != nil, let flag = uploadOnlyFlag {
            throw CLIError.usage("\(command): \(flag) applies to uploads only")
        }
        try transfer.checkNoClobber(command: command, destination: destinationURL?.vendor)
        if sourceURL == nil, flags.versionAt != nil {
            throw CLIError.usage("\(command): --version-at reads a bucket's versions; an upload's source has none")
        }
        switch (sourceURL, destinationURL) {
        case (nil, let target?):
            try transfer.checkTags(command, for: target.vendor)
            try await self.upload(to: target)
        case (let origin?, nil):
            try await self.download(from: origin)
        case (let origin?, let target?):
            try await self.copy(from: origin, to: target)
        case (nil, nil):
            throw CLIError.usage("\(command): one side must be a remote URL (oss://, obs:// or s3://)")
        }
    }

    /// Prints the events of `job`, whose remote side (the destination of a copy) is `prefix` in `remote`'s bucket.
    private func printer(_ job: EventPrinter.Job, remote: ObjectURL, prefix: String) -> EventPrinter {
        // Local paths are shown as the command named them (relative stays relative); the job gets absolute ones.
        let local: String? =
            switch job {
            case .upload: source
            case .download: destination
            case .copy: nil
            }
        return EventPrinter(
            command: command,
            job: job,
            json: flags.json,
            output: output,
            remote: remote,
            prefix: prefix,
            isDryRun: flags.dryrun,
            shownDirectory: local,
            progressLine: DirectoryProgressLine(level: output.level, json: flags.json)
        )
    }

    private func options(identity: String) throws(CLIError) -> DirectoryTransferOptions {
        var options = DirectoryTransferOptions()
        options.sourceAsOf = try flags.versionAt.map { text throws(CLIError) in
            try Instant.past(text, flag: "\(command): --version-at")
        }
        options.transfer = transfer.options
        if let transfers = flags.transfers { options.concurrency = transfers }
        options.excludes = flags.exclude
        options.includes = flags.include
        options.isDryRun = flags.dryrun
        options.followsSymbolicLinks = flags.followSymlinks
        switch mode {
        case .copy:
            options.comparison = .always
        case .sync(let comparison, let delete):
            options.comparison = comparison
            options.deletesExtraneous = delete
        }
        if transfer.checkpoint && !flags.dryrun {
            if let manifest = flags.manifest {
                options.manifestPath = manifest
            } else {
                do {
                    options.manifestPath = try Self.defaultManifest(identity: identity)
                } catch {
                    if output.level != .errors {
                        printError("\(command): warning: \(error.message); a rerun will start over")
                    }
                }
            }
        }
        return options
    }

    private func upload(to target: ObjectURL) async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            // As `cp` of a missing file: not found.
            throw CLIError(status: .notFound, message: "\(command): '\(source)': no such directory")
        }
        guard isDirectory.boolValue else {
            throw CLIError.invalidInput(
                "\(command): '\(source)' is not a directory (it is a file); copy it without --recursive"
            )
        }
        let directory = URL(fileURLWithPath: source).standardizedFileURL.path
        let attributes = transfer.uploadAttributes(contentType: contentType)
        try await self.runJob(.upload(directory: directory), remote: target) { job in
            try await job.client.uploadDirectory(
                directory,
                bucket: target.bucket,
                prefix: job.prefix,
                attributes: attributes,
                options: job.options,
                events: job.events
            )
        }
    }

    private func download(from origin: ObjectURL) async throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CLIError.usage("\(command): '\(destination)' exists and is not a directory")
        }
        let directory = URL(fileURLWithPath: destination).standardizedFileURL.path
        try await self.runJob(.download(directory: directory), remote: origin) { job in
            try await job.client.downloadDirectory(
                bucket: origin.bucket,
                prefix: job.prefix,
                to: directory,
                options: job.options,
                events: job.events
            )
        }
    }

    /// Between two prefixes: server-side within one service, streamed from one service to another (each
    /// service's endpoint and region then come from its own variables).
    private func copy(from origin: ObjectURL, to target: ObjectURL) async throws {
        let crossService = origin.vendor != target.vendor
        if crossService, remote.service.endpoint != nil || remote.service.region != nil {
            throw CLIError.usage(
                "\(command): --endpoint and --region name one service's endpoint; a copy from \(origin.vendor) to "
                    + "\(target.vendor) reads each service's endpoint and region from its environment variables"
            )
        }
        let sourcePrefix = Self.prefix(origin.key)
        try await self.runJob(
            .copy(source: origin, sourcePrefix: sourcePrefix),
            remote: target,
            streamingFrom: crossService ? origin.vendor : nil
        ) { job in
            try await job.client.copyPrefix(
                bucket: target.bucket,
                prefix: job.prefix,
                from: job.sourceClient,
                sourceBucket: origin.bucket,
                sourcePrefix: sourcePrefix,
                options: job.options,
                events: job.events
            )
        }
    }

    /// What a directory job runs with (see ``runJob(_:remote:streamingFrom:_:)``).
    private struct PreparedJob: Sendable {
        /// The client of the remote side's service.
        var client: ObjectStorageClient
        /// For a copy from another service, that service's client.
        var sourceClient: ObjectStorageClient?
        /// The remote side's prefix.
        var prefix: String
        /// The job's options.
        var options: DirectoryTransferOptions
        /// Prints each event.
        var events: @Sendable (DirectoryTransferEvent) -> Void
    }

    /// Runs one directory job: the options (the default manifest is named after the job, its two sides and the
    /// remote prefix), the client for `location`'s service (and one for `sourceVendor`'s when a copy streams from
    /// another service), `work` with them and the printer's event handler, and the summary line.
    ///
    /// - Parameters:
    ///   - job: What the printer says the job is.
    ///   - location: The remote side (a copy's destination); its key is the prefix.
    ///   - sourceVendor: For a copy from another service, that service.
    ///   - work: Runs the job.
    private func runJob(
        _ job: EventPrinter.Job,
        remote location: ObjectURL,
        streamingFrom sourceVendor: StorageVendor? = nil,
        _ work: @escaping @Sendable (PreparedJob) async throws -> DirectoryTransferSummary
    ) async throws {
        let prefix = Self.prefix(location.key)
        let (verb, otherSide) =
            switch job {
            case .upload(let directory): ("upload", directory)
            case .download(let directory): ("download", directory)
            case .copy(let origin, let sourcePrefix): ("copy", "\(RemoteLocation.text(origin)) \(sourcePrefix)")
            }
        let asOf = flags.versionAt.map { " as of \($0)" } ?? ""
        let options = try self.options(
            identity: "\(verb) \(otherSide) \(RemoteLocation.text(location)) \(prefix)\(asOf)"
        )
        let factory = ClientFactory(options: remote, bandwidthLimit: transfer.limitRate?.bytes)
        let client = try await factory.makeClient(for: location.vendor)
        let sourceClient: ObjectStorageClient? =
            if let sourceVendor { try await factory.makeClient(for: sourceVendor) } else { nil }
        let printer = self.printer(job, remote: location, prefix: prefix)
        let prepared = PreparedJob(
            client: client,
            sourceClient: sourceClient,
            prefix: prefix,
            options: options,
            events: printer.print
        )
        let command = self.command
        let manifest = options.manifestPath
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: location.vendor)) {
            let summary: DirectoryTransferSummary
            do {
                summary = try await work(prepared)
                try Task.checkCancellation()
            } catch {
                // The message starts on a line of its own, not after the progress line.
                printer.progressLine.clear()
                guard Task.isCancelled || error is CancellationError else { throw error }
                let counts = printer.progressLine.counts
                throw InterruptionNote.job(
                    done: counts.done,
                    found: counts.found,
                    isListingComplete: counts.isListingComplete,
                    manifest: manifest
                )
            }
            try Self.finish(summary, command: command, printer: printer)
        }
    }

    /// A URL's key as a "folder" prefix: `photos` and `photos/` both mean `photos/`.
    static func prefix(_ key: String?) -> String {
        guard let key, !key.isEmpty else { return "" }
        return key.hasSuffix("/") ? key : key + "/"
    }

    /// `$XDG_CACHE_HOME/objstore/jobs/<hash of the job>.manifest` (see ``CacheDirectory``).
    static func defaultManifest(identity: String) throws(CLIError) -> String {
        do {
            return try CacheDirectory.path("jobs", otherwise: "--manifest") + "/" + JobFileName.hash(identity)
                + ".manifest"
        } catch {
            throw .invalidInput("no manifest: \(error.message)")
        }
    }

    private static func finish(
        _ summary: DirectoryTransferSummary,
        command: String,
        printer: EventPrinter
    ) throws {
        let verb = printer.transferred
        var parts = [
            "\(summary.transferred) \(printer.isDryRun ? "to be " : "")\(verb) (\(ProgressBar.size(summary.transferredBytes)))"
        ]
        if summary.unchanged > 0 { parts.append("\(summary.unchanged) unchanged") }
        if summary.finishedEarlier > 0 { parts.append("\(summary.finishedEarlier) done by an earlier run") }
        if summary.deleted > 0 { parts.append("\(summary.deleted) \(printer.isDryRun ? "to be " : "")deleted") }
        if summary.kept > 0 { parts.append("\(summary.kept) kept (already at the destination)") }
        if summary.skipped > 0 { parts.append("\(summary.skipped) skipped") }
        if summary.failed > 0 { parts.append("\(summary.failed) failed") }
        if summary.deletionsWithheld > 0 {
            parts.append("\(summary.deletionsWithheld) deletions withheld after a failure")
        }
        let line = "\(command): " + parts.joined(separator: ", ")
        printer.progressLine.clear()
        // Archived objects fail again until restored: list them at the end, and say what to run.
        let archived = printer.archived.all
        if !archived.isEmpty {
            for url in archived { printError("\(command): archived: \(url)") }
            let restore = printer.sourcePrefixURL.map { "objstore restore -r \($0) --wait" } ?? "objstore restore"
            throw CLIError(
                status: .failure,
                message: line + "; \(archived.count) archived, listed above: restore them first with \(restore), "
                    + "then rerun the same command"
            )
        }
        if summary.failed > 0 || summary.deletionsWithheld > 0 {
            throw CLIError(status: .failure, message: line + "; rerun the same command to retry what failed")
        }
        if summary.skipped > 0 { throw CLIError(status: .notFound, message: line) }
        printer.summary(line)
    }
}

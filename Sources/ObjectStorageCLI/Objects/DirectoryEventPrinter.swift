//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import Synchronization

/// Prints a directory job's events: a line per object in the aws-cli idiom, or one JSON object per object, and its
/// progress on the terminal's progress line.
struct EventPrinter: Sendable {
    /// What the job does, and where its names are.
    enum Job: Sendable {
        case upload(directory: String)
        case download(directory: String)
        /// Event names are relative to `sourcePrefix` in the source bucket, as to the prefix in the destination's.
        case copy(source: ObjectURL, sourcePrefix: String)
    }

    /// One `--json` line.
    private struct Line: Encodable {
        var action: String
        var name: String
        var url: String?
        var path: String?
        var size: Int64
        var reason: String?
        var dryRun: Bool
    }

    var command: String
    var job: Job
    var json: Bool
    var output: OutputFlags
    /// The bucket of the job's remote side (a copy's destination).
    var remote: ObjectURL
    /// The prefix in ``remote`` that event names are relative to.
    var prefix: String
    var isDryRun: Bool
    /// The local directory as the command named it, shown in place of the job's absolute path.
    var shownDirectory: String?
    /// The terminal's progress line, cleared before each line printed.
    var progressLine: DirectoryProgressLine
    /// The URLs of the archived objects the job could not read, for its summary.
    let archived = ArchivedObjects()

    /// What the job did to an object it transferred: `uploaded`, `downloaded` or `copied`.
    var transferred: String {
        switch job {
        case .upload: "uploaded"
        case .download: "downloaded"
        case .copy: "copied"
        }
    }

    func print(_ event: DirectoryTransferEvent) {
        // A line nobody will see is not built: with --quiet or --only-show-errors, successes print nothing.
        if !json, output.level != .normal, event.isSuccess { return }
        let line: Line
        switch event {
        case .progress(let done, let found, let bytes, let isListingComplete):
            progressLine.update(
                objectsDone: done,
                objectsFound: found,
                bytesTransferred: bytes,
                isListingComplete: isListingComplete
            )
            return
        case .transferred(let name, let size):
            line = self.line(transferred, name, size: size)
        case .transferFailed(let name, let error):
            if (error as? ServiceError)?.code == .invalidObjectState {
                self.archived.add(self.sourceURL(name) ?? self.remoteURL(name))
            }
            line = self.line("failed", name, reason: RemoteFailure.cliError(error).message)
        case .deleted(let name):
            line = self.deletion("deleted", name)
        case .deletionFailed(let name, let error):
            line = self.deletion("failed", name, reason: RemoteFailure.cliError(error).message)
        case .skipped(let name, let reason):
            line = self.skip(name, reason: reason)
        }
        progressLine.clear()
        if json {
            try? JSONOutput.print(line)
        } else {
            self.printText(line)
        }
    }

    /// Prints the job's summary line on standard error, unless told to be silent.
    func summary(_ line: String) {
        progressLine.clear()
        if output.level == .normal { printError(line) }
    }

    // MARK: Lines

    private func printText(_ line: Line) {
        let dry = isDryRun ? "(dryrun) " : ""
        let remote = line.url ?? line.name
        let local = line.path ?? line.name
        let reason = CLIError.sentence(line.reason ?? "no reason given")
        switch line.action {
        case "uploaded": output.report("\(dry)upload: \(local) to \(remote)")
        case "downloaded": output.report("\(dry)download: \(remote) to \(local)")
        case "copied": output.report("\(dry)copy: \(self.sourceURL(line.name) ?? line.name) to \(remote)")
        case "deleted": output.report("\(dry)delete: \(line.url ?? local)")
        case "skipped":
            if output.level != .errors { printError("\(command): skipped '\(line.name)': \(reason)") }
        default:  // failed
            printError("\(command): failed: \(line.url ?? local): \(reason)")
        }
    }

    /// A transfer's line (or its failure's): the object's URL and, unless a copy, its local path.
    private func line(_ action: String, _ name: String, size: Int64 = 0, reason: String? = nil) -> Line {
        Line(
            action: action,
            name: name,
            url: self.remoteURL(name),
            path: self.localPath(name),
            size: size,
            reason: reason,
            dryRun: isDryRun
        )
    }

    /// A deletion's line (or its failure's): a download deletes a local file, the others an object.
    private func deletion(_ action: String, _ name: String, reason: String? = nil) -> Line {
        let isLocal = if case .download = job { true } else { false }
        return Line(
            action: action,
            name: name,
            url: isLocal ? nil : self.remoteURL(name),
            path: isLocal ? self.localPath(name) : nil,
            size: 0,
            reason: reason,
            dryRun: isDryRun
        )
    }

    /// A skipped name's line: where it is on the source side.
    private func skip(_ name: String, reason: String) -> Line {
        let url: String? =
            switch job {
            case .upload: nil
            case .download: self.remoteURL(name)
            case .copy: self.sourceURL(name)
            }
        return Line(
            action: "skipped",
            name: name,
            url: url,
            path: url == nil ? self.localPath(name) : nil,
            size: 0,
            reason: reason,
            dryRun: isDryRun
        )
    }

    /// The URL of the object `name` names on the job's remote side.
    private func remoteURL(_ name: String) -> String {
        RemoteLocation.text(ObjectURL(vendor: remote.vendor, bucket: remote.bucket, key: prefix + name))
    }

    /// The prefix the job reads objects under, as a URL: a download's source, or a copy's.
    var sourcePrefixURL: String? {
        switch job {
        case .upload: nil
        case .download: RemoteLocation.text(ObjectURL(vendor: remote.vendor, bucket: remote.bucket, key: prefix))
        case .copy(let source, let sourcePrefix):
            RemoteLocation.text(ObjectURL(vendor: source.vendor, bucket: source.bucket, key: sourcePrefix))
        }
    }

    /// The URL of the object `name` names in a copy's source, `nil` for another job.
    private func sourceURL(_ name: String) -> String? {
        guard case .copy(let source, let sourcePrefix) = job else { return nil }
        return RemoteLocation.text(ObjectURL(vendor: source.vendor, bucket: source.bucket, key: sourcePrefix + name))
    }

    /// The local path of the file `name` names, `nil` for a copy.
    private func localPath(_ name: String) -> String? {
        switch job {
        case .upload(let directory), .download(let directory):
            let shown = shownDirectory ?? directory
            return shown.hasSuffix("/") ? shown + name : shown + "/" + name
        case .copy:
            return nil
        }
    }
}

extension DirectoryTransferEvent {
    /// Whether the event reports an object moved or deleted as asked: what `--quiet` leaves out.
    fileprivate var isSuccess: Bool {
        switch self {
        case .transferred, .deleted: true
        case .progress, .transferFailed, .deletionFailed, .skipped: false
        }
    }
}

/// The archived objects a directory job met, collected as its events are printed.
final class ArchivedObjects: Sendable {
    private let urls = Mutex<[String]>([])

    func add(_ url: String) { self.urls.withLock { $0.append(url) } }

    /// The URLs, sorted.
    var all: [String] { self.urls.withLock { $0.sorted() } }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// Prints a directory job's events: a line per object in the aws-cli idiom, or one JSON object per object.
struct EventPrinter: Sendable {
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
    var json: Bool
    var output: OutputFlags
    /// The bucket the event keys are in.
    var remote: ObjectURL
    /// A copy's source bucket and prefix, which event names are relative to.
    var source: ObjectURL?
    var sourcePrefix: String
    var isDryRun: Bool
    /// The terminal's progress line, cleared before each line printed.
    var progressLine: DirectoryProgressLine

    func print(_ event: DirectoryTransferEvent) {
        progressLine.clear()
        let url = event.key.map {
            RemoteLocation.text(ObjectURL(vendor: remote.vendor, bucket: remote.bucket, key: $0))
        }
        let reason = event.error.map { RemoteFailure.cliError($0).message } ?? event.reason
        if json {
            let line = Line(
                action: event.action.rawValue,
                name: event.name,
                url: url,
                path: event.path,
                size: event.size,
                reason: reason,
                dryRun: event.isDryRun
            )
            try? JSONOutput.print(line)
            return
        }
        let dry = event.isDryRun ? "(dryrun) " : ""
        let local = event.path ?? event.name
        switch event.action {
        case .uploaded: output.report("\(dry)upload: \(local) to \(url ?? event.name)")
        case .downloaded: output.report("\(dry)download: \(url ?? event.name) to \(local)")
        case .copied:
            let from = source.map {
                RemoteLocation.text(ObjectURL(vendor: $0.vendor, bucket: $0.bucket, key: sourcePrefix + event.name))
            }
            output.report("\(dry)copy: \(from ?? event.name) to \(url ?? event.name)")
        case .deleted: output.report("\(dry)delete: \(url ?? local)")
        case .skipped:
            if output.level != .errors {
                printError(
                    "\(command): skipped '\(event.name)': \(CLIError.sentence(reason ?? "no reason given"))"
                )
            }
        case .failed:
            printError("\(command): failed: \(url ?? local): \(CLIError.sentence(reason ?? "no reason given"))")
        }
    }

    /// Prints the job's summary line on standard error, unless told to be silent.
    func summary(_ line: String) {
        progressLine.clear()
        if output.level == .normal { printError(line) }
    }
}

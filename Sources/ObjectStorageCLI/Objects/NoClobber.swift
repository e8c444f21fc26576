//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// `--no-clobber` (`cp`, `cp -r`, `sync`): each write is create-only, enforced by the service in the same request
/// (``WriteCondition/ifAbsent``), never by a HEAD before it, so that a key written by someone else in between is
/// not overwritten either. An object the service refuses because its key exists is reported as skipped, not as a
/// failure.
extension TransferFlags {
    /// The sentence a refused create-only write is reported with.
    static let keptReason = "already exists at the destination (--no-clobber)"

    /// Refuses `--no-clobber` where it cannot be honoured, before anything is sent: a download (the flag names the
    /// service's create-only write, which a local file has not), and a service that offers no create-only write
    /// (OBS documents none; a HEAD before each PUT would only look like one, losing every race).
    ///
    /// - Parameters:
    ///   - command: The command's name, for the message.
    ///   - destination: The vendor written to, `nil` for a download.
    func checkNoClobber(command: String, destination: StorageVendor?) throws(CLIError) {
        guard noClobber else { return }
        guard let destination else {
            throw .usage("\(command): --no-clobber applies to uploads and copies to a service, not to downloads")
        }
        if destination == .obs {
            throw .usage(
                "\(command): --no-clobber: OBS offers no create-only write (S3's If-None-Match or OSS's "
                    + "x-oss-forbid-overwrite), and a check before each write would not be one; nothing was sent"
            )
        }
    }

    /// Whether `error` is the service refusing a `--no-clobber` write because the key exists.
    func isKept(_ error: any Error) -> Bool {
        noClobber && (error as? ServiceError)?.isWriteConditionFailure == true
    }

    /// Reports a single `cp` whose `--no-clobber` write the service refused (on standard error, as `cp -r`
    /// reports a skipped name), unless only errors are shown: the command then exits 0.
    ///
    /// - Parameters:
    ///   - location: The destination's URL.
    ///   - output: The output flags.
    static func reportKept(_ location: String, output: OutputFlags) {
        if output.level != .errors { printError("cp: skipped '\(location)': \(keptReason)") }
    }
}

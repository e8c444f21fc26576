//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Why ``CheckpointStore`` did not resume from a checkpoint file.
///
/// Loading never throws and never crashes: every defect (a missing or torn file, a tampered
/// digest, a checkpoint of another object, an object that changed on the server, a temp file that
/// was shortened) becomes one of these reasons, and the transfer restarts cleanly. ``code`` is for
/// `switch`/tests, ``message`` for logs, ``field`` names the first mismatching field where there is
/// one (`bucket`, `etag`, `mtime`...).
package struct CheckpointInvalidReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of defect. A plain enum: the type is not public, so no client outside the package switches over
    /// it and the codes need no open set.
    package enum Code: String, Hashable, Sendable, CustomStringConvertible {
        /// No checkpoint file: the normal first run, not a defect.
        case missing
        /// The file exists but cannot be read (permissions, I/O error, not a regular file, too large).
        case unreadable
        /// Not a JSON document (truncated, random bytes), or its `data` does not fit the schema.
        case malformed
        /// JSON, but not a swift-object-storage checkpoint (`format` missing or different).
        case wrongFormat
        /// A checkpoint of the other kind (an upload checkpoint where a download one was expected).
        case wrongKind
        /// A `version` this build does not read (written by a newer release, or missing).
        case unsupportedVersion
        /// The SHA-256 of `data` does not equal `digest`: torn or edited.
        case digestMismatch
        /// Authentic but inconsistent content (a part index beyond the part count, a zero part size...).
        case invalidContent
        /// A checkpoint of another transfer: vendor, endpoint, bucket, key, versionId, range,
        /// destination or source path differ (``field`` says which).
        case identityMismatch
        /// Downloads: the fresh probe differs from the recorded object (size, ETag, Last-Modified,
        /// versionId or CRC64; ``field`` says which).
        case objectChanged
        /// Downloads: the temp file holding the finished parts is gone.
        case tempFileMissing
        /// Downloads: the temp file's real size is not the preallocated transfer length.
        case tempFileSizeMismatch
        /// Uploads: the source file no longer exists.
        case sourceMissing
        /// Uploads: the source file's size, mtime, inode or device changed (``field`` says which).
        case sourceChanged
        /// Uploads: the object parameters (content type, metadata, storage class...) differ from
        /// those the multipart upload was created with.
        case parametersChanged

        /// The code's name, e.g. `digestMismatch`.
        package var description: String {
            self.rawValue
        }
    }

    /// The kind of defect.
    package var code: Code
    /// The first field that differs, for identity/object/source mismatches (e.g. `etag`).
    package var field: String?
    /// A description for logs: what was expected and what was found. Never contains a secret.
    package var message: String

    /// Creates a reason.
    ///
    /// - Parameters:
    ///   - code: The kind of defect.
    ///   - field: The first mismatching field, if any.
    ///   - message: A description for logs.
    package init(code: Code, field: String? = nil, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// Whether this is the ordinary "no checkpoint yet" case rather than a defect worth a warning.
    package var isMissing: Bool { self.code == .missing }

    /// `<code>[(<field>)]: <message>`.
    package var description: String {
        if let field = self.field { return "\(self.code)(\(field)): \(self.message)" }
        return "\(self.code): \(self.message)"
    }

    static func mismatch(_ code: Code, field: String, expected: String, found: String) -> CheckpointInvalidReason {
        CheckpointInvalidReason(
            code: code,
            field: field,
            message: "\(field) is \(found) in the checkpoint, expected \(expected)"
        )
    }
}

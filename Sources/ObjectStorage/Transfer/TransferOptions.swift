//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageTransport

/// How ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)`` and
/// ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)`` move
/// a file: one type, with the same defaults, for both directions.
///
/// The defaults suit most transfers: 8 MiB parts, 8 at a time, integrity checked, **no checkpoint**.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// var options = TransferOptions()
/// options.enableCheckpoint = true      // a failed, cancelled or killed call resumes when called again
/// options.concurrency = 16
/// let up = try await client.uploadFile(from: "/data/db.tar", bucket: "backups", key: "db.tar", options: options)
/// let down = try await client.resumableDownload(bucket: "backups", key: "db.tar", to: "/restore/db.tar",
///                                               options: options)
/// ```
///
/// ### Why the checkpoint is off by default, in both directions
///
/// A checkpoint is a promise to come back: it leaves a file beside the local file (`<file>.ucp` for an
/// upload, `<destination>.dcp` and `<destination>.part` for a download) and, for an upload, a multipart
/// upload whose parts the service stores (and bills) until the upload is resumed or abandoned with
/// ``ObjectStorageClient/abandonUploadFile(from:options:logger:)``. Those are costs a caller
/// should choose, so ``enableCheckpoint`` is opt-in, as its name says and as both vendor SDKs have it (the
/// OBS SDK's `UploadFileRequest` and `DownloadFileRequest`, OSS's `Checkpoint` option). Without it a
/// failure cleans up after itself: the multipart upload is aborted, the temp file deleted. An upload from
/// a read-only directory also works without a checkpoint path. One rule for both directions means the same
/// options value behaves the same way whichever way it is used.
public struct TransferOptions: Sendable, Hashable {
    /// The default part size: 8 MiB.
    package static let defaultPartSize: Int64 = 8 << 20
    /// The default number of parts in flight: 8.
    package static let defaultConcurrency = 8
    /// The largest accepted ``concurrency``: 128.
    package static let maximumConcurrency = 128
    /// The most parts a transfer is cut into; ``partSize`` is raised to respect it.
    package static let maximumPartCount = 10_000

    /// The size of each part, in bytes (8 MiB by default).
    ///
    /// Uploads clamp it to the vendor's limits (OSS and OBS 100 KiB–5 GiB, S3 5 MiB–5 GiB); both directions
    /// raise it so a transfer has at most 10,000 parts (a part size aligned to 1 MiB that fits the file).
    /// A resumed transfer keeps the part size of the run that created its checkpoint.
    public var partSize: Int64 = TransferOptions.defaultPartSize
    /// How many parts are transferred at the same time, `1...128` (8 by default). With a checkpoint, a part keeps its slot until the checkpoint recording it is durable,
    /// so a killed process loses at most this many parts.
    public var concurrency: Int = TransferOptions.defaultConcurrency
    /// Records every finished part in a crash-safe, locked checkpoint so a failed, cancelled or killed
    /// transfer resumes when called again with the same arguments. Off by default (see above).
    public var enableCheckpoint = false
    /// The checkpoint file; `nil` for the default beside the local file (`<file>.ucp` for an upload,
    /// `<destination>.dcp` for a download). Its directory must exist.
    public var checkpointFilePath: String?
    /// How much the transfer checks end to end (``IntegrityCheck/full`` by default): the service's whole-object
    /// CRC-64, combined from the parts'; for a download without one, the MD5 of an unencrypted object's ETag,
    /// single-part or multipart. ``TransferResult/verification`` says what was checked.
    public var integrityCheck = IntegrityCheck.full
    /// Whether the transfer checks anything end to end (``integrityCheck`` is not ``IntegrityCheck/off``).
    var verifiesIntegrity: Bool { self.integrityCheck != .off }
    /// Uploads: sends `Content-MD5` with every part (or with the single PUT), so the service rejects a
    /// part damaged in transit. Each checked byte is read from disk twice; a copy streamed between endpoints
    /// reads each part whole before sending it, instead of streaming it through. Off by default; downloads
    /// ignore it.
    public var enableMD5Check = false
    /// Uploads and copies: uses a multipart upload (of UploadPartCopy parts, for a copy) even when the source
    /// fits in one request. Downloads ignore it.
    public var forceMultipart = false
    /// Downloads and copies: how many times the transfer starts over from zero when the source object changes
    /// while it runs (a 412 on `If-Match`, another ETag or size); 1 by default, 0 to fail at once. Bytes of two
    /// versions are never mixed. Uploads ignore it.
    public var restartsOnChange = 1
    /// Uploads and copies: a condition on the object the transfer writes (``WriteCondition``), checked by the
    /// service when it writes it (a single PUT or CopyObject, or the completion of a multipart upload; OSS also
    /// checks create-only when the multipart upload starts). `nil` (the default) writes unconditionally. Downloads
    /// ignore it.
    public var writeCondition: WriteCondition?

    /// Creates options, with the defaults for what is not given (`TransferOptions()` for all defaults).
    ///
    /// - Parameters:
    ///   - partSize: The part size in bytes (8 MiB by default).
    ///   - concurrency: The parts in flight, `1...128` (8 by default).
    ///   - enableCheckpoint: Whether the transfer is resumable through a checkpoint.
    ///   - checkpointFilePath: The checkpoint file, `nil` for the default.
    public init(
        partSize: Int64 = 8 << 20,
        concurrency: Int = 8,
        enableCheckpoint: Bool = false,
        checkpointFilePath: String? = nil
    ) {
        self.partSize = partSize
        self.concurrency = concurrency
        self.enableCheckpoint = enableCheckpoint
        self.checkpointFilePath = checkpointFilePath
    }

    /// Refuses options that cannot work, before anything is read or sent.
    func validate() throws(ObjectStorageError) {
        guard self.partSize > 0 else {
            throw .invalidArgument("part size \(self.partSize) must be positive")
        }
        guard (1...Self.maximumConcurrency).contains(self.concurrency) else {
            throw .invalidArgument("concurrency \(self.concurrency) is outside 1...\(Self.maximumConcurrency)")
        }
        guard self.restartsOnChange >= 0 else {
            throw .invalidArgument("restartsOnChange must not be negative, not \(self.restartsOnChange)")
        }
    }
}

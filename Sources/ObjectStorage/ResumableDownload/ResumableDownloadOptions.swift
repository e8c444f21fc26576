//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// How ``ObjectStorageClient/resumableDownload(bucket:key:to:options:logger:progress:)`` fetches an
/// object. The defaults suit most transfers; nothing needs changing for a plain resumable download.
///
/// ```swift
/// var options = ResumableDownloadOptions()
/// options.concurrency = 8
/// options.range = .bytes(0...(64 << 20) - 1)
/// ```
public struct ResumableDownloadOptions: Sendable, Hashable {
    /// The size of each ranged GET, in bytes (8 MiB by default). A resumed download keeps the part
    /// size of the run that created its checkpoint. Raised automatically so that a transfer has at
    /// most ``maximumPartCount`` parts, which keeps checkpoint saves small.
    public var partSize: Int64 = 8 << 20
    /// How many parts are fetched at once (4 by default, `1...1000`).
    public var concurrency: Int = 4
    /// Whether progress is recorded in a checkpoint file so that a paused, failed or killed download
    /// resumes where it stopped (on by default). When off, the temp file is deleted on failure.
    public var enableCheckpoint: Bool = true
    /// The checkpoint file; `nil` for `<destination>.dcp` beside the destination.
    public var checkpointFilePath: String?
    /// The object version to download; `nil` for the current one (whose version id, if the service
    /// reports one, is then pinned for every part).
    public var versionID: String?
    /// Whether the finished file is checked against the service's checksum where one is offered:
    /// OSS's CRC-64 of the whole object, or the MD5 ETag of a single-part, unencrypted S3/OBS object
    /// (on by default).
    public var verifyIntegrity: Bool = true
    /// Only these bytes of the object; `nil` for all of it.
    public var range: ByteRange?
    /// How many times the download starts over from zero when the object changes while it runs
    /// (a 412 on `If-Match`, another ETag or size); 1 by default, 0 to fail at once.
    public var restartsOnChange: Int = 1

    /// The most parts a transfer is cut into; ``partSize`` is raised to respect it.
    public static let maximumPartCount: Int64 = 10_000

    /// Creates options with the defaults.
    public init() {}
}

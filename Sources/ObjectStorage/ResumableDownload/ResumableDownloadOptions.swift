//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One ``ObjectStorageClient/resumableDownload(bucket:key:versionID:range:to:options:logger:progress:)``
/// call's options, as the download engine reads them: the shared ``TransferOptions`` plus what to fetch.
struct ResumableDownloadOptions: Sendable, Hashable {
    var transfer: TransferOptions
    /// The object version to download; `nil` for the current one (whose version id, if the service
    /// reports one, is then pinned for every part).
    var versionID: String?
    /// Only these bytes of the object; `nil` for all of it.
    var range: ByteRange?

    var partSize: Int64 { self.transfer.partSize }
    var concurrency: Int { self.transfer.concurrency }
    var enableCheckpoint: Bool { self.transfer.enableCheckpoint }
    var checkpointFilePath: String? { self.transfer.checkpointFilePath }
    var verifiesIntegrity: Bool { self.transfer.verifiesIntegrity }
    var integrityCheck: TransferOptions.IntegrityCheck { self.transfer.integrityCheck }
    var restartsOnChange: Int { self.transfer.restartsOnChange }

    /// The most parts a transfer is cut into; ``partSize`` is raised to respect it.
    static let maximumPartCount = Int64(TransferOptions.maximumPartCount)
}

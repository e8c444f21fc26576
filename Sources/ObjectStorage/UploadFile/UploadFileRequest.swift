//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)`` call's
/// arguments, as the upload engine reads them.
struct UploadFileRequest: Sendable {
    var bucket: String
    var key: String
    var filePath: String
    var attributes: UploadAttributes
    var options: TransferOptions

    var enableCheckpoint: Bool { self.options.enableCheckpoint }
    var enableMD5Check: Bool { self.options.enableMD5Check }
    var checkpointFilePath: String? { self.options.checkpointFilePath }
    var partSize: Int64 { self.options.partSize }
    var concurrency: Int { self.options.concurrency }
    var forceMultipart: Bool { self.options.forceMultipart }
    var enableCRC64Check: Bool { self.options.verifiesIntegrity }
}

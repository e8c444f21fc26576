//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorage

/// The arguments of one `uploadFile` call, kept in one value so a test can change one of them and
/// call again (resume with the same arguments, another key, another part size).
struct UploadFileCall: Sendable {
    var bucket: String
    var key: String
    var filePath: String
    var attributes = UploadAttributes()
    var options = TransferOptions()

    init(bucket: String, key: String, filePath: String) {
        self.bucket = bucket
        self.key = key
        self.filePath = filePath
    }
}

extension ObjectStorageClient {
    /// `uploadFile(from:bucket:key:attributes:options:logger:progress:)` with the call's arguments.
    func uploadFile(
        _ call: UploadFileCall,
        progress: TransferProgressHandler? = nil,
        logger: Logger? = nil
    ) async throws -> TransferResult {
        try await self.uploadFile(
            from: call.filePath,
            bucket: call.bucket,
            key: call.key,
            attributes: call.attributes,
            options: call.options,
            logger: logger,
            progress: progress
        )
    }

    /// `abandonUploadFile(from:options:logger:)` for the call's file and checkpoint.
    func abandonUploadFile(_ call: UploadFileCall) async throws -> Bool {
        try await self.abandonUploadFile(from: call.filePath, options: call.options)
    }
}

extension TransferResult {
    /// Whether the whole object's CRC-64 was compared with the service's and matched.
    var isCRC64Verified: Bool {
        if case .crc64 = self.verification { return true }
        return false
    }
}

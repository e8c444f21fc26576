//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// A bucket configuration document as it was put (`?cors`), with the dialect of the request that put it: an
/// unsigned request (a browser's preflight) is answered in that dialect. Kept as the bytes that were sent and read
/// again where it is used, so that what GET answers is what PUT stored. In a data directory, it is the file
/// `buckets/NAME/config/SUBRESOURCE.json`.
struct BucketDocument: Codable, Sendable, Hashable {
    /// The dialect's scheme name (`s3`, `oss`, `obs`).
    var dialectName: String
    var text: String

    init(dialect: StorageVendor, bytes: [UInt8]) {
        self.dialectName = dialect.description
        self.text = String(decoding: bytes, as: UTF8.self)
    }

    var dialect: StorageVendor { StorageVendor(scheme: self.dialectName) ?? .s3 }
    var bytes: [UInt8] { Array(self.text.utf8) }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The XML documents clients send (CreateBucket, DeleteObjects, CompleteMultipartUpload), read with the SDK's own
/// parser (``ObjectStorageSigning/XMLNode``) within the server's size bound.
enum RequestDocument {
    /// The largest request document accepted, in bytes.
    static let maximumSize = 4 << 20

    /// Parses a document; `nil` if it is not well formed, nests deeper than `XMLNode.maximumDepth` or is larger
    /// than ``maximumSize`` (callers answer `MalformedXML`).
    static func parse(_ bytes: [UInt8]) -> XMLNode? {
        guard bytes.count <= self.maximumSize else { return nil }
        return try? XMLNode.parse(bytes)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning

/// A response before it is written: status, headers and a body that may stream from a blob.
struct Reply: Sendable {
    enum Body: Sendable {
        case empty
        case bytes(ByteBuffer)
        /// `length` bytes of an open blob from `offset`.
        case blob(BlobReader, offset: Int64, length: Int64)
        /// A HEAD answer: the length the GET would have, and no body.
        case headOnly(length: Int64)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int = 200, headers: [(String, String)] = [], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func xml(_ writer: XMLWriter, status: Int = 200, headers: [(String, String)] = []) -> Reply {
        Reply(
            status: status,
            headers: headers + [("Content-Type", "application/xml")],
            body: .bytes(ByteBuffer(string: writer.text))
        )
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import ObjectStorageTransport
import Synchronization

/// A stream of `content` in chunks whose sizes cycle through `chunkSizes`, which throws ``StreamFailure`` once
/// `failAfter` bytes have been delivered.
struct ChunkedBytes: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The error the stream throws.
    struct StreamFailure: Error, Equatable {}

    let content: [UInt8]
    let chunkSizes: [Int]
    var failAfter: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: ChunkedBytes
        var offset = 0
        var index = 0

        mutating func next() async throws -> ByteBuffer? {
            if let failAfter = source.failAfter, offset >= failAfter { throw StreamFailure() }
            guard offset < source.content.count else { return nil }
            let size = Swift.min(source.chunkSizes[index % source.chunkSizes.count], source.content.count - offset)
            index += 1
            defer { offset += size }
            return ByteBuffer(bytes: source.content[offset..<offset + size])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

/// Counts the requests a client sends, by kind.
final class RequestTally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// PutObject requests.
    var puts: Int { counts.withLock { $0["PutObject", default: 0] } }
    /// UploadPart requests.
    var parts: Int { counts.withLock { $0["UploadPart", default: 0] } }
    /// CreateMultipartUpload requests.
    var creates: Int { counts.withLock { $0["CreateMultipartUpload", default: 0] } }
    /// Every request.
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// A transport that counts through this tally.
    func transport(_ base: any HTTPTransport) -> any HTTPTransport {
        RecordingTransport(base: base) { request in
            let kind: String
            switch request.method {
            case .PUT where request.url.contains("partNumber="): kind = "UploadPart"
            case .PUT: kind = "PutObject"
            case .POST where request.url.contains("uploads"): kind = "CreateMultipartUpload"
            default: kind = "\(request.method)"
            }
            self.counts.withLock { $0[kind, default: 0] += 1 }
        }
    }
}

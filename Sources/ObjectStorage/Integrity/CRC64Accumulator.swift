//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorageSigning
import Synchronization

/// A CRC-64/XZ (OSS's `crc64ecma`) of the bytes that went through a body, shared with the code
/// that checks it once the transfer ends.
final class CRC64Accumulator: Sendable {
    private let state = Mutex(CRC64())

    init() {}

    func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            self.state.withLock { $0.update(bufferPointer: bytes) }
        }
    }

    var value: UInt64 { self.state.withLock { $0.value } }
}

/// Passes buffers through unchanged while showing each to `observe` (a checksum's update) on its way.
struct ChecksummingSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    let observe: @Sendable (ByteBuffer) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let observe: @Sendable (ByteBuffer) -> Void

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await self.base.next() else { return nil }
            self.observe(chunk)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: self.base.makeAsyncIterator(), observe: self.observe)
    }
}

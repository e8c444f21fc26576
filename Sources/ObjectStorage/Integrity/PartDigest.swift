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

/// The MD5 and CRC-64 of the bytes that went through a streamed body, and how many there were, shared with the
/// code that checks them once the request is answered.
final class PartDigest: Sendable {
    /// The digests of the bytes seen so far.
    struct Value {
        /// The MD5.
        var md5Digest: [UInt8]
        /// The CRC-64/XZ (OSS's `crc64ecma`).
        var crc64: UInt64
        /// How many bytes went through.
        var count: Int64

        /// The lowercase hexadecimal MD5 (what an ETag holds).
        var md5: String { ByteEncoding.hex(self.md5Digest) }
        /// The base64 MD5 (what `Content-MD5` holds).
        var md5Base64: String { ByteEncoding.base64(self.md5Digest) }
    }

    private struct State {
        var md5 = Hashing.MD5()
        var crc = CRC64()
        var count: Int64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Adds `buffer`'s bytes.
    func update(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            self.state.withLock { state in
                state.md5.update(bufferPointer: bytes)
                state.crc.update(bufferPointer: bytes)
                state.count += Int64(bytes.count)
            }
        }
    }

    /// The digests of `buffer`'s bytes.
    static func of(_ buffer: ByteBuffer) -> Value {
        let digest = PartDigest()
        digest.update(buffer)
        return digest.value
    }

    /// The digests of every byte added.
    var value: Value {
        self.state.withLock { state in
            Value(md5Digest: state.md5.finalize(), crc64: state.crc.value, count: state.count)
        }
    }
}

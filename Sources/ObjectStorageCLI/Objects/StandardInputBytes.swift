//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorage
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input as a stream of byte buffers, read on NIO's blocking-I/O pool (never on the cooperative pool),
/// one `read(2)` of up to ``chunkSize`` bytes per element. It ends at end of file.
struct StandardInputBytes: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The most bytes one element holds: 64 KiB, what a pipe holds by default.
    static let chunkSize = 64 * 1024

    struct AsyncIterator: AsyncIteratorProtocol {
        private var ended = false

        mutating func next() async throws -> ByteBuffer? {
            guard !ended else { return nil }
            let chunk = try await BlockingIO.run { try StandardInputBytes.readChunk() }
            if chunk == nil { ended = true }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

    /// One `read(2)` from standard input, retried on `EINTR`.
    ///
    /// - Returns: The bytes read, or `nil` at end of file.
    /// - Throws: ``CLIError`` when the read fails.
    private static func readChunk() throws(CLIError) -> ByteBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
        while true {
            var count = 0
            var failure: Int32 = 0
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { bytes in
                count = read(STDIN_FILENO, bytes.baseAddress, bytes.count)
                failure = count < 0 ? errno : 0
                return Swift.max(count, 0)
            }
            if count > 0 { return buffer }
            if count == 0 { return nil }
            if failure == EINTR { continue }
            throw CLIError(status: .failure, message: "standard input: read failed (errno \(failure))")
        }
    }
}

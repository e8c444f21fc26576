//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOPosix

/// A region of a file read lazily, one chunk at a time, on NIO's blocking-I/O thread pool.
struct FileRegionBody: Sendable {
    var path: String
    var offset: Int64
    var length: Int64
    var chunkSize: Int

    func makeIterator() -> Iterator {
        Iterator(region: self)
    }

    /// Owns the open file for one iteration; the file is closed at the end of the region, on error, or when the
    /// iterator is dropped early (the consumer stopped reading).
    final class Iterator {
        private let region: FileRegionBody
        private let fileIO = NonBlockingFileIO(threadPool: .singleton)
        private var handle: NIOFileHandle?
        private var position: Int64
        private var finished = false

        init(region: FileRegionBody) {
            self.region = region
            self.position = region.offset
        }

        deinit {
            try? self.handle?.close()
        }

        func next() async throws -> ByteBuffer? {
            let end = self.region.offset + self.region.length
            guard !self.finished, self.position < end else {
                self.close()
                return nil
            }
            do {
                let handle = try await self.openIfNeeded()
                let count = Int(min(Int64(self.region.chunkSize), end - self.position))
                let chunk = try await self.fileIO.read(
                    fileHandle: handle,
                    fromOffset: self.position,
                    byteCount: count,
                    allocator: ByteBufferAllocator()
                )
                guard chunk.readableBytes > 0 else {
                    throw TransportError(
                        code: .fileReadFailed,
                        message: "file '\(self.region.path)' ended at byte \(self.position), before the end of "
                            + "the region \(self.region.offset)..<\(end)"
                    )
                }
                self.position += Int64(chunk.readableBytes)
                return chunk
            } catch let error as TransportError {
                self.close()
                throw error
            } catch {
                self.close()
                throw TransportError(
                    code: .fileReadFailed,
                    message: "cannot read file '\(self.region.path)': \(error)",
                    underlying: error
                )
            }
        }

        private func openIfNeeded() async throws -> NIOFileHandle {
            if let handle = self.handle { return handle }
            let path = self.region.path
            let handle = try await NIOThreadPool.singleton.runIfActive {
                try NIOFileHandle(_deprecatedPath: path)
            }
            self.handle = handle
            return handle
        }

        private func close() {
            self.finished = true
            try? self.handle?.close()
            self.handle = nil
        }
    }
}

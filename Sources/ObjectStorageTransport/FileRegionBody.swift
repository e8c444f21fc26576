//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A region of a file, sent with `sendfile` (see ``AsyncHTTPClientTransport``) or read lazily, one chunk at a time,
/// on NIO's blocking-I/O thread pool.
struct FileRegionBody: Sendable {
    var path: String
    var offset: Int64
    var length: Int64
    var chunkSize: Int
    /// Told the size of each chunk read or piece written.
    var progress: (@Sendable (Int) -> Void)?

    /// The end of the region in the file.
    var end: Int64 { self.offset + self.length }

    func makeIterator() -> Iterator {
        Iterator(region: self)
    }

    /// Opens the file and checks that it holds the whole region. Blocking: run it on the thread pool.
    ///
    /// - Returns: The open file; the caller closes it.
    /// - Throws: ``TransportError/Code/fileReadFailed`` when the file cannot be opened or is too short.
    func open() throws -> NIOFileHandle {
        let handle: NIOFileHandle
        do {
            handle = try NIOFileHandle(_deprecatedPath: self.path)
        } catch {
            throw self.readFailed(error)
        }
        do {
            try self.checkSize(of: handle)
            return handle
        } catch {
            try? handle.close()
            throw error
        }
    }

    /// Checks that the open file still holds the whole region.
    ///
    /// - Throws: ``TransportError/Code/fileReadFailed`` when it is shorter, or cannot be examined.
    func checkSize(of handle: NIOFileHandle) throws {
        let size: Int64
        do {
            size = try handle.withUnsafeFileDescriptor { try Self.size(of: $0) }
        } catch {
            throw self.readFailed(error)
        }
        guard size >= self.end else { throw self.endedEarly(at: size) }
    }

    /// The size of the open file `descriptor`.
    static func size(of descriptor: CInt) throws -> Int64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw IOError(errnoCode: errno, reason: "fstat") }
        return Int64(info.st_size)
    }

    /// The error for a file that ends at `position`, inside the region.
    func endedEarly(at position: Int64) -> TransportError {
        TransportError(
            code: .fileReadFailed,
            message: "file '\(self.path)' ended at byte \(position), before the end of the region "
                + "\(self.offset)..<\(self.end)"
        )
    }

    /// `error` as a ``TransportError/Code/fileReadFailed`` (a ``TransportError`` is kept as it is).
    func readFailed(_ error: any Error) -> TransportError {
        if let error = error as? TransportError { return error }
        return TransportError(
            code: .fileReadFailed,
            message: "cannot read file '\(self.path)': \(error)",
            underlying: error
        )
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
            let end = self.region.end
            guard !self.finished, self.position < end else {
                self.close()
                return nil
            }
            do {
                let handle = try await self.openIfNeeded()
                let count = Int(min(Int64(self.region.chunkSize), end - self.position))
                // A fresh buffer per chunk: AsyncHTTPClient still holds the previous chunk when it asks for the next,
                // so a reused buffer would be copied on write anyway (measured: no saving).
                let chunk = try await self.fileIO.read(
                    fileHandle: handle,
                    fromOffset: self.position,
                    byteCount: count,
                    allocator: ByteBufferAllocator()
                )
                guard chunk.readableBytes > 0 else { throw self.region.endedEarly(at: self.position) }
                self.position += Int64(chunk.readableBytes)
                self.region.progress?(chunk.readableBytes)
                return chunk
            } catch {
                self.close()
                throw self.region.readFailed(error)
            }
        }

        private func openIfNeeded() async throws -> NIOFileHandle {
            if let handle = self.handle { return handle }
            let region = self.region
            let handle = try await NIOThreadPool.singleton.runIfActive { try region.open() }
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

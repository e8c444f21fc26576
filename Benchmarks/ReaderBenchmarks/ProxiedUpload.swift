//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage

/// The body of a PUT an app proxies (issue 41): `size` bytes as a sequence of 64 KiB buffers, each a new
/// allocation as a server's reads hand them over, filled from a random 1 MiB pattern.
struct ProxiedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The object stored is not the size sent.
    struct ShortObject: Error {
        var stored: Int64?
        var sent: Int64
    }

    let size: Int64
    let pattern: [UInt8]

    init(size: Int64) {
        var generator = SystemRandomNumberGenerator()
        self.size = size
        self.pattern = (0..<(1 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let pattern: [UInt8]
        var left: Int64
        var offset = 0

        mutating func next() async -> ByteBuffer? {
            guard self.left > 0 else { return nil }
            let count = Int(Swift.min(self.left, 65_536))
            var chunk = ByteBuffer()
            chunk.reserveCapacity(count)
            chunk.writeBytes(self.pattern[self.offset..<(self.offset + count)])
            self.offset = (self.offset + count) % self.pattern.count
            self.left -= Int64(count)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pattern: self.pattern, left: self.size) }
}

extension ProxiedBody {
    /// Writes the body to `path` a buffer at a time (the control of `upload-file`: the same bytes, from a file).
    func write(to path: String) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? file.close() }
        for try await chunk in self { try file.write(contentsOf: Data(chunk.readableBytesView)) }
    }
}

extension ReaderBenchmarks {
    /// Sends a proxied body of `size` bytes to `key`: with `uploadStream` (length unknown: parts held in memory)
    /// or as one streamed `PutObject` of known length.
    ///
    /// - Returns: The bytes the service stored.
    static func proxiedUpload(
        _ client: ObjectStorageClient,
        streamed: Bool,
        bucket: String,
        key: String,
        size: Int64
    ) async throws -> Int64 {
        let body = ProxiedBody(size: size)
        if streamed {
            let request = PutObjectRequest(bucket: bucket, key: key, body: .stream(body, length: size))
            _ = try await client.putObject(request)
            return size
        }
        return try await client.uploadStream(body, bucket: bucket, key: key, options: Self.uploadOptions).objectSize
    }

    /// The transfer options of the multipart modes: the defaults, or the part size in MiB and the parts in flight
    /// that `BENCH_PART_MIB` and `BENCH_CONCURRENCY` name.
    static var uploadOptions: TransferOptions {
        let environment = ProcessInfo.processInfo.environment
        var options = TransferOptions()
        if let mebibytes = environment["BENCH_PART_MIB"].flatMap(Int64.init), mebibytes > 0 {
            options.partSize = mebibytes << 20
        }
        if let concurrency = environment["BENCH_CONCURRENCY"].flatMap(Int.init), concurrency > 0 {
            options.concurrency = concurrency
        }
        return options
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
public import NIOCore
import NIOHTTP1
import ObjectStorageTransport
import Synchronization

/// Random access to one object: `read(at:count:)` from any number of tasks at once, and ``chunks(from:)`` for
/// sequential reading, both pinned to the object as it was when the reader was opened.
///
/// Open one with ``ObjectStorageClient/openObject(bucket:key:versionID:options:logger:)`` or
/// ``ObjectStorageClient/openObject(presignedURL:options:logger:)``:
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// let reader = try await client.openObject(bucket: "data", key: "events.parquet")
/// let footer = try await reader.read(at: reader.size - 8, count: 8)   // answered from the tail cached at open
/// ```
///
/// Contracts:
/// - **Pinned.** Every GET is a bounded range carrying `If-Match` with the ETag seen at open (and the version id
///   when one was given); an answer for another ETag, or a 412, throws ``ObjectStorageError`` with code
///   ``ObjectStorageError/Code/objectChanged``: bytes of two objects are never mixed.
/// - **Bounded memory.** The reader keeps the object's last ``Options/endCacheSize`` bytes (fetched at open, with
///   the size and the ETag, in one GET), its first as many once a read touches them, and one read-ahead buffer of
///   at most ``Options/maximumReadAhead`` bytes; nothing grows with the object's size. ``chunks(from:)`` streams
///   with back-pressure and keeps nothing.
/// - **Adaptive read-ahead.** A read that starts where the previous one ended widens the next GET (doubling up to
///   ``Options/maximumReadAhead``); any other read fetches exactly what it asks for and resets the window.
/// - **Connections.** A pool connection is held only while a GET is in flight; an idle reader holds none.
/// - **Cancellation.** Cancelling the task of a read cancels its GET.
public final class ObjectReader: Sendable {
    /// How a reader caches and reads ahead.
    public struct Options: Sendable, Hashable {
        /// Bytes kept from each end of the object: the tail is fetched at open, the head on first use
        /// (default 64 KiB). Footers and indexes (Parquet, ZIP, MP4) are usually answered from these.
        public var endCacheSize: Int
        /// The widest read-ahead of sequential `read(at:count:)` calls, and the widest GET of ``chunks(from:)``
        /// (default 8 MiB).
        public var maximumReadAhead: Int

        /// Creates options.
        ///
        /// - Parameters:
        ///   - endCacheSize: Bytes kept from each end of the object.
        ///   - maximumReadAhead: The widest read-ahead and the widest GET of a chunk sequence.
        public init(endCacheSize: Int = 64 * 1024, maximumReadAhead: Int = 8 * 1024 * 1024) {
            self.endCacheSize = max(0, endCacheSize)
            self.maximumReadAhead = max(0, maximumReadAhead)
        }
    }

    /// The object's size in bytes.
    public let size: Int64
    /// The object's ETag at open, which every GET is pinned to.
    public let etag: String
    /// The object's version id, when the service reported one.
    public let versionID: String?
    /// The object's headers as the opening GET reported them (its `Content-Type`, `Last-Modified`, metadata).
    public let attributes: ObjectAttributes

    let client: ObjectStorageClient
    let source: ResumableDownloadSource
    let options: Options
    let logger: Logger?
    /// The object's last bytes, `tailStart..<size`.
    let tail: ByteBuffer
    let tailStart: Int64
    /// The version id sent with each GET: the one asked for at open (a presigned URL carries its own).
    let pinnedVersionID: String?
    let state: Mutex<ObjectReadState>

    init(
        client: ObjectStorageClient,
        source: ResumableDownloadSource,
        opened: ObjectReaderOpening,
        options: Options,
        logger: Logger?
    ) {
        self.client = client
        self.source = source
        self.options = options
        self.logger = logger
        self.size = opened.size
        self.etag = opened.etag
        self.versionID = opened.versionID
        self.attributes = opened.attributes
        self.tail = opened.tail
        self.tailStart = opened.size - Int64(opened.tail.readableBytes)
        self.pinnedVersionID = opened.requestedVersionID
        self.state = Mutex(ObjectReadState())
    }

    /// The GETs this reader has sent, the opening one included.
    public var requestCount: Int {
        self.state.withLock { $0.requests }
    }

    /// Reads up to `count` bytes at `offset`: fewer only at the end of the object, none at or past it.
    ///
    /// Safe to call from many tasks at once; each call's bytes come from the caches or from its own GET.
    ///
    /// - Parameters:
    ///   - offset: The first byte, from 0.
    ///   - count: The most bytes to read.
    /// - Returns: The bytes.
    /// - Throws: ``ObjectStorageError`` with ``ObjectStorageError/Code/invalidArgument`` for a negative offset or
    ///   count, ``ObjectStorageError/Code/objectChanged`` when the object was replaced since it was opened;
    ///   ``ServiceError``, ``/ObjectStorageTransport/TransportError``, `CancellationError`.
    public func read(at offset: Int64, count: Int) async throws -> ByteBuffer {
        guard offset >= 0, count >= 0 else {
            throw ObjectStorageError.invalidArgument("read(at: \(offset), count: \(count)): both must be non-negative")
        }
        guard offset < self.size, count > 0 else { return ByteBuffer() }
        let (sum, overflow) = offset.addingReportingOverflow(Int64(count))
        let wanted = offset..<(overflow ? self.size : min(sum, self.size))

        if wanted.lowerBound >= self.tailStart {
            self.state.withLock { $0.served(wanted) }
            return self.tail.getSlice(
                at: Int(wanted.lowerBound - self.tailStart),
                length: Int(wanted.upperBound - wanted.lowerBound)
            ) ?? ByteBuffer()
        }
        let headEnd = min(Int64(self.options.endCacheSize), self.tailStart)
        if wanted.upperBound <= headEnd {
            return try await self.readHead(wanted, headEnd: headEnd)
        }

        let plan = self.state.withLock {
            $0.plan(wanted, readAheadLimit: self.tailStart, maximumReadAhead: self.options.maximumReadAhead)
        }
        var result = plan.buffered
        if !plan.fetch.isEmpty {
            var fetched = try await self.fetch(plan.fetch)
            let needed = Int(wanted.upperBound - plan.fetch.lowerBound)
            if var part = fetched.readSlice(length: min(needed, fetched.readableBytes)) {
                result.writeBuffer(&part)
            }
            self.state.withLock { $0.keepReadAhead(fetched, from: plan.fetch.lowerBound + Int64(needed)) }
        }
        return result
    }

    /// The bytes of `wanted`, inside the head (`0..<headEnd`), fetching the head once.
    private func readHead(_ wanted: Range<Int64>, headEnd: Int64) async throws -> ByteBuffer {
        let cached = self.state.withLock { state -> ByteBuffer? in
            state.served(wanted)
            return state.head
        }
        let head: ByteBuffer
        if let cached {
            head = cached
        } else {
            head = try await self.fetch(0..<headEnd)
            self.state.withLock { $0.head = head }
        }
        return head.getSlice(at: Int(wanted.lowerBound), length: Int(wanted.upperBound - wanted.lowerBound))
            ?? ByteBuffer()
    }

    /// The bytes of `range` by one pinned GET: the answer must be a 206 for exactly `range` of an object of the
    /// opened size and ETag.
    func fetch(_ range: Range<Int64>) async throws -> ByteBuffer {
        let operation = self.pinnedGET(range)
        let expected = Int(range.upperBound - range.lowerBound)
        self.state.withLock { $0.requests += 1 }
        return try await self.pinned {
            try await self.client.send(operation, logger: self.logger) { response in
                try self.check(response, for: range)
                let body = try await response.body.collect(upTo: expected)
                guard body.readableBytes == expected else {
                    throw TransportError(
                        code: .connectionClosed,
                        message: "the body of bytes \(range.lowerBound)-\(range.upperBound - 1) ended after "
                            + "\(body.readableBytes) of \(expected) bytes"
                    )
                }
                return body
            }
        }
    }

    /// A GET of `range`, pinned to the opened object.
    func pinnedGET(_ range: Range<Int64>) -> OperationRequest {
        let strong = self.etag.isEmpty || self.etag.hasPrefix("W/") ? nil : self.etag
        return self.source.get(
            range: "bytes=\(range.lowerBound)-\(range.upperBound - 1)",
            ifMatch: strong,
            versionID: self.pinnedVersionID
        )
    }

    /// Checks that `response` answers `range` of the opened object.
    func check(_ response: TransportResponse, for range: Range<Int64>) throws {
        if let etag = response.headers.first(name: "ETag"), !self.etag.isEmpty, etag != self.etag {
            throw Self.changed("its ETag is now \(etag), not \(self.etag)")
        }
        let whole = range.lowerBound == 0 && range.upperBound == self.size
        if response.status.code == 200 && whole { return }
        guard response.status.code == 206,
            let answered = response.headers.first(name: "Content-Range").flatMap(ContentRange.init),
            answered.first == range.lowerBound, answered.last == range.upperBound - 1
        else {
            throw ObjectStorageError.invalidResponse(
                "a GET of bytes \(range.lowerBound)-\(range.upperBound - 1) was answered with status "
                    + "\(response.status.code) and Content-Range '\(response.headers.first(name: "Content-Range") ?? "")'"
            )
        }
        if let total = answered.total, total != self.size {
            throw Self.changed("its size is now \(total), not \(self.size)")
        }
    }

    /// Runs `body`, turning the service's 412 (the `If-Match` failed) into `objectChanged`.
    func pinned<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as ServiceError where error.statusCode == 412 {
            throw Self.changed("its ETag no longer matches \(self.etag)")
        }
    }

    static func changed(_ reason: String) -> ObjectStorageError {
        ObjectStorageError(code: .objectChanged, message: "the object changed since it was opened: \(reason)")
    }
}

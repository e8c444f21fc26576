//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageSigning
import ObjectStorageTransport

/// Appends to one object, one body after another: it keeps the position (the object's length) and the CRC-64 of
/// the object's bytes, and settles an append whose answer was lost.
///
/// An append's answer can be lost after the service applied it (the connection closes or times out once the bytes
/// are sent). Sending it again would fail (the position has moved) or, worse, a naive retry at the new position would
/// write the bytes twice. The writer reads the object back instead (HEAD):
/// - the length is the position: the append was not applied, and it is sent again (under the client's retry policy);
/// - the length is the position plus the body's, and the object's CRC-64 (OSS's `x-oss-hash-crc64ecma`) is the one
///   the writer's CRC-64 and the body's combine to: the append was applied, and the writer goes on;
/// - anything else: another writer appended or replaced the object, and the append throws
///   ``ObjectStorageError/Code/appendConflict`` without sending anything more.
///
/// The CRC-64 matters: a length alone does not tell this append from another writer's append of the same length
/// (OSS's Go SDK compares only the length). Where the service reports no CRC-64 of the object (OBS), or the writer
/// does not know the object's before its first append, the appended range is read back and its CRC-64 compared with
/// the body's.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// var writer = try await client.appendWriter(bucket: "logs", key: "app.log")
/// for line in ["started\n", "ready\n"] {
///     try await writer.append(.bytes(Array(line.utf8)))
/// }
/// ```
///
/// A writer is a value: copies share nothing, and each goes on from where it was copied.
public struct AppendWriter: Sendable {
    let client: ObjectStorageClient
    /// The bucket.
    public let bucket: String
    /// The object key.
    public let key: String
    /// Where the next append goes: the object's length as far as this writer knows.
    public private(set) var position: Int64
    /// The CRC-64/XZ of the object's first ``position`` bytes; `nil` when the writer started on an object whose
    /// CRC-64 it was not told (a lost answer is then settled by reading the appended range back).
    public private(set) var crc64: UInt64?
    /// The attributes of the object, sent with the append that creates it (position 0) only, as the services take
    /// them from that one.
    public var attributes = UploadAttributes()

    /// A writer at a known position: 0 for a new object (whose CRC-64 is 0), or an object's length and, when known,
    /// its CRC-64. ``ObjectStorageClient/appendWriter(bucket:key:logger:)`` learns them with a HEAD.
    ///
    /// - Parameters:
    ///   - client: The client (OSS or OBS).
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - position: The object's length.
    ///   - crc64: The CRC-64/XZ of the object's bytes, if known (0 is assumed at position 0).
    public init(client: ObjectStorageClient, bucket: String, key: String, position: Int64 = 0, crc64: UInt64? = nil) {
        self.client = client
        self.bucket = bucket
        self.key = key
        self.position = position
        self.crc64 = crc64 ?? (position == 0 ? 0 : nil)
    }

    /// Appends `body` at ``position`` and moves past it, settling a lost answer by reading the object back (see
    /// ``AppendWriter``).
    ///
    /// - Parameters:
    ///   - body: Bytes or a file region (a writer sends a body again after a lost answer, which a stream cannot be).
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The answer, or what reading the object back found (``AppendResult/recovered``).
    /// - Throws: ``ObjectStorageError/Code/appendConflict`` when another writer changed the object while an answer
    ///   was lost; ``ObjectStorageError/Code/integrityMismatch`` when the service's CRC-64 of the object is not the
    ///   one expected (the writer does not move); ``ServiceError`` (``ServiceError/Code/positionNotEqualToLength``
    ///   with ``ServiceError/nextAppendPosition`` when another writer appended before); ``ObjectStorageError`` with
    ///   ``ObjectStorageError/Code/unsupported`` on S3 and ``ObjectStorageError/Code/invalidArgument`` for a
    ///   stream; transport errors.
    @discardableResult
    public mutating func append(_ body: UploadBody, logger: Logger? = nil) async throws -> AppendResult {
        try self.client.checkAppendSupported()
        guard body.isReplayable else {
            throw ObjectStorageError.invalidArgument(
                "an append writer sends bytes or a file region, which it can send again after a lost answer"
            )
        }
        let chunk = try await AppendChunk(body)
        let result = try await self.client.append(
            chunk,
            bucket: self.bucket,
            key: self.key,
            position: self.position,
            precedingCRC64: self.crc64,
            attributes: self.position == 0 ? self.attributes : UploadAttributes(),
            logger: logger
        )
        if let preceding = self.crc64, let crc = chunk.crc64, let count = chunk.count {
            self.crc64 = CRC64.combine(preceding, crc, lengthOfSecond: UInt64(count))
        } else {
            self.crc64 = result.crc64
        }
        self.position = result.nextPosition
        return result
    }
}

/// What reading an object back says of an append whose answer was lost.
enum AppendOutcome: Sendable {
    /// The object holds the append's bytes where they go.
    case applied(AppendResult)
    /// The object still ends at the append's position.
    case notApplied
    /// The object holds something else: the sentence says what.
    case conflict(String)
}

/// An append that was found not applied after its answer was lost: its failure, which the retry policy weighs.
private struct AppendNotApplied: Error {
    var cause: any Error
}

extension ObjectStorageClient {
    /// One append of `chunk` at `position`, under the client's retry policy, a lost answer settled by
    /// ``appendOutcome(bucket:key:position:chunk:precedingCRC64:logger:)`` before anything is sent again.
    func append(
        _ chunk: AppendChunk,
        bucket: String,
        key: String,
        position: Int64,
        precedingCRC64: UInt64?,
        attributes: UploadAttributes,
        logger: Logger?
    ) async throws -> AppendResult {
        var operationLogger = logger ?? self.logger
        operationLogger[metadataKey: "os.operation"] = "AppendObject"
        operationLogger[metadataKey: "os.bucket"] = "\(bucket)"
        operationLogger[metadataKey: "os.key"] = "\(key)"
        let policy = self.configuration.retry
        // Only an append found not applied is sent again, as its failure deserves.
        let classify: (any Error) -> RetryDecision = { error in
            guard let notApplied = error as? AppendNotApplied else { return .doNotRetry }
            return RetryClassifier.decision(for: notApplied.cause, policy: policy)
        }
        var lostAnswer = false
        do {
            return try await policy.run(
                timeLimit: self.configuration.timeout,
                logger: operationLogger,
                classify: classify
            ) { _ in
                do {
                    return try await self.sendAppend(
                        bucket: bucket,
                        key: key,
                        position: position,
                        chunk: chunk,
                        precedingCRC64: precedingCRC64,
                        attributes: attributes,
                        logger: logger
                    )
                } catch {
                    // After a lost answer, a refused position may be the first attempt, applied late.
                    let moved = lostAnswer && (error as? ServiceError)?.code == .positionNotEqualToLength
                    guard Self.mayHaveApplied(error) || moved else { throw error }
                    lostAnswer = true
                    operationLogger.notice(
                        "the answer to an append was lost; reading the object back",
                        metadata: ["error.description": "\(error)", "os.position": "\(position)"]
                    )
                    let outcome = try await self.appendOutcome(
                        bucket: bucket,
                        key: key,
                        position: position,
                        chunk: chunk,
                        precedingCRC64: precedingCRC64,
                        logger: logger
                    )
                    switch outcome {
                    case .applied(let result):
                        operationLogger.notice("the append was applied", metadata: ["os.position": "\(position)"])
                        return result
                    case .notApplied:
                        throw AppendNotApplied(cause: error)
                    case .conflict(let reason):
                        throw ObjectStorageError(
                            code: .appendConflict,
                            message: "the answer to the append at position \(position) of \(bucket)/\(key) was lost, "
                                + "and \(reason): another writer changed the object"
                        )
                    }
                }
            }
        } catch let error as AppendNotApplied {
            throw error.cause
        }
    }

    /// Whether the service may have applied a request that failed with `error`: its bytes may have arrived (a
    /// connection closed or timed out after the request went out, a 5xx).
    static func mayHaveApplied(_ error: any Error) -> Bool {
        switch error {
        case let error as TransportError:
            let afterSending: [TransportError.Code] = [
                .readTimeout, .writeTimeout, .deadlineExceeded, .connectionClosed, .transferStalled,
                .malformedResponse, .bodyTruncated, .requestFailed,
            ]
            return afterSending.contains(error.code)
        case let error as ServiceError:
            return error.statusCode >= 500
        default:
            return false
        }
    }

    /// Reads the object back to learn whether an append of `chunk` at `position` was applied: a HEAD, then, unless
    /// the object's CRC-64 settles it (OSS, with the CRC-64 of the bytes before `position` known), a GET of the
    /// appended range (pinned to the ETag the HEAD saw) whose CRC-64 is compared with the chunk's.
    func appendOutcome(
        bucket: String,
        key: String,
        position: Int64,
        chunk: AppendChunk,
        precedingCRC64: UInt64?,
        logger: Logger?
    ) async throws -> AppendOutcome {
        guard let count = chunk.count, let chunkCRC = chunk.crc64 else {
            return .conflict("the bytes sent are unknown (a stream), so the object cannot be compared with them")
        }
        let head: ObjectAttributes
        do {
            head = try await self.headObject(bucket: bucket, key: key, logger: logger)
        } catch let error as ServiceError where error.code == .noSuchKey {
            return position == 0 ? .notApplied : .conflict("the object is gone")
        }
        guard let length = head.contentLength else {
            throw ObjectStorageError.invalidResponse("HeadObject of an appended object answered no Content-Length")
        }
        let end = position + count
        if length == position && count > 0 { return .notApplied }
        guard length >= end else {
            return .conflict("it is \(length) bytes, where the append at \(position) of \(count) bytes ends at \(end)")
        }
        let isOSS = self.configuration.vendor == .oss
        var result = AppendResult(
            nextPosition: end,
            crc64: nil,
            etag: head.etag,
            versionID: head.versionID,
            requestID: head.requestID,
            recovered: true
        )
        if length == end, isOSS, let reported = head.crc64, let preceding = precedingCRC64 {
            let expected = CRC64.combine(preceding, chunkCRC, lengthOfSecond: UInt64(count))
            guard reported == expected else {
                return .conflict(
                    "it is \(length) bytes as the append makes it, but its CRC-64 is \(reported), not \(expected)"
                )
            }
            result.crc64 = reported
            return .applied(result)
        }
        guard count > 0 else { return .applied(result) }
        var request = GetObjectRequest(bucket: bucket, key: key)
        request.range = .bytes(position...(end - 1))
        request.ifMatch = head.etag
        let operation = self.getOperation(request)
        let crc: UInt64
        do {
            crc = try await self.send(operation, logger: logger) { response in
                var crc = CRC64()
                var received: Int64 = 0
                for try await buffer in response.body {
                    crc.update(buffer.readableBytesView)
                    received += Int64(buffer.readableBytes)
                }
                guard received == count else {
                    throw ObjectStorageError.invalidResponse(
                        "GetObject of bytes \(position)-\(end - 1) answered \(received) bytes, not \(count)"
                    )
                }
                return crc.value
            }
        } catch let error as ServiceError where error.code == .preconditionFailed {
            return .conflict("it changed while it was read back")
        }
        guard crc == chunkCRC else {
            return .conflict(
                "its bytes \(position)-\(end - 1) have the CRC-64 \(crc), not the appended bytes' \(chunkCRC)"
            )
        }
        if length == end, isOSS { result.crc64 = head.crc64 }
        return .applied(result)
    }
}

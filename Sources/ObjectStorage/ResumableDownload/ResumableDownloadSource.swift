//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageTransport

/// Where a resumable download reads from: a bucket and key through the client's signed requests,
/// or a presigned GET URL sent as is.
enum ResumableDownloadSource: Sendable {
    case object(bucket: String, key: String)
    case presigned(url: String)

    /// What the probe learned, plus whether the server ignores `Range`.
    struct Probe: Sendable {
        var object: DownloadCheckpoint.ObjectState
        var ignoresRange: Bool
        /// Response headers, for dialect-specific checks (encryption).
        var headers: HTTPHeaders
    }
}

/// The parts of a `Content-Range: bytes first-last/total` header.
struct ContentRange: Hashable, Sendable {
    var first: Int64
    var last: Int64
    var total: Int64?

    /// Parses `bytes first-last/total` (total may be `*`); `nil` for anything else (`bytes */total`).
    init?(_ header: String) {
        var text = Substring(header.trimmingASCIIWhitespace())
        guard text.lowercased().hasPrefix("bytes") else { return nil }
        text = text.dropFirst(5).drop { $0 == " " || $0 == "=" }
        guard let dash = text.firstIndex(of: "-"), let slash = text.firstIndex(of: "/"), dash < slash,
            let first = Int64(text[..<dash]), let last = Int64(text[text.index(after: dash)..<slash]),
            first >= 0, last >= first
        else { return nil }
        let totalText = text[text.index(after: slash)...]
        self.first = first
        self.last = last
        if totalText == "*" {
            self.total = nil
        } else {
            guard let total = Int64(totalText), total > last else { return nil }
            self.total = total
        }
    }

    /// The total of `bytes */total` (an unsatisfiable-range answer).
    static func unsatisfiedTotal(_ header: String) -> Int64? {
        let text = header.trimmingASCIIWhitespace()
        guard text.lowercased().hasPrefix("bytes */") else { return nil }
        return Int64(text.dropFirst(8))
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

extension ObjectStorageClient {
    /// Sends one ranged GET of `source` (no retries; non-2xx answers are thrown as ``ServiceError``).
    func sendDownloadGET(
        _ source: ResumableDownloadSource,
        range: String?,
        ifMatch: String?,
        versionID: String?,
        attempt: Int,
        logger: Logger
    ) async throws -> TransportResponse {
        switch source {
        case .object(let bucket, let key):
            var operation = OperationRequest(name: "GetObject", method: .GET, bucket: bucket, key: key)
            operation.header("Range", range)
            operation.header("If-Match", ifMatch)
            operation.query("versionId", versionID)
            let body = try PreparedBody(nil, configuration: self.configuration)
            return try await self.attempt(operation, body: body, attempt: attempt, logger: logger)
        case .presigned(let url):
            var headers = HTTPHeaders()
            if let range { headers.add(name: "Range", value: range) }
            if let ifMatch { headers.add(name: "If-Match", value: ifMatch) }
            let request = TransportRequest(method: .GET, url: url, headers: headers)
            let deadline = NIODeadline.now() + TimeAmount(self.configuration.timeout)
            let response = try await self.transport.execute(request, deadline: deadline, logger: logger)
            guard (200..<300).contains(response.status.code) else {
                let operation = OperationRequest(name: "GetObject", method: .GET, bucket: nil, key: "")
                throw await self.serviceError(for: operation, response: response, offsetUsed: 0, logger: logger)
            }
            return response
        }
    }
}

extension ObjectStorageClient {
    /// Sends one ranged GET of `source`, handing the body to `consumer` (on the transport's network thread when
    /// it can; no retries). Returns once the body has ended; non-2xx answers are thrown as ``ServiceError``.
    func consumeDownloadGET(
        _ source: ResumableDownloadSource,
        range: String,
        ifMatch: String?,
        versionID: String?,
        attempt: Int,
        consumer: some ResponseBodyConsumer,
        logger: Logger
    ) async throws {
        var attemptLogger = logger
        attemptLogger[metadataKey: "os.attempt"] = "\(attempt)"
        let deadline = NIODeadline.now() + TimeAmount(self.configuration.timeout)
        switch source {
        case .object(let bucket, let key):
            var operation = OperationRequest(name: "GetObject", method: .GET, bucket: bucket, key: key)
            operation.header("Range", range)
            operation.header("If-Match", ifMatch)
            operation.query("versionId", versionID)
            let offset = self.clock.offsetMilliseconds
            let body = try PreparedBody(nil, configuration: self.configuration)
            let (request, _) = try await self.makeTransportRequest(
                operation,
                body: body,
                offset: offset,
                logger: logger
            )
            let response = try await self.transport.execute(
                request,
                deadline: deadline,
                logger: attemptLogger,
                consumer: consumer
            )
            guard (200..<300).contains(response.status.code) else {
                throw await self.serviceError(
                    for: operation,
                    response: response,
                    offsetUsed: offset,
                    logger: attemptLogger
                )
            }
        case .presigned(let url):
            var headers = HTTPHeaders()
            headers.add(name: "Range", value: range)
            if let ifMatch { headers.add(name: "If-Match", value: ifMatch) }
            let request = TransportRequest(method: .GET, url: url, headers: headers)
            let response = try await self.transport.execute(
                request,
                deadline: deadline,
                logger: attemptLogger,
                consumer: consumer
            )
            guard (200..<300).contains(response.status.code) else {
                let operation = OperationRequest(name: "GetObject", method: .GET, bucket: nil, key: "")
                throw await self.serviceError(for: operation, response: response, offsetUsed: 0, logger: logger)
            }
        }
    }
}

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
import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One service call before signing: what every operation builds.
struct OperationRequest: Sendable {
    /// The S3-style operation name, for logs and errors (`GetObject`).
    var name: String
    var method: HTTPMethod
    var bucket: String?
    var key: String?
    var query: [QueryParameter] = []
    var headers: [HTTPHeader] = []
    var body: UploadBody? = nil

    mutating func header(_ name: String, _ value: String?) {
        guard let value else { return }
        self.headers.append(HTTPHeader(name: name, value: value))
    }

    mutating func query(_ name: String, _ value: String?) {
        guard let value else { return }
        self.query.append(QueryParameter(name: name, value: value))
    }
}

extension ObjectStorageClient {
    /// Sends `operation` with retries and returns the first successful (2xx) response.
    ///
    /// Each attempt fetches credentials and signs with the corrected time. A non-2xx answer is
    /// thrown as a ``ServiceError``.
    func execute(
        _ operation: OperationRequest,
        logger: Logger?,
        checksUploadCRC: Bool = true
    ) async throws -> TransportResponse {
        let logger = self.operationLogger(operation, logger)
        let prepared = try PreparedBody(operation.body, configuration: self.configuration, checksCRC: checksUploadCRC)
        return try await self.withRetries(replayable: prepared.isReplayable, logger: logger) { attempt in
            try await self.attempt(operation, body: prepared, attempt: attempt, logger: logger)
        }
    }

    /// Sends `operation` and reads its XML answer inside the retry loop, so an answer cut off
    /// mid-body is retried like any other transient failure (reading it after ``execute(_:logger:checksUploadCRC:)``
    /// returned would put the body outside the retries).
    func executeXML(
        _ operation: OperationRequest,
        logger: Logger?,
        checksUploadCRC: Bool = true
    ) async throws -> (headers: HTTPHeaders, root: XMLNode) {
        let logger = self.operationLogger(operation, logger)
        let prepared = try PreparedBody(operation.body, configuration: self.configuration, checksCRC: checksUploadCRC)
        return try await self.withRetries(replayable: prepared.isReplayable, logger: logger) { attempt in
            let response = try await self.attempt(operation, body: prepared, attempt: attempt, logger: logger)
            return (response.headers, try await response.xml(operation: operation.name))
        }
    }

    /// Runs `body` under the configured policy, with the client's classification of its errors: the one retry
    /// path of every request, whatever the transport (a transport sends one attempt).
    ///
    /// The policy's classifier sees a service's answer as ``RetryFailure/status(_:_:)`` (its status and
    /// `Retry-After`), then as ``RetryFailure/error(_:)`` carrying the ``ServiceError``; any other failure as
    /// ``RetryFailure/error(_:)``. Where it returns `nil`, the client's defaults apply.
    func withRetries<Result>(
        replayable: Bool,
        logger: Logger,
        _ body: (_ attempt: Int) async throws -> Result
    ) async throws -> Result {
        var policy = self.configuration.retry
        if !replayable { policy.maxAttempts = 1 }
        let userClassifier = policy.classifier
        policy.classifier = { failure in
            guard case .error(let error) = failure else { return userClassifier?(failure) }
            switch error {
            case let error as ServiceError:
                return userClassifier?(.status(error.status, error.retryHeaders)) ?? userClassifier?(failure)
                    ?? error.retryDecision
            case let error as ObjectStorageError:
                return userClassifier?(failure) ?? (error.code == .integrityMismatch ? .retry : .doNotRetry)
            default:
                return userClassifier?(failure)
            }
        }
        let deadline = NIODeadline.now() + TimeAmount(self.configuration.timeout)
        do {
            return try await policy.run(deadline: deadline, logger: logger, body)
        } catch {
            // Cancellation has one shape everywhere, operations and transfers alike.
            if Self.isCancellation(error) { throw CancellationError() }
            logger.debug("operation failed", metadata: ["error.description": "\(error)"])
            throw error
        }
    }

    /// One attempt: credentials, signature, send, status check, upload checksum check.
    func attempt(
        _ operation: OperationRequest,
        body: PreparedBody,
        attempt: Int,
        logger: Logger
    ) async throws -> TransportResponse {
        let offset = self.clock.offsetMilliseconds
        let (request, uploadCRC) = try await self.makeTransportRequest(
            operation,
            body: body,
            offset: offset,
            logger: logger
        )
        var attemptLogger = logger
        attemptLogger[metadataKey: "os.attempt"] = "\(attempt)"
        let deadline = NIODeadline.now() + TimeAmount(self.configuration.timeout)
        var response = try await self.transport.execute(request, deadline: deadline, logger: attemptLogger)
        // Whatever the transport, a body that ends short of its Content-Length throws rather than ending.
        response.body = response.body.checkingLength(
            method: request.method,
            status: response.status,
            headers: response.headers
        )
        attemptLogger.debug("response", metadata: ["http.status": "\(response.status.code)"])
        guard (200..<300).contains(response.status.code) else {
            throw await self.serviceError(for: operation, response: response, offsetUsed: offset, logger: attemptLogger)
        }
        if self.configuration.isOSS, let uploadCRC {
            try Integrity.check(
                computed: uploadCRC(),
                reported: response.headers.first(name: Integrity.crc64Header),
                operation: operation.name
            )
        }
        return response
    }

    /// Signs `operation` (or leaves it anonymous) and builds the transport request.
    func makeTransportRequest(
        _ operation: OperationRequest,
        body: PreparedBody,
        offset: Int64,
        logger: Logger
    ) async throws -> (TransportRequest, (@Sendable () -> UInt64)?) {
        try self.validateNames(of: operation)
        let (transportBody, uploadCRC) = body.makeAttemptBody()
        let signingRequest = SigningRequest(
            method: operation.method.rawValue,
            endpoint: self.configuration.endpoint,
            addressing: self.configuration.effectiveAddressing,
            bucket: operation.bucket,
            key: operation.key,
            query: operation.query,
            headers: operation.headers
        )
        var headers = HTTPHeaders()
        let url: String
        if let provider = self.configuration.credentials {
            let credentials = try await provider.credentials(logger: logger)
            let signed = try self.configuration.signer.sign(
                signingRequest,
                credentials: credentials,
                at: self.signingDate(offsetMilliseconds: offset),
                payload: body.payloadHash(for: self.configuration.signatureVersion)
            )
            url = signed.url
            for header in signed.headers where header.name.lowercased() != "host" {
                headers.add(name: header.name, value: header.value)
            }
        } else {
            url = URLBuilder.url(for: signingRequest)
            for header in operation.headers { headers.add(name: header.name, value: header.value) }
        }
        let request = TransportRequest(method: operation.method, url: url, headers: headers, body: transportBody)
        return (request, uploadCRC)
    }

    /// Refuses a bucket or key that would address something else than the caller meant
    /// (see ``ObjectNameRules``), before anything is signed or sent.
    func validateNames(of operation: OperationRequest) throws(ObjectStorageError) {
        if let bucket = operation.bucket { try ObjectNameRules.validateBucketReference(bucket) }
        if let key = operation.key { try ObjectNameRules.validateObjectKey(key, for: self.configuration.provider) }
    }

    /// The local clock plus the learned offset.
    func signingDate(offsetMilliseconds: Int64) -> Date {
        self.configuration.now().addingTimeInterval(Double(offsetMilliseconds) / 1000)
    }

    func operationLogger(_ operation: OperationRequest, _ logger: Logger?) -> Logger {
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "\(operation.name)"
        if let bucket = operation.bucket { logger[metadataKey: "os.bucket"] = "\(bucket)" }
        if let key = operation.key { logger[metadataKey: "os.key"] = "\(key)" }
        return logger
    }

    /// Reads the error document (if any), learns the clock offset when the service says the
    /// request time is skewed, and returns the error to throw.
    func serviceError(
        for operation: OperationRequest,
        response: TransportResponse,
        offsetUsed: Int64,
        logger: Logger
    ) async -> ServiceError {
        var body: [UInt8] = []
        if operation.method != .HEAD,
            let buffer = try? await response.body.collect(upTo: 1 << 20)
        {
            body = Array(buffer.readableBytesView)
        }
        var error = ServiceError(
            status: Int(response.status.code),
            headers: response.headers,
            body: body,
            isBucketRequest: operation.key == nil
        )
        let isSkewed = error.code == .requestTimeTooSkewed
        let isBodilessForbidden = operation.method == .HEAD && error.statusCode == 403 && body.isEmpty
        if isSkewed || isBodilessForbidden,
            let serverDate = error.serverDate ?? error.details["ServerTime"].flatMap(HTTPDates.parse)
        {
            let learned = Int64((serverDate.timeIntervalSince(self.configuration.now()) * 1000).rounded())
            let drift = learned - offsetUsed
            if isSkewed ? abs(drift) >= 1000 : abs(drift) >= ClockCorrection.noiseThresholdMilliseconds {
                self.clock.set(learned)
                error.correctedClock = true
                logger.notice(
                    "corrected the signing clock from the server's time",
                    metadata: ["os.clock_offset_ms": "\(learned)"]
                )
            }
        }
        logger.debug(
            "service error",
            metadata: [
                "http.status": "\(error.statusCode)", "os.error_code": "\(error.code)",
                "os.request_id": "\(error.requestID ?? "-")",
            ]
        )
        return error
    }
}

/// A request body made ready for repeated attempts: its length resolved, its checksum computed
/// once when it is in memory.
struct PreparedBody: Sendable {
    let body: UploadBody?
    let inMemoryCRC: UInt64?
    let sha256: PayloadHash?
    let tracksCRC: Bool

    init(_ body: UploadBody?, configuration: ObjectStorageClient.Configuration, checksCRC: Bool = true) throws {
        let resolved = try body?.resolved()
        self.body = resolved
        self.tracksCRC = checksCRC && configuration.isOSS && resolved != nil
        if let bytes = resolved?.inMemoryBytes {
            self.inMemoryCRC = self.tracksCRC ? CRC64.checksum(bytes.readableBytesView) : nil
            self.sha256 = configuration.signatureVersion == .sigV4 ? .sha256(of: bytes.readableBytesView) : nil
        } else {
            self.inMemoryCRC = nil
            self.sha256 = resolved == nil && configuration.signatureVersion == .sigV4 ? .emptySHA256 : nil
        }
    }

    var isReplayable: Bool { self.body?.isReplayable ?? true }

    func payloadHash(for version: SignatureVersion) -> PayloadHash {
        version == .sigV4 ? (self.sha256 ?? .unsigned) : .unsigned
    }

    /// The body for one attempt, and how to read the CRC of what it sent.
    func makeAttemptBody() -> (TransportRequest.Body?, (@Sendable () -> UInt64)?) {
        guard let body = self.body else { return (nil, nil) }
        switch body.storage {
        case .bytes(let buffer):
            guard let crc = self.inMemoryCRC else { return (.bytes(buffer), nil) }
            let read: @Sendable () -> UInt64 = { crc }
            return (.bytes(buffer), read)
        case .file(let path, let offset, let length):
            let file = TransportRequest.Body.file(path: path, offset: offset, length: length ?? 0)
            return self.tracking(file, length: length ?? 0)
        case .stream(let stream):
            return self.tracking(stream, length: stream.length)
        }
    }

    private func tracking(
        _ body: TransportRequest.Body,
        length: Int64?
    ) -> (TransportRequest.Body?, (@Sendable () -> UInt64)?) {
        guard self.tracksCRC else { return (body, nil) }
        let accumulator = CRC64Accumulator()
        let wrapped = TransportRequest.Body.stream(
            ChecksummingSequence(base: body, observe: accumulator.update),
            length: length
        )
        return (wrapped, { accumulator.value })
    }
}

extension ServiceError {
    /// How the client's retry classifier treats this error.
    var retryDecision: RetryDecision {
        if self.correctedClock { return .retry(after: .zero) }
        if self.code == .requestTimeTooSkewed { return .doNotRetry }
        let retryableCodes: Set<Code> = [.internalError, .slowDown, "ServiceUnavailable", "RequestTimeout"]
        if RetryPolicy.isRetryableStatus(self.status) || retryableCodes.contains(self.code) {
            if let retryAfter = self.retryAfter, let delay = RetryAfter.parse(retryAfter) {
                return .retry(after: delay)
            }
            return .retry
        }
        return .doNotRetry
    }

    /// The answer's status.
    var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: self.statusCode) }

    /// The answer's headers a retry decision reads (`Retry-After`).
    var retryHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        if let retryAfter = self.retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
        return headers
    }
}

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

extension ObjectStorageClient {
    /// The one request path: every request the client sends, wrapped or sent as is, goes through here.
    ///
    /// Each attempt builds its request (`prepare` adjusts a copy of `operation` for it: a part's body read again
    /// with its digest, a range resumed from the byte reached), fetches credentials, signs with the corrected
    /// clock (a presigned URL is sent as it is), sends, turns a non-2xx answer into a ``ServiceError``, checks the
    /// checksum the service echoes or reports of what was sent, and hands the answer to `read` — inside the
    /// attempt, so an answer cut off mid-body is retried like any other transient failure.
    ///
    /// Failures are classified in one place (``RetryClassifier``) and retried under the configured policy: its
    /// backoff and `Retry-After`, within `maxAttempts`, no retry starting later than the client's timeout after
    /// the first attempt. A one-shot stream body without `prepare` is sent once. With `keptBytes`, an attempt that
    /// moved at least the policy's `progressResetBytes` that the next one keeps restores the budget (attempts and
    /// time).
    ///
    /// - Parameters:
    ///   - operation: The request.
    ///   - logger: The logger (the client's when `nil`).
    ///   - retries: `false` to send once (a caller that retries a larger whole, such as a streamed copy's pair).
    ///   - checksUploadCRC: Whether OSS's CRC-64 of an uploaded body is compared with what was sent.
    ///   - keptBytes: How many bytes the request has moved that a next attempt keeps.
    ///   - prepare: Adjusts the request for attempt `n` (1-based); called once per attempt, before signing.
    ///   - read: Reads the 2xx answer of an attempt.
    /// - Returns: What `read` returns for the successful attempt.
    /// - Throws: ``ServiceError``, ``/ObjectStorageTransport/TransportError`` (with its attempts and time),
    ///   ``ObjectStorageError``, what `prepare` or `read` throw, `CancellationError`.
    func send<Result>(
        _ operation: OperationRequest,
        logger: Logger?,
        retries: Bool = true,
        checksUploadCRC: Bool = true,
        keptBytes: (@Sendable () -> Int64)? = nil,
        prepare: ((inout OperationRequest, _ attempt: Int) async throws -> Void)? = nil,
        read: (TransportResponse) async throws -> Result
    ) async throws -> Result {
        let logger = self.operationLogger(operation, logger)
        let fixedBody =
            prepare == nil
            ? try PreparedBody(for: operation, configuration: self.configuration, checksCRC: checksUploadCRC) : nil
        var policy = self.configuration.retry
        if !retries || !(fixedBody?.isReplayable ?? true) { policy.maxAttempts = 1 }
        do {
            return try await policy.run(
                timeLimit: self.configuration.timeout,
                logger: logger,
                keptBytes: keptBytes,
                classify: { [policy] error in RetryClassifier.decision(for: error, policy: policy) },
                { attempt in
                    var request = operation
                    let body: PreparedBody
                    if let prepare {
                        try await prepare(&request, attempt)
                        body = try PreparedBody(
                            for: request,
                            configuration: self.configuration,
                            checksCRC: checksUploadCRC
                        )
                    } else {
                        body = try fixedBody ?? PreparedBody(for: nil, configuration: self.configuration)
                    }
                    let response = try await self.attempt(request, body: body, attempt: attempt, logger: logger)
                    return try await read(response)
                }
            )
        } catch {
            // Cancellation has one shape everywhere, operations and transfers alike.
            if Self.isCancellation(error) { throw CancellationError() }
            logger.debug("operation failed", metadata: ["error.description": "\(error)"])
            throw error
        }
    }

    /// Sends `operation` through the request path and returns the headers of its 2xx answer, whose short body
    /// (empty, or a document nobody reads) is drained.
    @discardableResult
    func executeDraining(_ operation: OperationRequest, logger: Logger?) async throws -> HTTPHeaders {
        let response = try await self.execute(operation, logger: logger)
        _ = try? await response.body.collect(upTo: 1 << 16)
        return response.headers
    }

    /// Sends `operation` through the request path and returns its 2xx answer, whose body the caller reads (outside
    /// the retries).
    func execute(
        _ operation: OperationRequest,
        logger: Logger?,
        checksUploadCRC: Bool = true
    ) async throws -> TransportResponse {
        try await self.send(operation, logger: logger, checksUploadCRC: checksUploadCRC) { $0 }
    }

    /// Sends `operation` and reads its XML answer inside the retries, so an answer cut off mid-body is retried like
    /// any other transient failure.
    func executeXML(
        _ operation: OperationRequest,
        logger: Logger?,
        checksUploadCRC: Bool = true
    ) async throws -> (headers: HTTPHeaders, root: XMLNode) {
        try await self.send(operation, logger: logger, checksUploadCRC: checksUploadCRC) { response in
            (response.headers, try await response.xml(operation: operation.name))
        }
    }

    /// One attempt: credentials, signature, send, status check, and the checks of what the service reports of the
    /// uploaded bytes.
    private func attempt(
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
        var response: TransportResponse
        if let consumer = operation.consumer {
            response = try await self.transport.execute(
                request,
                deadline: deadline,
                logger: attemptLogger,
                consumer: consumer
            )
        } else {
            response = try await self.transport.execute(request, deadline: deadline, logger: attemptLogger)
            // Whatever the transport, a body that ends short of its Content-Length throws rather than ending.
            response.body = response.body.checkingLength(
                method: request.method,
                status: response.status,
                headers: response.headers
            )
        }
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
        try operation.sentChecksum?.check(response.headers, operation: operation.name)
        return response
    }

    /// Signs `operation` (or leaves it anonymous) and builds the transport request.
    func makeTransportRequest(
        _ operation: OperationRequest,
        body: PreparedBody,
        offset: Int64,
        logger: Logger
    ) async throws -> (TransportRequest, (@Sendable () -> UInt64)?) {
        let (transportBody, uploadCRC) = body.makeAttemptBody()
        if let url = operation.presignedURL {
            var headers = HTTPHeaders()
            for header in operation.headers { headers.add(name: header.name, value: header.value) }
            return (
                TransportRequest(method: operation.method, url: url, headers: headers, body: transportBody), uploadCRC
            )
        }
        try self.validateNames(of: operation)
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
            for header in signed.headers where !asciiCaseInsensitiveEquals(header.name, "host") {
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
        if let key = operation.key { try ObjectNameRules.validateObjectKey(key, for: self.configuration.vendor) }
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
            isBucketRequest: operation.key == nil && operation.presignedURL == nil
        )
        (error.bucket, error.key) = (operation.bucket, operation.key)
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

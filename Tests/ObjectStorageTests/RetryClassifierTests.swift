//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageTransport
import Testing

/// The one place the client decides whether a failed attempt is worth another, pinned failure by failure.
@Suite("The retry classifier")
struct RetryClassifierTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var error: any Error & Sendable
        var expected: RetryDecision
        var resendsDamagedBodies = true

        var testDescription: String { self.name }
    }

    struct Unknown: Error {}

    static func service(_ status: Int, _ code: ServiceError.Code, retryAfter: String? = nil) -> ServiceError {
        var error = ServiceError(statusCode: status, code: code, message: "")
        error.retryAfter = retryAfter
        return error
    }

    static let cases: [Case] = [
        Case(name: "500 InternalError", error: service(500, .internalError), expected: .retry),
        Case(name: "503 SlowDown", error: service(503, .slowDown), expected: .retry),
        Case(name: "502 with no code", error: service(502, "BadGateway"), expected: .retry),
        Case(
            name: "429 with Retry-After",
            error: service(429, "TooManyRequests", retryAfter: "2"),
            expected: .retry(after: .seconds(2))
        ),
        Case(name: "408", error: service(408, "RequestTimeout"), expected: .retry),
        Case(name: "400 RequestTimeout (a slow upload)", error: service(400, "RequestTimeout"), expected: .retry),
        Case(name: "503 ServiceUnavailable", error: service(503, "ServiceUnavailable"), expected: .retry),
        Case(name: "404 NoSuchKey", error: service(404, .noSuchKey), expected: .doNotRetry),
        Case(name: "404 NoSuchBucket", error: service(404, .noSuchBucket), expected: .doNotRetry),
        Case(name: "403 AccessDenied", error: service(403, .accessDenied), expected: .doNotRetry),
        Case(name: "403 SignatureDoesNotMatch", error: service(403, .signatureDoesNotMatch), expected: .doNotRetry),
        Case(name: "412 PreconditionFailed", error: service(412, .preconditionFailed), expected: .doNotRetry),
        Case(name: "400 InvalidPart", error: service(400, .invalidPart), expected: .doNotRetry),
        Case(name: "400 BadDigest (damaged on the way)", error: service(400, .badDigest), expected: .retry),
        Case(
            name: "400 BadDigest, the policy resends no damaged body",
            error: service(400, .badDigest),
            expected: .doNotRetry,
            resendsDamagedBodies: false
        ),
        Case(name: "403 RequestTimeTooSkewed", error: service(403, .requestTimeTooSkewed), expected: .doNotRetry),
        Case(
            name: "RequestTimeTooSkewed once the clock was corrected",
            error: {
                var error = service(403, .requestTimeTooSkewed)
                error.correctedClock = true
                return error
            }(),
            expected: .retry(after: .zero)
        ),
        Case(
            name: "integrityMismatch",
            error: ObjectStorageError(code: .integrityMismatch, message: "CRC"),
            expected: .retry
        ),
        Case(name: "fileSystem", error: ObjectStorageError(code: .fileSystem, message: "disk"), expected: .doNotRetry),
        Case(name: "connection closed", error: TransportError(code: .connectionClosed, message: ""), expected: .retry),
        Case(name: "connect refused", error: TransportError(code: .connectFailed, message: ""), expected: .retry),
        Case(name: "body stalled", error: TransportError(code: .transferStalled, message: ""), expected: .retry),
        Case(name: "attempt deadline", error: TransportError(code: .deadlineExceeded, message: ""), expected: .retry),
        Case(name: "host not found", error: TransportError(code: .hostNotFound, message: ""), expected: .doNotRetry),
        Case(name: "TLS", error: TransportError(code: .tlsFailed, message: ""), expected: .doNotRetry),
        Case(name: "redirect", error: TransportError(code: .redirectRefused, message: ""), expected: .doNotRetry),
        Case(name: "transport cancelled", error: TransportError(code: .cancelled, message: ""), expected: .doNotRetry),
        Case(name: "CancellationError", error: CancellationError(), expected: .doNotRetry),
        Case(name: "an unknown error", error: Unknown(), expected: .doNotRetry),
    ]

    @Test(arguments: cases)
    func decides(_ failure: Case) {
        var policy = RetryPolicy.exponentialJitter()
        policy.resendsDamagedBodies = failure.resendsDamagedBodies
        #expect(RetryClassifier.decision(for: failure.error, policy: policy) == failure.expected)
    }
}

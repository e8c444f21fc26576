//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageTransport

/// Whether a failed attempt is worth another: the one place the client decides it, for every request it sends.
///
/// | Failure | Decision |
/// |---|---|
/// | A cancelled task | never |
/// | ``/ObjectStorageTransport/TransportError``: a transient connection failure (refused, reset, closed, timed out), a body below the minimum transfer rate, a per-attempt deadline | retry |
/// | Other transport errors (a name that does not resolve, TLS, a redirect, a malformed answer, a full connection pool) | no |
/// | ``ServiceError`` 408, 429, 5xx, `InternalError`, `SlowDown`, `ServiceUnavailable`, `RequestTimeout` | retry, after `Retry-After` when given |
/// | ``ServiceError`` `RequestTimeTooSkewed` once the signing clock was corrected from the answer | retry at once |
/// | ``ServiceError`` `BadDigest` (the body was damaged on the way), when the policy resends damaged bodies | retry |
/// | ``ObjectStorageError/Code/integrityMismatch`` (bytes that do not match their checksum) | retry |
/// | Anything else | no |
///
/// A retry happens only for a request whose body can be sent again (in memory, a file region, or one built afresh
/// for each attempt); the request path sends a one-shot stream once.
package enum RetryClassifier {
    /// The decision for `error` under `policy`.
    package static func decision(for error: any Error, policy: RetryPolicy) -> RetryDecision {
        if RetryPolicy.isCancellation(error) { return .doNotRetry }
        switch error {
        case let error as ServiceError:
            if error.code == .badDigest { return policy.resendsDamagedBodies ? .retry : .doNotRetry }
            return error.retryDecision
        case let error as ObjectStorageError:
            return error.code == .integrityMismatch ? .retry : .doNotRetry
        case let error as TransportError:
            return error.retryDecision
        default:
            return .doNotRetry
        }
    }
}

extension ServiceError {
    /// How the classifier treats this answer (``RetryClassifier``).
    var retryDecision: RetryDecision {
        if self.correctedClock { return .retry(after: .zero) }
        if self.code == .requestTimeTooSkewed { return .doNotRetry }
        let retryableCodes: Set<Code> = [.internalError, .slowDown, "ServiceUnavailable", "RequestTimeout"]
        if RetryPolicy.isRetryableStatus(HTTPResponseStatus(statusCode: self.statusCode))
            || retryableCodes.contains(self.code)
        {
            if let retryAfter = self.retryAfter, let delay = RetryAfter.parse(retryAfter) {
                return .retry(after: delay)
            }
            return .retry
        }
        return .doNotRetry
    }
}

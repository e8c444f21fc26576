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
import ObjectStorageTransport
import Synchronization

/// A transport that sends every request to the real peer but spoils every odd-numbered answer:
/// a body-less answer becomes a 503, and a body is cut off halfway with `connectionClosed`.
///
/// The peer has really executed the spoiled request, so the client's retry must re-sign and replay
/// the body, and an idempotent retry must leave the same result.
final class FlakyTransport: HTTPTransport {
    let base: any HTTPTransport
    private let counter = Mutex(0)
    private let injected = Mutex(0)

    init(base: any HTTPTransport) {
        self.base = base
    }

    /// How many answers were spoiled.
    var faults: Int { self.injected.withLock { $0 } }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        let number = self.counter.withLock { count in
            count += 1
            return count
        }
        let response = try await self.base.execute(request, deadline: deadline, logger: logger)
        guard number % 2 == 1 else { return response }
        self.injected.withLock { $0 += 1 }
        if request.method == .GET && response.status.code / 100 == 2 {
            var body = try await response.body.collect(upTo: 64 << 20)
            let half = body.readSlice(length: body.readableBytes / 2) ?? ByteBuffer()
            let truncated = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
                continuation.yield(half)
                continuation.finish(
                    throwing: TransportError(code: .connectionClosed, message: "injected: connection closed mid-body")
                )
            }
            return TransportResponse(status: response.status, headers: response.headers, body: .stream(truncated))
        }
        _ = try? await response.body.collect(upTo: 64 << 20)
        return TransportResponse(status: .serviceUnavailable, headers: ["Content-Length": "0"])
    }
}

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

/// Passes requests to the peer, except that every matching request after the first `limit` is held
/// (announced on `held`, then kept waiting until its task is cancelled): a deterministic pause point.
final class HoldingTransport: HTTPTransport {
    /// UploadPart requests.
    static let uploadPart: @Sendable (TransportRequest) -> Bool = {
        $0.method == .PUT && $0.url.contains("partNumber=")
    }
    /// GETs with a Range header (the parts of a resumable download).
    static let rangedGet: @Sendable (TransportRequest) -> Bool = {
        $0.method == .GET && $0.headers.contains(name: "Range")
    }

    let base: any HTTPTransport
    let limit: Int
    let matching: @Sendable (TransportRequest) -> Bool
    let held: AsyncStream<Void>.Continuation
    private let seen = Mutex(0)

    init(
        base: any HTTPTransport,
        limit: Int,
        matching: @escaping @Sendable (TransportRequest) -> Bool,
        held: AsyncStream<Void>.Continuation
    ) {
        self.base = base
        self.limit = limit
        self.matching = matching
        self.held = held
    }

    func execute(_ request: TransportRequest, deadline: NIODeadline, logger: Logger) async throws -> TransportResponse {
        if self.matching(request) {
            let number = self.seen.withLock { count in
                count += 1
                return count
            }
            if number > self.limit {
                self.held.yield()
                try await Task.sleep(for: .seconds(600))
            }
        }
        return try await self.base.execute(request, deadline: deadline, logger: logger)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageTransport
import Synchronization

/// Counts the bytes of one upload request (a part, or a single PUT) as they are sent, so progress moves
/// within a part instead of one whole part at a time.
///
/// Each attempt of the request path sends a fresh ``body(path:range:)``, built by the request's `prepare` hook,
/// which first calls ``rewind()`` to take back what a failed attempt counted (the reporter keeps its high-water
/// mark, so reports still never go backwards); the caller rewinds once more when the request fails.
final class UploadProgressCounter: Sendable {
    /// The size of the pieces a part is sent in (with `sendfile` over plain http) or read in (otherwise), and so
    /// the step of the progress within a part.
    static let pieceSize = TransportRequest.Body.defaultFileChunkSize

    private let reporter: TransferProgressReporter
    private let counted = Atomic<Int64>(0)

    init(reporter: TransferProgressReporter) {
        self.reporter = reporter
    }

    /// A body over `range` of the file at `path` that counts its pieces as they are sent (or read for sending).
    ///
    /// It is a file body, so the transport may send it with `sendfile`; it is wrapped as a one-shot body because
    /// each attempt builds a fresh one (and rewinds the count).
    func body(path: String, range: Range<Int64>) -> UploadBody {
        let file = TransportRequest.Body.file(
            path: path,
            offset: range.lowerBound,
            length: range.upperBound - range.lowerBound,
            chunkSize: Self.pieceSize,
            progress: { [self] count in self.add(count) }
        )
        return UploadBody(storage: .stream(file))
    }

    private func add(_ count: Int) {
        self.counted.add(Int64(count), ordering: .relaxed)
        self.reporter.add(Int64(count))
    }

    /// The request path's `prepare` hook for an attempt that sends `range` of `path`: takes back what an earlier
    /// attempt counted and gives the request a fresh counting body.
    func prepare(path: String, range: Range<Int64>) -> (inout OperationRequest, Int) async throws -> Void {
        { operation, _ in
            self.rewind()
            operation.body = self.body(path: path, range: range)
        }
    }

    /// Takes back the bytes counted by an attempt that did not succeed.
    func rewind() {
        let count = self.counted.exchange(0, ordering: .relaxed)
        if count != 0 { self.reporter.remove(count) }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import ObjectStorageCheckpoint
import ObjectStorageTransport

extension ObjectStorageClient {
    /// Runs a resumable transfer (`uploadFile`, `resumableDownload`, copies) and stamps its duration.
    static func runTransfer(
        logger: Logger,
        _ body: () async throws -> TransferResult
    ) async throws -> TransferResult {
        let start = ContinuousClock.now
        var result = try await self.withTransferErrors(logger: logger, body)
        result.duration = ContinuousClock.now - start
        return result
    }

    /// Runs a transfer or an abandon and gives its failures one shape, whichever the direction:
    /// - any error thrown once the calling task is cancelled (or a transport's cancellation) becomes
    ///   `CancellationError`, a pause;
    /// - a Checkpoint layer error becomes the ``ObjectStorageError`` with the same meaning
    ///   (see ``ObjectStorageError/init(checkpoint:)``);
    /// - ``ServiceError`` and transport errors pass through untouched, with the vendor's code, request
    ///   id and HTTP status.
    ///
    /// Other failures are logged at debug level with their description before they are rethrown, as
    /// failed operations are.
    static func withTransferErrors<Result>(
        logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch {
            if Self.isCancellation(error) { throw CancellationError() }
            let failure: any Error = (error as? CheckpointError).map { ObjectStorageError(checkpoint: $0) } ?? error
            logger.debug("transfer failed", metadata: ["error.description": "\(failure)"])
            throw failure
        }
    }

    /// The client's (or the caller's) logger with a transfer's metadata: the operation, and the bucket and key
    /// when they are known.
    func transferLogger(_ operation: String, bucket: String? = nil, key: String? = nil, _ logger: Logger?) -> Logger {
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "\(operation)"
        if let bucket { logger[metadataKey: "os.bucket"] = "\(bucket)" }
        if let key { logger[metadataKey: "os.key"] = "\(key)" }
        return logger
    }

    /// Whether `error` means "the calling task was cancelled".
    static func isCancellation(_ error: any Error) -> Bool {
        if Task.isCancelled || error is CancellationError { return true }
        if let error = error as? TransportError, error.code == .cancelled { return true }
        return false
    }
}

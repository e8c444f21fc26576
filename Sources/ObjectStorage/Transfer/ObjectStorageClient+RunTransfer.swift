//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging

extension ObjectStorageClient {
    /// Runs a resumable transfer (`uploadFile`, `resumableDownload`) and gives its failures one shape: any error
    /// thrown once the calling task is cancelled becomes `CancellationError` (a pause), and any other failure is
    /// logged at debug level with its description before it is rethrown, as failed operations are.
    static func runTransfer<Result>(
        logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            logger.debug("transfer failed", metadata: ["error.description": "\(error)"])
            throw error
        }
    }
}

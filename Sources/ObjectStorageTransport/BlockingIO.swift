//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import NIOCore
import NIOPosix

/// Runs blocking file-system calls (`fsync`, a checkpoint's write-sync-rename) on NIO's shared thread pool, so
/// they never hold one of the few threads of Swift's cooperative pool while the disk works.
package enum BlockingIO {
    /// Runs `work` on `NIOThreadPool.singleton` and returns its result.
    ///
    /// - Parameter work: The blocking work.
    /// - Returns: What `work` returns.
    /// - Throws: What `work` throws, or `CancellationError` when the task was cancelled before `work` started.
    package static func run<Result: Sendable>(
        _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await NIOThreadPool.singleton.runIfActive(work)
    }

    /// Runs `work` on `NIOThreadPool.singleton` and completes the returned future on `eventLoop`.
    ///
    /// - Parameters:
    ///   - eventLoop: The event loop the future completes on.
    ///   - work: The blocking work.
    /// - Returns: A future of what `work` returns.
    package static func run<Result: Sendable>(
        on eventLoop: any EventLoop,
        _ work: @escaping @Sendable () throws -> Result
    ) -> EventLoopFuture<Result> {
        NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop, work)
    }
}

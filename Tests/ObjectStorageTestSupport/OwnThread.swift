//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Runs blocking work (waiting for a child process, reading its pipes to the end, sleeping between polls) on a
/// thread of its own and waits for it without holding a thread.
///
/// Tests run on Swift's concurrency pool, which has one thread per core: two tests blocked in a child process on a
/// 2-core machine stalled every other test in the process (in-process servers included) for 40 s, until their
/// deadlines passed. Record expectations outside `work`: a detached thread has no current test.
///
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
import Synchronization

/// Starts `process`, one launch at a time in the test process.
///
/// Foundation's `Process.run()` on Linux crashed the whole suite (a bad pointer in `memmove` inside `run()`,
/// with another test's `run()` on a second thread) when tests launched children at the same moment; the
/// launches are quick, so taking them one at a time costs nothing that shows.
///
/// - Parameter process: A configured process.
/// - Throws: What `Process.run()` throws.
public func launch(_ process: Process) throws {
    try processLaunches.withLock { _ in try process.run() }
}

private let processLaunches = Mutex(())

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A task executor that runs the jobs of the tasks preferring it only when ``runUntilIdle()`` is called, on the
/// caller's thread.
///
/// Once ``runUntilIdle()`` returns, every such task has either finished or waits for something outside it (a
/// continuation someone else must resume), so a test sees where a task stopped without giving it time to get
/// there: start it with `Task(executorPreference: executor) { … }`, run it until idle, check its state, act on
/// it from the test (hand it a value, cancel it) and run it again.
final class SteppedExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.jobs.withLock { $0.append(job) }
    }

    /// Runs queued jobs, and those they queue, until none is left.
    func runUntilIdle() {
        while let job = self.jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Runs the parts of a resumable transfer (`resumableDownload`, `uploadFile`) at most `concurrency` at a time,
/// where a part keeps its slot until a checkpoint save that records it is durable: a SIGKILL then loses at most
/// `concurrency` parts. Saves are coalesced: one at a time, each of the latest state.
enum DurablePartScheduler {
    private enum Outcome<Landed: Sendable>: Sendable {
        /// A part finished.
        case landed(Landed)
        /// A save finished: the first `generation` landed parts are durable.
        case saved(generation: Int)
    }

    /// Transfers `parts` and records each as it lands.
    ///
    /// - Parameters:
    ///   - parts: The parts to transfer, in order.
    ///   - concurrency: The slots, shared by parts in flight and parts landed but not yet durable.
    ///   - transfer: Moves one part, in a child task.
    ///   - record: Records a landed part in the transfer's state, in the calling task, one part at a time.
    ///   - prepareSave: Takes a snapshot of the state, which records the first `generation` landed parts, and
    ///     returns the work that makes it durable (run in a child task); `nil` when nothing is saved (checkpoint
    ///     off), in which case a part frees its slot as soon as it lands.
    /// - Throws: The first error of a transfer, a record or a save; the other child tasks are then cancelled.
    static func run<Landed: Sendable>(
        parts: [Int],
        concurrency: Int,
        transfer: @escaping @Sendable (Int) async throws -> Landed,
        record: (Landed) async throws -> Void,
        prepareSave: ((_ generation: Int) async -> @Sendable () async throws -> Void)?
    ) async throws {
        try await withThrowingTaskGroup(of: Outcome<Landed>.self) { group in
            var pending = parts.makeIterator()
            var inFlight = 0
            var landed = 0
            var durable = 0
            var saving = false
            func startParts() {
                while inFlight + (landed - durable) < concurrency, let part = pending.next() {
                    group.addTask { .landed(try await transfer(part)) }
                    inFlight += 1
                }
            }
            startParts()
            while let outcome = try await group.next() {
                switch outcome {
                case .landed(let part):
                    inFlight -= 1
                    try await record(part)
                    landed += 1
                    if prepareSave == nil { durable = landed }
                case .saved(let generation):
                    saving = false
                    durable = max(durable, generation)
                }
                if let prepareSave, !saving, landed > durable {
                    let generation = landed
                    let save = await prepareSave(generation)
                    saving = true
                    group.addTask {
                        try await save()
                        return .saved(generation: generation)
                    }
                }
                startParts()
            }
        }
    }
}

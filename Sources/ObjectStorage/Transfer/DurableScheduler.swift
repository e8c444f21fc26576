//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageTransport

/// Work run by ``DurableScheduler``: where its items come from, how a landed item is recorded, and how the records
/// are made durable. A transfer's parts recorded in its checkpoint, and a directory job's objects recorded in its
/// manifest, are the two.
///
/// Every requirement is called on the scheduler's task, one at a time, so a conformer needs no lock.
protocol DurableWork {
    /// What an item hands back when it lands.
    associatedtype Landed: Sendable

    /// The next item to start, or `nil` when there are no more.
    mutating func next() async throws -> ScheduledItem<Landed>?

    /// Records a landed item, in the order items land.
    ///
    /// - Throws: To stop the work: the scheduler cancels the items in flight and rethrows.
    mutating func record(_ landed: Landed) throws

    /// Whether the records since the last flush need one now.
    var isFlushDue: Bool { get }

    /// Starts a flush of everything recorded so far: returns the blocking work that makes it durable, which the
    /// scheduler runs off the cooperative pool while items go on moving.
    mutating func beginFlush() -> @Sendable () throws -> Void

    /// Makes durable, on the calling task, what landed since the last flush that ended: called once the items have
    /// all landed, or the work failed, when anything is left to flush.
    mutating func flushRemaining() throws
}

/// One item of ``DurableWork``: its weight in the concurrency budget, and the work, run in a child task.
struct ScheduledItem<Landed: Sendable>: Sendable {
    /// How many units of the concurrency budget it takes while it runs (an item that moves several parts at once
    /// takes as many).
    var weight: Int
    var run: @Sendable () async throws -> Landed
}

/// The one scheduler of the transfer engines: runs items within a concurrency budget, records each as it lands,
/// and makes the records durable with flushes coalesced off the cooperative pool.
///
/// - An item starts while the weights in flight (plus, with ``holdsSlotsUntilDurable``, the items landed but not
///   yet durable) stay within ``concurrency``, and no due flush waits for the one running.
/// - One flush runs at a time, of everything recorded when it starts; a flush that comes due while one runs waits
///   for it, the scheduler recording what lands meanwhile. So a crash loses at most what two flushes would have
///   covered, and with ``holdsSlotsUntilDurable`` at most ``concurrency`` items.
/// - The first error (of an item, a record or a flush) cancels the items in flight and is rethrown, once the
///   running flush has ended and what landed before is flushed (``DurableWork/flushRemaining()``), so a pause keeps
///   every landed item.
struct DurableScheduler: Sendable {
    /// The most units of work in flight.
    var concurrency: Int
    /// Whether a landed item keeps its unit of the budget until a flush covers it (a transfer's part: a pause
    /// keeps every finished part, and at most ``concurrency`` are ever to do again).
    var holdsSlotsUntilDurable: Bool

    private enum Event<Landed: Sendable>: Sendable {
        case landed(Landed, weight: Int)
        /// A flush ended: the first `generation` landed items are durable.
        case flushed(generation: Int)
    }

    /// Runs `work` to its end.
    ///
    /// - Throws: The first error of an item, a record or a flush.
    func run<Work: DurableWork>(_ work: inout Work) async throws {
        let concurrency = max(1, self.concurrency)
        let holdsSlots = self.holdsSlotsUntilDurable
        var landed = 0
        var durable = 0
        do {
            try await withThrowingTaskGroup(of: Event<Work.Landed>.self) { group in
                var inFlight = 0
                var isFlushing = false
                var isExhausted = false
                // An item fetched while no slot was free: it starts first once one is.
                var waiting: ScheduledItem<Work.Landed>?
                while true {
                    // Start what fits. A due flush waiting for the running one holds new starts back.
                    while !(isFlushing && work.isFlushDue) {
                        if waiting == nil, !isExhausted {
                            waiting = try await work.next()
                            isExhausted = waiting == nil
                        }
                        let used = inFlight + (holdsSlots ? landed - durable : 0)
                        guard let item = waiting, used == 0 || used + item.weight <= concurrency else { break }
                        waiting = nil
                        inFlight += item.weight
                        group.addTask { .landed(try await item.run(), weight: item.weight) }
                    }
                    guard let event = try await group.next() else { break }
                    switch event {
                    case .landed(let result, let weight):
                        inFlight -= weight
                        try work.record(result)
                        landed += 1
                    case .flushed(let generation):
                        isFlushing = false
                        durable = max(durable, generation)
                    }
                    if !isFlushing, work.isFlushDue {
                        let (generation, flush) = (landed, work.beginFlush())
                        isFlushing = true
                        group.addTask {
                            try await BlockingIO.run(flush)
                            return .flushed(generation: generation)
                        }
                    }
                }
            }
        } catch {
            if landed > durable { try? work.flushRemaining() }
            throw error
        }
        if landed > durable { try work.flushRemaining() }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Merges two sides of a directory job, each in the byte order of its names (the order in which services list
/// keys), name by name: a name on both sides comes out as one pair, a name on one side alone as a pair with the
/// other side `nil`. Names a side left out come out as they are met, before the next pair.
///
/// Pure: it holds one entry per side and knows nothing of files or services, so it runs on any two sequences.
///
/// ```swift
/// var merge = SortedMerge(source: localSide, destination: listingSide)
/// while let step = try await merge.next() {
///     if case .pair(let source, let destination) = step { … }
/// }
/// ```
struct SortedMerge<Source: AsyncIteratorProtocol, Destination: AsyncIteratorProtocol>
where Source.Element == DirectorySideItem, Destination.Element == DirectorySideItem {
    /// What the merge yields.
    enum Step {
        /// The entries of one name: at least one is not `nil`.
        case pair(source: DirectoryEntry?, destination: DirectoryEntry?)
        /// A name one side left out.
        case skipped(name: String, path: String, reason: String, onSource: Bool)
    }

    private var source: Source
    /// `nil` when the job does not compare with the destination (a copy without sync).
    private var destination: Destination?
    private var sourceEntry: DirectoryEntry?
    private var destinationEntry: DirectoryEntry?
    private var sourceEnded = false
    private var destinationEnded: Bool
    /// Names left out by a side while it was being read to its next entry, in the order met.
    private var skipped: [Step] = []

    /// - Parameters:
    ///   - source: The side that is copied from.
    ///   - destination: The side that is compared with, or `nil` to yield the source alone.
    init(source: Source, destination: Destination?) {
        self.source = source
        self.destination = destination
        self.destinationEnded = destination == nil
    }

    /// The next step, or `nil` when both sides are done.
    mutating func next() async throws -> Step? {
        if !self.sourceEnded, self.sourceEntry == nil {
            self.sourceEntry = try await self.read(onSource: true)
            self.sourceEnded = self.sourceEntry == nil
        }
        if !self.destinationEnded, self.destinationEntry == nil {
            self.destinationEntry = try await self.read(onSource: false)
            self.destinationEnded = self.destinationEntry == nil
        }
        if !self.skipped.isEmpty { return self.skipped.removeFirst() }
        switch (self.sourceEntry, self.destinationEntry) {
        case (nil, nil):
            return nil
        case (let from?, let to?):
            let same = from.name.utf8.elementsEqual(to.name.utf8)
            if same || from.name.utf8.lexicographicallyPrecedes(to.name.utf8) {
                self.sourceEntry = nil
                if same { self.destinationEntry = nil }
                return .pair(source: from, destination: same ? to : nil)
            }
            self.destinationEntry = nil
            return .pair(source: nil, destination: to)
        case (let from?, nil):
            self.sourceEntry = nil
            return .pair(source: from, destination: nil)
        case (nil, let to?):
            self.destinationEntry = nil
            return .pair(source: nil, destination: to)
        }
    }

    /// The next entry of a side; the names it leaves out on the way are kept to come out first.
    private mutating func read(onSource: Bool) async throws -> DirectoryEntry? {
        while true {
            let item: DirectorySideItem?
            if onSource {
                item = try await self.source.next()
            } else {
                item = try await self.destination?.next()
            }
            switch item {
            case nil:
                return nil
            case .entry(let entry)?:
                return entry
            case .skipped(let name, let path, let reason)?:
                self.skipped.append(.skipped(name: name, path: path, reason: reason, onSource: onSource))
            }
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A directory job's local side: the regular files of a ``LocalTree``, in name order, minus the names the job's
/// patterns leave out; the names the walk skipped come out as ``DirectorySideItem/skipped(name:path:reason:)``.
struct LocalSide: AsyncIteratorProtocol {
    let tree: LocalTree
    let isFiltered: @Sendable (String) -> Bool

    mutating func next() async throws -> DirectorySideItem? {
        while let item = self.tree.next() {
            switch item {
            case .file(let file):
                if self.isFiltered(file.name) { continue }
                return .entry(
                    DirectoryEntry(
                        name: file.name,
                        size: file.size,
                        modifiedSeconds: file.modificationNanoseconds / 1_000_000_000,
                        path: file.path,
                        modificationNanoseconds: file.modificationNanoseconds
                    )
                )
            case .skipped(let name, let path, let reason):
                if self.isFiltered(name) { continue }
                return .skipped(name: name, path: path, reason: reason)
            }
        }
        return nil
    }
}

/// A directory job's remote side: the objects under a prefix, page by page (the next requested while this one is
/// compared), in key order, named by their key minus the prefix, minus directory markers (keys ending in `/`) and
/// the names the job's patterns leave out. Either the current objects, or each key's version current at an instant
/// (a version listing).
struct ListingSide: AsyncIteratorProtocol {
    enum Source {
        case objects(ReadAheadPages<ListObjectsResponse>.Iterator)
        case versions(KeyVersionsIterator, at: Date)
        /// While a page is read (so that the iterator in hand is the only copy), and after the last.
        case reading
    }

    var source: Source
    let prefix: String
    let isFiltered: @Sendable (String) -> Bool
    /// The rest of the current page, reversed, so that taking the next entry is `popLast`.
    private var page: [DirectoryEntry] = []

    init(
        listing: PaginatedSequence<ListObjectsResponse>,
        prefix: String,
        isFiltered: @escaping @Sendable (String) -> Bool
    ) {
        self.source = .objects(listing.readingAhead().makeAsyncIterator())
        self.prefix = prefix
        self.isFiltered = isFiltered
    }

    init(
        versions: PaginatedSequence<ListObjectVersionsResponse>,
        at date: Date,
        prefix: String,
        isFiltered: @escaping @Sendable (String) -> Bool
    ) {
        self.source = .versions(KeyVersionsIterator(versions) { $0.utf8.starts(with: prefix.utf8) }, at: date)
        self.prefix = prefix
        self.isFiltered = isFiltered
    }

    mutating func next() async throws -> DirectorySideItem? {
        while true {
            if let entry = self.page.popLast() { return .entry(entry) }
            switch self.source {
            case .objects(var pages):
                self.source = .reading
                guard let listed = try await pages.next() else { return nil }
                self.source = .objects(pages)
                self.page = listed.contents.reversed().compactMap { object in
                    self.entry(
                        key: object.key,
                        size: object.size,
                        etag: object.etag,
                        lastModified: object.lastModified
                    )
                }
            case .versions(var keys, let date):
                self.source = .reading
                guard let versions = try await keys.next() else { return nil }
                self.source = .versions(keys, at: date)
                if let then = versions.current(at: date),
                    var entry = self.entry(
                        key: then.key,
                        size: then.size,
                        etag: then.etag,
                        lastModified: then.lastModified
                    )
                {
                    entry.versionID = then.versionID
                    self.page = [entry]
                }
            case .reading:
                return nil
            }
        }
    }

    /// The entry of a listed key; `nil` for a key outside the prefix, a directory marker, or a filtered name.
    private func entry(key: String, size: Int64, etag: String?, lastModified: Date?) -> DirectoryEntry? {
        guard key.utf8.starts(with: self.prefix.utf8), !key.hasSuffix("/") else { return nil }
        let name = String(decoding: key.utf8.dropFirst(self.prefix.utf8.count), as: UTF8.self)
        guard !self.isFiltered(name) else { return nil }
        return DirectoryEntry(
            name: name,
            size: size,
            modifiedSeconds: lastModified.map { Int64($0.timeIntervalSince1970.clamped(to: -1e12...1e12)) },
            key: key,
            etag: etag,
            lastModified: lastModified
        )
    }
}

/// One of the two sides, whichever it is.
enum DirectorySide: AsyncIteratorProtocol {
    case local(LocalSide)
    case listing(ListingSide)
    /// Only while a side is being read: the enum then holds no copy of it, so its page is never copied.
    case reading

    mutating func next() async throws -> DirectorySideItem? {
        switch self {
        case .local(var side):
            self = .reading
            defer { self = .local(side) }
            return try await side.next()
        case .listing(var side):
            self = .reading
            defer { self = .listing(side) }
            return try await side.next()
        case .reading:
            return nil
        }
    }
}

extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

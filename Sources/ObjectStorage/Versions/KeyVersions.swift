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

/// A version listing regrouped by key: each `next()` is every version of one key, newest first, keys in the
/// listing's order (the services list a key's versions together, newest first, across pages).
struct KeyVersionsIterator: AsyncIteratorProtocol {
    private var pages: PaginatedSequence<ListObjectVersionsResponse>.AsyncIterator
    private let includes: @Sendable (String) -> Bool
    /// The rest of the current page, reversed, so that taking the next version is `popLast`.
    private var page: [ListObjectVersionsResponse.Version] = []
    private var isListingComplete = false

    /// - Parameter includes: Whether a key belongs to the walk; the versions of other keys are passed over.
    init(
        _ listing: PaginatedSequence<ListObjectVersionsResponse>,
        includes: @escaping @Sendable (String) -> Bool
    ) {
        self.pages = listing.makeAsyncIterator()
        self.includes = includes
    }

    mutating func next() async throws -> [ListObjectVersionsResponse.Version]? {
        var versions: [ListObjectVersionsResponse.Version] = []
        while true {
            while let version = self.page.last {
                if let first = versions.first, first.key != version.key { return versions }
                self.page.removeLast()
                if self.includes(version.key) { versions.append(version) }
            }
            guard !self.isListingComplete, let listed = try await self.pages.next() else {
                self.isListingComplete = true
                return versions.isEmpty ? nil : versions
            }
            self.page = listed.versions.reversed()
        }
    }
}

extension Array where Element == ListObjectVersionsResponse.Version {
    /// Of one key's versions, newest first: the version that was current at `date` (the newest written at or
    /// before it), or `nil` when the key did not exist then (no version yet, or a delete marker).
    func current(at date: Date) -> ListObjectVersionsResponse.Version? {
        guard let then = self.first(where: { ($0.lastModified ?? .distantFuture) <= date }), !then.isDeleteMarker
        else { return nil }
        return then
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension PaginatedSequence {
    /// The same pages, each requested while the caller works on the one before it.
    ///
    /// For a caller that reads the whole listing (a directory job, `objstore ls`): the service prepares the next page
    /// while the caller compares or prints this one. At most one request is ahead; it is cancelled with the task that
    /// iterates, or when the iterator is dropped. A caller that stops early has paid for one page it did not read,
    /// which is why ``PaginatedSequence`` itself does not read ahead.
    package func readingAhead() -> ReadAheadPages<Page> {
        ReadAheadPages(pages: self)
    }
}

/// Pages of a listing with the next one in flight; see ``PaginatedSequence/readingAhead()``.
package struct ReadAheadPages<Page: Sendable>: AsyncSequence, Sendable {
    package typealias Element = Page

    let pages: PaginatedSequence<Page>

    package func makeAsyncIterator() -> Iterator {
        Iterator(pages: self.pages.makeAsyncIterator())
    }

    /// The iterator: either the listing's own iterator in hand, or the request ahead, which carries it.
    package struct Iterator: AsyncIteratorProtocol {
        /// `nil` while the iterator is inside the request ahead, after the last page, and after an error.
        private var pages: PaginatedSequence<Page>.AsyncIterator?
        private var ahead: PageInFlight<Page>?

        init(pages: PaginatedSequence<Page>.AsyncIterator) {
            self.pages = pages
        }

        /// The next page: the one requested ahead, or when none is, requested now.
        ///
        /// - Returns: The page, or `nil` after the last.
        /// - Throws: What the listing request throws, or `CancellationError` when the task is cancelled.
        package mutating func next() async throws -> Page? {
            let page: Page?
            var rest: PaginatedSequence<Page>.AsyncIterator
            if let ahead = self.ahead {
                self.ahead = nil
                (page, rest) = try await ahead.value()
            } else if var pages = self.pages {
                self.pages = nil
                page = try await pages.next()
                rest = pages
            } else {
                return nil
            }
            guard let page else { return nil }
            if rest.finished {
                self.pages = rest
            } else {
                self.ahead = PageInFlight { [rest] in
                    var pages = rest
                    let page = try await pages.next()
                    return (page, pages)
                }
            }
            return page
        }
    }
}

/// The request for the page ahead; cancelled when nothing holds it any more, so an abandoned listing stops.
final class PageInFlight<Page: Sendable>: Sendable {
    private let task: Task<(Page?, PaginatedSequence<Page>.AsyncIterator), any Error>

    init(_ fetch: @escaping @Sendable () async throws -> (Page?, PaginatedSequence<Page>.AsyncIterator)) {
        self.task = Task(operation: fetch)
    }

    /// The page and the listing's iterator after it; cancelling the waiting task cancels the request.
    func value() async throws -> (Page?, PaginatedSequence<Page>.AsyncIterator) {
        try await withTaskCancellationHandler {
            try await self.task.value
        } onCancel: {
            self.task.cancel()
        }
    }

    deinit {
        self.task.cancel()
    }
}

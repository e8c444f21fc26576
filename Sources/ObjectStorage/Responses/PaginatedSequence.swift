//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Pages of a listing fetched lazily, one request per page, as the sequence is iterated.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// for try await page in client.listObjects(bucket: "b", prefix: "logs/") {
///     for object in page.contents { print(object.key, object.size) }
/// }
/// ```
public struct PaginatedSequence<Page: Sendable>: AsyncSequence, Sendable {
    /// One page.
    public typealias Element = Page

    /// Fetches the page after `token` (`nil` for the first) and returns it with the next token.
    let fetch: @Sendable (_ token: String?) async throws -> (Page, next: String?)

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let fetch: @Sendable (_ token: String?) async throws -> (Page, next: String?)
        var token: String?
        var finished = false

        /// Fetches the next page.
        ///
        /// - Returns: The page, or `nil` after the last.
        /// - Throws: What the listing request throws.
        public mutating func next() async throws -> Page? {
            guard !self.finished else { return nil }
            let (page, next) = try await self.fetch(self.token)
            if let next, !next.isEmpty, next != self.token {
                self.token = next
            } else {
                self.finished = true
            }
            return page
        }
    }

    /// Makes an iterator that starts from the first page.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(fetch: self.fetch, token: nil)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension LocalObjectServer {
    /// Applies every bucket's lifecycle rules as of `date`, as a service's daily run does, and says what changed:
    /// expired objects deleted (or hidden behind a delete marker in a versioned bucket), noncurrent versions and
    /// lone delete markers removed, storage classes changed, abandoned multipart uploads aborted. The server never
    /// applies rules on its own; tests call this with a date ahead of the objects' times, and `objstore serve
    /// --lifecycle-day` calls it on a timer.
    ///
    /// <!-- snippet: given server: LocalObjectServer -->
    /// ```swift
    /// let report = try server.applyLifecycle(asOf: Date().addingTimeInterval(8 * 86_400))
    /// print(report.expiredObjects, report.abortedUploads)
    /// ```
    ///
    /// - Parameters:
    ///   - date: The moment to apply the rules at.
    ///   - dayLength: How long a rule's day is. With the services' own (a day), an action falls due at the first
    ///     midnight UTC after its days have passed, as on the services; a shorter day (one second) makes days pass
    ///     quickly and drops the rounding.
    /// - Returns: What the rules changed.
    /// - Throws: ``LifecycleUnavailable`` while the server is not running.
    @discardableResult
    public func applyLifecycle(
        asOf date: Date = Date(),
        dayLength: Duration = .seconds(86_400)
    ) throws
        -> LifecycleReport
    {
        guard let store = self.store else { throw LifecycleUnavailable() }
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return store.applyLifecycle(LifecycleClock(now: seconds, dayLength: max(1, dayLength.components.seconds)))
    }
}

/// Lifecycle rules were to be applied by a server that is not running.
public struct LifecycleUnavailable: Error, CustomStringConvertible {
    /// The reason, as a sentence.
    public var description: String { "the local server applies lifecycle rules only while it runs" }
}

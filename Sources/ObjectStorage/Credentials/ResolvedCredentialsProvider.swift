//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
package import ObjectStorageSigning
import Synchronization

/// A provider that reads where credentials come from (a profile, a set of variables) at every call, and keeps one
/// provider per distinct answer: edits to the files are seen at the next call, while an STS role, a process or a
/// metadata service is asked only when its cached credentials are due for a refresh.
package struct ResolvedCredentialsProvider: DelegatingCredentialsProvider, CustomStringConvertible {
    /// The providers built so far, by source; at most ``maximumCached`` (then the oldest answers are dropped).
    private final class Cache: Sendable {
        let providers = Mutex<[CredentialSource: any CredentialsProvider]>([:])
    }

    /// The most sources remembered at once (a profile edited in a loop must not grow memory).
    static let maximumCached = 16

    private let name: String
    private let resolve: @Sendable () throws -> CredentialSource
    private let environment: [String: String]?
    private let cache = Cache()

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - name: The description, e.g. `profile(aws, dev)`.
    ///   - environment: The variables the built providers read, or `nil` for the process's.
    ///   - resolve: Reads the source; its `notFound` lets a chain move on.
    package init(
        _ name: String,
        environment: [String: String]?,
        resolve: @escaping @Sendable () throws -> CredentialSource
    ) {
        self.name = name
        self.environment = environment
        self.resolve = resolve
    }

    /// The provider for the current source.
    package func currentProvider() throws -> any CredentialsProvider {
        let source = try self.resolve()
        return self.cache.providers.withLock { providers in
            if let provider = providers[source] { return provider }
            if providers.count >= Self.maximumCached { providers.removeAll() }
            let provider = source.makeProvider(environment: self.environment)
            providers[source] = provider
            return provider
        }
    }

    /// Reads the source, then asks its provider.
    ///
    /// - Parameter logger: A logger for diagnostics.
    /// - Returns: The source's credentials.
    /// - Throws: The resolution's error (`notFound` when nothing is configured), or the provider's.
    package func credentials(logger: Logger) async throws -> Credentials {
        try await self.currentProvider().credentials(logger: logger)
    }

    package var description: String {
        self.name
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A provider that picks, at each call, another provider to do the work: a profile that names a role, the
/// environment's web identity. `objstore whoami` follows these to say which source answered.
package protocol DelegatingCredentialsProvider: CredentialsProvider {
    /// The provider that answers now.
    ///
    /// - Throws: What reading the source throws (`notFound` when nothing is configured).
    func currentProvider() throws -> any CredentialsProvider
}

extension ChainCredentialsProvider {
    /// The providers `provider` hands its work to now, outermost first, `provider` included: each named by its
    /// description, for `objstore whoami`. Stops at the first provider that delegates to nothing it can name.
    ///
    /// - Parameter provider: A provider a chain found credentials with.
    /// - Returns: At least `provider` itself.
    package static func delegation(of provider: any CredentialsProvider) -> [any CredentialsProvider] {
        var path: [any CredentialsProvider] = [provider]
        // Bounded: a delegation never loops in this package, but a bound costs nothing.
        while path.count < 8, let delegating = path.last as? any DelegatingCredentialsProvider,
            let next = try? delegating.currentProvider()
        {
            path.append(next)
        }
        return path
    }
}

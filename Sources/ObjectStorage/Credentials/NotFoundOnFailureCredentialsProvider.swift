//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Logging
package import ObjectStorageSigning

/// A provider whose every failure reads as `notFound`, so that a chain moves on: what the vendors' default chains
/// do with a metadata service, which on a machine that is not a cloud instance may be absent, refuse, or be
/// answered by a proxy. The failure's message is kept for the chain's final error.
package struct NotFoundOnFailureCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    private let wrapped: any CredentialsProvider

    package init(_ wrapped: any CredentialsProvider) {
        self.wrapped = wrapped
    }

    package func credentials(logger: Logger) async throws -> Credentials {
        do {
            return try await self.wrapped.credentials(logger: logger)
        } catch let error as CredentialsError {
            throw error.code == .notFound ? error : CredentialsError.notFound(error.message)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CredentialsError.notFound("failed (\(type(of: error)))")
        }
    }

    package var description: String {
        (self.wrapped as? any CustomStringConvertible)?.description ?? "\(type(of: self.wrapped))"
    }
}

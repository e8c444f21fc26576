//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

/// A provider that tries other providers in order and returns the first credentials found.
///
/// The chain moves on only when a provider throws ``CredentialsError/Code/notFound``. Any other
/// error (a half-set environment, a malformed file, a failing token service) ends the chain and
/// reaches the caller, because a source that is configured but broken is a mistake to report, not
/// to skip. When every provider reports `notFound`, the chain throws `notFound` with a message that
/// lists what each provider tried.
///
/// ```swift
/// let provider: some CredentialsProvider = .chain(.environment(.oss), .environment(.s3))
/// ```
public struct ChainCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    /// The providers, in the order they are tried.
    package let providers: [any CredentialsProvider]

    /// Creates a chain.
    ///
    /// - Parameter providers: The providers, in the order they are tried.
    package init(_ providers: [any CredentialsProvider]) {
        self.providers = providers
    }

    /// Returns the first credentials any provider yields.
    ///
    /// - Parameter logger: A logger for diagnostics.
    /// - Returns: The first provider's credentials that did not report `notFound`.
    /// - Throws: The first error that is not ``CredentialsError/Code/notFound``, or `notFound` naming
    ///   every provider tried and why it found nothing.
    public func credentials(logger: Logger) async throws -> Credentials {
        try await self.resolve(logger: logger).credentials
    }

    /// The first credentials any provider yields, with the provider that yielded them (for `objstore whoami`).
    ///
    /// - Parameter logger: A logger for diagnostics.
    /// - Throws: As ``credentials(logger:)``.
    package func resolve(logger: Logger) async throws -> (credentials: Credentials, provider: any CredentialsProvider) {
        var tried: [String] = []
        for provider in self.providers {
            do {
                let credentials = try await provider.credentials(logger: logger)
                logger.debug("credentials found", metadata: ["provider": "\(Self.name(of: provider))"])
                return (credentials, provider)
            } catch let error as CredentialsError where error.code == .notFound {
                tried.append("\(Self.name(of: provider)): \(error.message)")
            }
        }
        if tried.isEmpty {
            throw CredentialsError.notFound("no credentials providers were configured")
        }
        throw CredentialsError.notFound("no credentials found; tried " + tried.joined(separator: "; "))
    }

    /// `chain(environment(OSS), ...)`.
    public var description: String {
        "chain(\(self.providers.map(Self.name(of:)).joined(separator: ", ")))"
    }

    package static func name(of provider: any CredentialsProvider) -> String {
        if let described = provider as? any CustomStringConvertible {
            return described.description
        }
        return String(describing: type(of: provider))
    }
}

extension CredentialsProvider where Self == ChainCredentialsProvider {
    /// A provider that tries `providers` in order and returns the first credentials found.
    ///
    /// - Parameter providers: The providers, in the order they are tried.
    /// - Returns: A chain provider.
    public static func chain(_ providers: any CredentialsProvider...) -> ChainCredentialsProvider {
        ChainCredentialsProvider(providers)
    }

    /// A provider that tries `providers` in order and returns the first credentials found.
    ///
    /// - Parameter providers: The providers, in the order they are tried.
    /// - Returns: A chain provider.
    public static func chain(_ providers: [any CredentialsProvider]) -> ChainCredentialsProvider {
        ChainCredentialsProvider(providers)
    }
}

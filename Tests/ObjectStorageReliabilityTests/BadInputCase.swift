//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import InMemoryLogging
import Logging
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// One row of the bad-input table: an input, the way it is given (API or CLI), and the typed
/// outcome expected.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    /// What a case must produce.
    enum Expected: Sendable {
        /// An ``ObjectStorageError`` with this code whose message contains `mentions`.
        case storage(ObjectStorageError.Code, mentions: String)
        /// A ``SigningError`` with this code.
        case signing(SigningError.Code)
        /// A ``CredentialsError`` with this code.
        case credentials(CredentialsError.Code)
        /// A ``ServiceError`` from the server with this code and status.
        case service(ServiceError.Code, status: Int)
        /// Success, with a warning-level log line containing `mentions` (a clamped value).
        case warning(mentions: String)
        /// The CLI exits with `status` and says `mentions` on standard error.
        case exit(Int32, mentions: String)
    }

    /// How the input is given.
    enum Action: Sendable {
        /// Calls the public API; must throw (or, for `.warning`, succeed).
        case api(@Sendable (Context) async throws -> Void)
        /// Runs `objstore` with these arguments and extra environment.
        case cli(@Sendable (Context) -> [String], environment: [String: String])
        /// Runs a `/bin/sh -c` script in which `$OBJSTORE` is the binary (for bytes `Process` cannot pass).
        case shell(@Sendable (Context) -> String, environment: [String: String])
    }

    /// What a case may use: the running server, a scratch directory with a file to protect, a log.
    struct Context: Sendable {
        let fixture: ServerFixture
        let scratch: Scratch
        let logHandler: InMemoryLogHandler

        var logger: Logger { .capturing(logHandler) }

        func client(_ vendor: StorageVendor) throws -> ObjectStorageClient {
            try fixture.client(vendor, logger: logger)
        }

        /// `--endpoint URL --region R` for the CLI.
        func remote(_ vendor: StorageVendor = .s3) -> [String] {
            ["--endpoint", fixture.endpoint, "--region", fixture.server.configuration.region(for: vendor)]
        }

        /// A 300,000-byte file to upload.
        var source: String { scratch.file("source.bin") }
    }

    var name: String
    var action: Action
    var expected: Expected

    var testDescription: String { name }

    static func api(
        _ name: String,
        _ expected: Expected,
        _ body: @escaping @Sendable (Context) async throws -> Void
    ) -> BadInputCase {
        BadInputCase(name: "API: " + name, action: .api(body), expected: expected)
    }

    static func cli(
        _ name: String,
        _ expected: Expected,
        environment: [String: String] = TestSecrets.s3Environment,
        _ arguments: @escaping @Sendable (Context) -> [String]
    ) -> BadInputCase {
        BadInputCase(name: "CLI: " + name, action: .cli(arguments, environment: environment), expected: expected)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// `objstore serve --access-key-id`: the secret comes from a file or `OBJSTORE_SERVE_ACCESS_KEY_SECRET`, never
/// from the command line, and the running server accepts exactly that key pair.
struct ServeCredentialsTests {
    static let keyID = "SERVECREDENTIALSKEY"
    static let secret = "serve-secret-\(UUID().uuidString)"

    /// Signs with the configured pair (accepted) and with the right id but another secret (refused), and
    /// checks the secret is not in the server's command line.
    private func expectServes(_ server: ObjectsLocalServer) async throws {
        defer { server.stop() }
        let arguments = try String(contentsOfFile: "/proc/\(server.process.pid)/cmdline", encoding: .utf8)
        #expect(arguments.contains(Self.keyID))
        #expect(!arguments.contains(Self.secret))

        let wrong = ObjectsCLI(server: server, dialect: .s3, accessKeyID: Self.keyID, secret: "not-the-secret")
        let refused = try await wrong.run(["mb", "s3://refused"])
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("SignatureDoesNotMatch"), "\(refused.standardError)")

        let right = ObjectsCLI(server: server, dialect: .s3, accessKeyID: Self.keyID, secret: Self.secret)
        #expect(try await right.succeed(["mb", "s3://accepted"]) == "make_bucket: accepted\n")
        try await right.succeed(["ls", "s3://accepted"])
    }

    @Test
    func secretFromTheEnvironment() async throws {
        let server = try await ObjectsLocalServer.start(
            arguments: ["--log-level", "warning", "--access-key-id", Self.keyID],
            environment: ["OBJSTORE_SERVE_ACCESS_KEY_SECRET": Self.secret]
        )
        try await expectServes(server)
    }

    @Test
    func secretFromAFileWithATrailingNewline() async throws {
        let scratch = try ObjectsScratch()
        let file = scratch.path("secret")
        try Data((Self.secret + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let server = try await ObjectsLocalServer.start(
            arguments: ["--log-level", "warning", "--access-key-id", Self.keyID, "--access-key-secret-file", file]
        )
        try await expectServes(server)
    }

    @Test
    func secretOnTheCommandLineIsAUsageError() async throws {
        let result = try await CLIProcess.run(
            ["serve", "--memory", "--access-key-id", Self.keyID, "--access-key-secret", Self.secret],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test
    func keyIDWithoutASecretIsRefused() async throws {
        let missing = try await CLIProcess.run(
            ["serve", "--memory", "--access-key-id", Self.keyID],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(missing.status == 77, "\(missing.standardError)")
        #expect(missing.standardError.contains("OBJSTORE_SERVE_ACCESS_KEY_SECRET"))
        #expect(missing.standardOutput.isEmpty)

        let unreadable = try await CLIProcess.run(
            ["serve", "--memory", "--access-key-id", Self.keyID, "--access-key-secret-file", "/nonexistent/secret"],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(unreadable.status == 65, "\(unreadable.standardError)")

        let orphan = try await CLIProcess.run(
            ["serve", "--memory", "--access-key-secret-file", "/nonexistent/secret"],
            environment: CLIProcess.isolatedEnvironment()
        )
        #expect(orphan.status == 64, "\(orphan.standardError)")
    }
}

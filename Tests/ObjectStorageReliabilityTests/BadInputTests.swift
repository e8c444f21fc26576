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
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Issue 8's bad-input table, through the public API and the `objstore` binary: each case gets the
/// expected typed error (or exit status and message), never crashes or hangs (time limits), never
/// touches a pre-existing file, and never shows a secret.
@Suite("Bad input table", .timeLimit(.minutes(2)))
struct BadInputTests {
    @Test("the table has at least 40 cases, API and CLI")
    func tableSize() {
        let api = BadInputCase.all.filter { if case .api = $0.action { true } else { false } }
        #expect(BadInputCase.all.count >= 40)
        #expect(api.count >= 20)
        #expect(BadInputCase.all.count - api.count >= 20)
        #expect(Set(BadInputCase.all.map(\.name)).count == BadInputCase.all.count, "case names are unique")
    }

    @Test("bad input gives a typed error and harms nothing", arguments: BadInputCase.all)
    func badInput(_ entry: BadInputCase) async throws {
        let fixture = try await ServerFixture.start()
        let scratch = try Scratch()
        try Data(testBytes(300_000, seed: 0)).write(to: URL(fileURLWithPath: scratch.file("source.bin")))
        let context = BadInputCase.Context(fixture: fixture, scratch: scratch, logHandler: InMemoryLogHandler())
        defer { withExtendedLifetime(scratch) {} }
        do {
            switch entry.action {
            case .api(let body):
                try await Self.runAPI(entry, body: body, context: context)
            case .cli(let arguments, let environment):
                let result = try await CLIProcess.run(
                    arguments(context),
                    environment: CLIProcess.isolatedEnvironment(environment)
                )
                Self.check(result, entry.expected)
            case .shell(let script, let environment):
                let binary = try #require(CLIProcess.binary)
                let result = try await CLIProcess.run(
                    executable: URL(fileURLWithPath: "/bin/sh"),
                    arguments: ["-c", script(context)],
                    environment: CLIProcess.isolatedEnvironment(environment.merging(["OBJSTORE": binary.path]) { $1 }),
                    timeLimit: .seconds(60)
                )
                Self.check(result, entry.expected)
            }
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
        #expect(scratch.existingIsIntact, "the pre-existing file was changed")
        let leftovers = scratch.listing().filter { $0.hasSuffix(".part") || $0.contains(".part-") }
        #expect(leftovers.isEmpty, "temp files left behind: \(leftovers)")
        let logs = context.logHandler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in TestSecrets.forbidden { #expect(!logs.contains(secret), "a log line shows a secret") }
    }

    private static func runAPI(
        _ entry: BadInputCase,
        body: @Sendable (BadInputCase.Context) async throws -> Void,
        context: BadInputCase.Context
    ) async throws {
        if case .warning(let mentions) = entry.expected {
            try await body(context)
            let warnings = context.logHandler.entries.filter { $0.level == .warning }
            #expect(warnings.contains { "\($0.message)".contains(mentions) }, "no warning mentioning '\(mentions)'")
            return
        }
        do {
            try await body(context)
            Issue.record("expected \(entry.expected), but the call succeeded")
        } catch {
            check(error, entry.expected)
        }
    }

    private static func check(_ error: any Error, _ expected: BadInputCase.Expected) {
        SecretScanner.shared.scan(error: error, origin: "bad input table")
        let description = "\(error) \(String(reflecting: error))"
        for secret in TestSecrets.forbidden {
            #expect(!description.contains(secret), "the error description shows a secret")
        }
        switch expected {
        case .storage(let code, let mentions):
            let typed = error as? ObjectStorageError
            #expect(typed?.code == code, "expected ObjectStorageError.\(code), got \(type(of: error)): \(error)")
            #expect(typed?.message.contains(mentions) == true, "'\(error)' does not mention '\(mentions)'")
        case .signing(let code):
            #expect((error as? SigningError)?.code == code, "expected SigningError.\(code), got \(error)")
        case .credentials(let code):
            #expect((error as? CredentialsError)?.code == code, "expected CredentialsError.\(code), got \(error)")
        case .service(let code, let status):
            let typed = error as? ServiceError
            #expect(typed?.code == code && typed?.statusCode == status, "expected \(code) \(status), got \(error)")
        case .warning, .exit:
            Issue.record("expected \(expected), got \(error)")
        }
    }

    private static func check(_ result: CLIProcess.Result, _ expected: BadInputCase.Expected) {
        #expect(!result.timedOut, "objstore did not finish in time")
        for secret in TestSecrets.forbidden {
            #expect(!(result.standardError + result.standardOutput).contains(secret), "objstore printed a secret")
        }
        guard case .exit(let status, let mentions) = expected else {
            Issue.record("a CLI case must expect an exit status")
            return
        }
        #expect(result.status == status, "exit \(result.status), stderr: \(result.standardError)")
        #expect(
            result.standardError.contains(mentions),
            "stderr does not mention '\(mentions)': \(result.standardError)"
        )
        #expect(!result.standardError.contains("Fatal error"), "objstore crashed: \(result.standardError)")
    }
}

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
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

@testable import ObjectStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The credential-process provider, running real `/bin/sh` scripts from a temporary directory.
struct ProcessCredentialsProviderTests {
    static let secret = "process-credentials-secret-8d3f"
    static let sessionToken = "process-credentials-token-2e9a"
    static let argumentSecret = "process-credentials-argument-5b7c"

    // MARK: AWS credential_process

    @Test(arguments: ["2030-01-02T03:04:05Z", "2030-01-02T03:04:05.250Z", "2030-01-02T03:04:05+00:00"])
    func awsOutputWithASessionTokenAndAnExpiration(expiration: String) async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aws-creds",
            printing: """
                {"Version": 1, "AccessKeyId": "AKIDPROCESS", "SecretAccessKey": "\(Self.secret)",
                 "SessionToken": "\(Self.sessionToken)", "Expiration": "\(expiration)", "AccountId": "123456789012"}
                """
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = ProcessCredentialsProvider(command: "'\(script)' --profile dev", format: .aws)

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "AKIDPROCESS")
        #expect(credentials.secretAccessKey == Self.secret)
        #expect(credentials.securityToken == Self.sessionToken)
        #expect(credentials.expiration == Date(timeIntervalSince1970: 1_893_553_445))
        #expect("\(provider)" == "process(aws: aws-creds)")
        Self.expectNoSecrets(in: handler, and: ["\(credentials)", "\(provider)"])
    }

    @Test func awsOutputWithoutAnExpirationIsStatic() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aws-static",
            printing: #"{"Version": 1, "AccessKeyId": "AKIDSTATIC", "SecretAccessKey": "\#(Self.secret)"}"#
        )
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await ProcessCredentialsProvider.process(script).credentials(logger: logger)

        #expect(credentials.accessKeyID == "AKIDSTATIC")
        #expect(credentials.secretAccessKey == Self.secret)
        #expect(credentials.securityToken == nil)
        #expect(credentials.expiration == nil)
        Self.expectNoSecrets(in: handler)
    }

    @Test func awsVersion2IsRefused() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aws-v2",
            printing: #"{"Version": 2, "AccessKeyId": "AKIDV2", "SecretAccessKey": "\#(Self.secret)"}"#
        )
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await ProcessCredentialsProvider.process(script).credentials(logger: logger)
        }

        #expect(error?.code == .unsupported)
        #expect(error?.message == "credential process aws-v2: Version 2 is not supported (only Version 1 is)")
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    @Test func anExpiredExpirationIsRefused() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aws-expired",
            printing: """
                {"Version": 1, "AccessKeyId": "AKIDOLD", "SecretAccessKey": "\(Self.secret)",
                 "SessionToken": "\(Self.sessionToken)", "Expiration": "2020-01-02T03:04:05Z"}
                """
        )
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await ProcessCredentialsProvider.process(script).credentials(logger: logger)
        }

        #expect(error?.code == .expired)
        #expect(
            error?.message.hasPrefix("credential process aws-expired: the credentials expired at 2020-01-02T03:04:05Z")
                == true
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    // MARK: Alibaba Cloud External mode

    @Test func alibabaCloudAKModeGivesLongLivedKeys() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aliyun-ak",
            printing: #"{"mode": "AK", "access_key_id": "LTAIPROCESS", "access_key_secret": "\#(Self.secret)"}"#
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = ProcessCredentialsProvider.process(script, format: .alibabaCloud)

        let credentials = try await provider.credentials(logger: logger)

        #expect(credentials.accessKeyID == "LTAIPROCESS")
        #expect(credentials.secretAccessKey == Self.secret)
        #expect(credentials.securityToken == nil)
        #expect(credentials.expiration == nil)
        #expect("\(provider)" == "process(alibabaCloud: aliyun-ak)")
        Self.expectNoSecrets(in: handler)
    }

    @Test func alibabaCloudStsTokenModeGivesATokenAndAnExpiration() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aliyun-sts",
            printing: """
                {"mode": "StsToken", "access_key_id": "STS.PROCESS", "access_key_secret": "\(Self.secret)",
                 "sts_token": "\(Self.sessionToken)", "expiration": "2030-01-02T03:04:05Z"}
                """
        )
        let (logger, handler) = MetadataTestSupport.logger()

        let credentials = try await ProcessCredentialsProvider.process(script, format: .alibabaCloud)
            .credentials(logger: logger)

        #expect(credentials.accessKeyID == "STS.PROCESS")
        #expect(credentials.secretAccessKey == Self.secret)
        #expect(credentials.securityToken == Self.sessionToken)
        #expect(credentials.expiration == Date(timeIntervalSince1970: 1_893_553_445))
        Self.expectNoSecrets(in: handler, and: ["\(credentials)"])
    }

    @Test func alibabaCloudStsTokenModeWithoutATokenIsRefused() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "aliyun-sts-no-token",
            printing: #"{"mode": "StsToken", "access_key_id": "STS.X", "access_key_secret": "\#(Self.secret)"}"#
        )
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await ProcessCredentialsProvider.process(script, format: .alibabaCloud).credentials(logger: logger)
        }

        #expect(error?.code == .incomplete)
        #expect(
            error?.message
                == "credential process aliyun-sts-no-token: mode is StsToken but sts_token is missing or empty"
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    // MARK: Failures of the program

    @Test func aNonZeroExitIsAnErrorWithTheStatusAndNeitherOutputIsQuoted() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "failing-creds",
            """
            printf '%s' '{"Version": 1, "AccessKeyId": "AKIDFAIL", "SecretAccessKey": "\(Self.secret)"}'
            printf 'error: token %s rejected\\n' '\(Self.sessionToken)' >&2
            exit 3
            """
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = ProcessCredentialsProvider(
            command: "'\(script)' --password \(Self.argumentSecret)",
            format: .aws,
            origin: "AWS profile 'dev' in /home/u/.aws/config"
        )

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message
                == "AWS profile 'dev' in /home/u/.aws/config: credential process failing-creds: "
                + "the program exited with status 3"
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    @Test func aProgramKilledByASignalIsNamed() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script("signalled-creds", "kill -TERM $$\nsleep 5")
        let (logger, _) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await ProcessCredentialsProvider.process(script).credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message
                == "credential process signalled-creds: the program was killed by signal \(SIGTERM) (SIGTERM)"
        )
    }

    @Test func aProgramThatDoesNotFinishIsKilledAtTheTimeoutAndLeavesNoProcessBehind() async throws {
        let directory = try ScriptDirectory()
        let pids = directory.file("pids")
        // The shell and a child of its own (`sleep`), which holds the output pipe open too.
        let script = try directory.script(
            "slow-creds",
            """
            echo $$ > '\(pids)'
            sleep 1000 &
            echo $! >> '\(pids)'
            printf '%s' '{"Version": 1, "AccessKeyId": "AKIDSLOW", "SecretAccessKey": "\(Self.secret)"'
            wait
            """
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = ProcessCredentialsProvider(command: "'\(script)'", format: .aws, timeout: .seconds(1))
        let clock = ContinuousClock()
        let start = clock.now

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        let elapsed = start.duration(to: clock.now)
        #expect(elapsed < .seconds(10), "took \(elapsed)")
        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message == "credential process slow-creds: the program did not finish within 1 second and was killed"
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
        try await Self.expectGone(pidsIn: pids)
    }

    @Test func cancellingTheTaskKillsTheProgram() async throws {
        let directory = try ScriptDirectory()
        let pids = directory.file("pids")
        let script = try directory.script("endless-creds", "echo $$ > '\(pids)'\nexec sleep 1000")
        let provider = ProcessCredentialsProvider.process(script, timeout: .seconds(600))

        let task = Task { try await provider.credentials(logger: .scanning) }
        let clock = ContinuousClock()
        let waitStart = clock.now
        while !FileManager.default.fileExists(atPath: pids), waitStart.duration(to: clock.now) < .seconds(30) {
            try await Task.sleep(for: .milliseconds(20))
        }
        let cancelled = clock.now
        task.cancel()
        let result = await task.result

        #expect(cancelled.duration(to: clock.now) < .seconds(10))
        #expect(throws: CancellationError.self) { try result.get() }
        try await Self.expectGone(pidsIn: pids)
    }

    @Test func garbageOutputIsNotQuoted() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script("garbage-creds", printing: "AccessKeyId=AKID SecretAccessKey=\(Self.secret)")
        let (logger, handler) = MetadataTestSupport.logger()

        let error = await MetadataTestSupport.credentialsError {
            _ = try await ProcessCredentialsProvider.process(script).credentials(logger: logger)
        }

        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message
                == "credential process garbage-creds: the output is not the expected JSON (invalid at line 1, column 1)"
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    @Test func outputBeyondTheCapKillsTheProgram() async throws {
        let directory = try ScriptDirectory()
        let script = try directory.script(
            "chatty-creds",
            """
            i=0
            while [ $i -lt 200 ]; do printf '%s\\n' '\(Self.secret)'; i=$((i + 1)); done
            sleep 1000
            """
        )
        let (logger, handler) = MetadataTestSupport.logger()
        let provider = ProcessCredentialsProvider(command: "'\(script)'", format: .aws, maximumOutputSize: 1024)

        let error = await MetadataTestSupport.credentialsError { _ = try await provider.credentials(logger: logger) }

        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message
                == "credential process chatty-creds: the program wrote more than 1024 bytes to its standard output "
                + "and was killed"
        )
        Self.expectNoSecrets(in: handler, and: [Self.text(error)])
    }

    // MARK: The command line

    @Test func theCommandIsSplitLikeAShellButRunWithoutOne() async throws {
        let directory = try ScriptDirectory()
        let arguments = directory.file("argv")
        let script = try directory.script(
            "argv-creds",
            """
            for argument in "$@"; do printf '[%s]\\n' "$argument"; done > '\(arguments)'
            printf '%s' '{"Version": 1, "AccessKeyId": "AKIDARGV", "SecretAccessKey": "\(Self.secret)"}'
            """
        )
        let command = #"'\#(script)' 'one two' '$(echo x)' $(id) ; * "a \"b\" \$c \d" back\ slash '' x|y $HOME"#

        _ = try await ProcessCredentialsProvider(command: command, format: .aws).credentials(logger: .scanning)

        let written = try String(contentsOfFile: arguments, encoding: .utf8)
        #expect(
            written.split(separator: "\n").map(String.init) == [
                "[one two]", "[$(echo x)]", "[$(id)]", "[;]", "[*]", #"[a "b" $c \d]"#, "[back slash]", "[]", "[x|y]",
                "[$HOME]",
            ]
        )
    }

    @Test func theProgramIsFoundInThePATHOfTheGivenEnvironmentWhichIsAllItGets() async throws {
        let directory = try ScriptDirectory()
        _ = try directory.script(
            "path-creds",
            """
            printf '{"Version": 1, "AccessKeyId": "%s-%s", "SecretAccessKey": "%s"}' \
                "$OBJSTORE_PROCESS_KEY" "${HOME:-unset}" '\(Self.secret)'
            """
        )
        let provider = ProcessCredentialsProvider(
            command: "path-creds",
            format: .aws,
            environment: ["PATH": "/nonexistent-objstore-dir::\(directory.path)", "OBJSTORE_PROCESS_KEY": "AKIDENV"]
        )

        let credentials = try await provider.credentials(logger: .scanning)

        #expect(credentials.accessKeyID == "AKIDENV-unset")
    }

    @Test func theProgramInheritsNoDescriptorOfTheApp() async throws {
        // A descriptor the app left open on `exec`, as code that does not set `O_CLOEXEC` leaves its sockets and files.
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor > 2)
        defer { close(descriptor) }
        let directory = try ScriptDirectory()
        // `[` is built into the shell, so `/dev/fd` lists the script's own descriptors.
        let script = try directory.script(
            "descriptor-creds",
            """
            if [ -e /dev/fd/\(descriptor) ]; then key=AKIDINHERITED; else key=AKIDCLEAN; fi
            printf '{"Version": 1, "AccessKeyId": "%s", "SecretAccessKey": "%s"}' "$key" '\(Self.secret)'
            """
        )

        let credentials = try await ProcessCredentialsProvider.process(script).credentials(logger: .scanning)

        #expect(credentials.accessKeyID == "AKIDCLEAN", "descriptor \(descriptor) reached the program")
    }

    @Test func aMissingProgramIsNamedWithoutItsArguments() async throws {
        let directory = try ScriptDirectory()
        let (logger, handler) = MetadataTestSupport.logger()
        let inPath = ProcessCredentialsProvider(
            command: "objstore-missing-helper --password \(Self.argumentSecret)",
            format: .aws,
            environment: ["PATH": directory.path]
        )
        let byPath = ProcessCredentialsProvider(
            command: "\(directory.path)/missing-helper --password \(Self.argumentSecret)",
            format: .aws
        )

        let notInPath = await MetadataTestSupport.credentialsError { _ = try await inPath.credentials(logger: logger) }
        let notAtPath = await MetadataTestSupport.credentialsError { _ = try await byPath.credentials(logger: logger) }

        #expect(notInPath?.code == .refreshFailed)
        #expect(
            notInPath?.message
                == "credential process objstore-missing-helper: no executable named objstore-missing-helper in PATH "
                + "(\(directory.path))"
        )
        #expect(notAtPath?.code == .refreshFailed)
        #expect(
            notAtPath?.message.hasPrefix(
                "credential process missing-helper: the program could not be started: No such file or directory"
            ) == true
        )
        #expect("\(byPath)" == "process(aws: missing-helper)")
        Self.expectNoSecrets(
            in: handler,
            and: [Self.text(notInPath), Self.text(notAtPath)] + ["\(inPath)", "\(byPath)"]
        )
    }

    @Test func anUnterminatedQuoteIsAClearError() async throws {
        let provider = ProcessCredentialsProvider(
            command: "get-creds --password '\(Self.argumentSecret)",
            format: .aws,
            origin: "AWS profile 'dev' in /home/u/.aws/config"
        )

        let error = await MetadataTestSupport.credentialsError {
            _ = try await provider.credentials(logger: .scanning)
        }

        #expect(error?.code == .refreshFailed)
        #expect(
            error?.message
                == "AWS profile 'dev' in /home/u/.aws/config: the command has a single quote (') that is not closed"
        )
        #expect("\(provider)" == "process(aws: <invalid command>)")
        #expect(!Self.text(error).contains(Self.argumentSecret))
    }

    @Test func refreshingRunsTheProgramOncePerLifetime() async throws {
        let directory = try ScriptDirectory()
        let runs = directory.file("runs")
        let script = try directory.script(
            "counted-creds",
            """
            echo run >> '\(runs)'
            printf '%s' '{"Version": 1, "AccessKeyId": "AKIDCOUNT", "SecretAccessKey": "\(Self.secret)",
              "SessionToken": "\(Self.sessionToken)", "Expiration": "2030-01-02T03:04:05Z"}'
            """
        )
        let provider: some CredentialsProvider = .refreshing(.process(script))

        let first = try await provider.credentials(logger: .scanning)
        let second = try await provider.credentials(logger: .scanning)

        #expect(first == second)
        #expect(try String(contentsOfFile: runs, encoding: .utf8) == "run\n")
    }

    // MARK: Parsing without a process

    @Test(arguments: [
        (
            #"{"AccessKeyId": "A", "SecretAccessKey": "S"}"#, CredentialsError.Code.incomplete,
            "the output lacks Version (it must be 1)"
        ),
        (#"{"Version": "1", "AccessKeyId": "A"}"#, .unsupported, "Version is not the number 1"),
        (#"{"Version": 1.5, "AccessKeyId": "A"}"#, .unsupported, "Version is not the number 1"),
        (#"{"Version": 1, "AccessKeyId": "A"}"#, .incomplete, "the output lacks SecretAccessKey"),
        (#"{"Version": 1, "SecretAccessKey": null}"#, .incomplete, "the output lacks AccessKeyId, SecretAccessKey"),
        (
            #"{"Version": 1, "AccessKeyId": 7, "SecretAccessKey": "S"}"#, .refreshFailed,
            "AccessKeyId in the output is not a string"
        ),
        (#"{"Version": 1, "AccessKeyId": "A", "SecretAccessKey": ""}"#, .incomplete, "SecretAccessKey is empty"),
        (
            #"{"Version": 1, "AccessKeyId": "A", "SecretAccessKey": "S", "Expiration": "soon"}"#, .refreshFailed,
            "Expiration is not a timestamp such as 2030-01-02T03:04:05Z"
        ),
        (#"[1]"#, .refreshFailed, "the output is not the expected JSON object"),
        (#"{"Version": 1,}"#, .refreshFailed, "the output is not the expected JSON (invalid at line 1, column 15)"),
    ])
    func awsOutputThatIsRefused(output: String, code: CredentialsError.Code, reason: String) throws {
        let error = Self.parsingError(output, format: .aws)
        #expect(error?.code == code)
        #expect(error?.message == "ctx: \(reason)")
    }

    @Test(arguments: [
        (
            #"{"mode": "RamRoleArn", "access_key_id": "A", "access_key_secret": "S"}"#,
            CredentialsError.Code.unsupported,
            "mode is neither AK nor StsToken"
        ),
        (#"{"mode": "AK", "access_key_secret": "S"}"#, .incomplete, "the output lacks access_key_id"),
        (#"{"mode": "AK", "access_key_id": "", "access_key_secret": "S"}"#, .incomplete, "access_key_id is empty"),
        (
            #"{"mode": "StsToken", "access_key_id": "A", "access_key_secret": "S", "sts_token": ""}"#, .incomplete,
            "mode is StsToken but sts_token is missing or empty"
        ),
        (
            #"{"access_key_id": "A", "access_key_secret": "S", "expiration": "2030-01-02 03:04:05"}"#, .refreshFailed,
            "expiration is not a timestamp such as 2030-01-02T03:04:05Z"
        ),
        (
            #"{"mode": 1, "access_key_id": "A", "access_key_secret": "S"}"#, .refreshFailed,
            "mode in the output is not a string"
        ),
    ])
    func alibabaCloudOutputThatIsRefused(output: String, code: CredentialsError.Code, reason: String) throws {
        let error = Self.parsingError(output, format: .alibabaCloud)
        #expect(error?.code == code)
        #expect(error?.message == "ctx: \(reason)")
    }

    @Test func alibabaCloudOutputFollowsTheMode() throws {
        func parse(_ output: String) throws -> Credentials {
            try CredentialProcessOutput.credentials(
                parsing: Array(output.utf8),
                format: .alibabaCloud,
                context: "ctx",
                now: Date(timeIntervalSince1970: 1_700_000_000)
            )
        }
        // AK ignores a token; no mode keeps it (external.py); the last of two members counts; "" is no expiration.
        let ak = try parse(#"{"mode": "AK", "access_key_id": "A", "access_key_secret": "S", "sts_token": "T"}"#)
        let noMode = try parse(#"{"access_key_id": "A", "access_key_secret": "S", "sts_token": "T", "expiration": ""}"#)
        let twice = try parse(#"{"access_key_id": "A", "access_key_id": "B", "access_key_secret": "S"}"#)
        #expect(ak == Credentials(accessKeyID: "A", secretAccessKey: "S"))
        #expect(noMode == Credentials(accessKeyID: "A", secretAccessKey: "S", securityToken: "T"))
        #expect(twice.accessKeyID == "B")
    }

    @Test func theCommandSplitterFollowsPOSIXQuoting() throws {
        let words = try CredentialProcessCommand(
            splitting: "  /opt/bin/get-creds\t'it''s' \"x\\\\y\\`z\" a\\\nb \"line\\\ncontinued\"  "
        )
        #expect(words.words == ["/opt/bin/get-creds", "its", "x\\y`z", "ab", "linecontinued"])
        #expect(words.programName == "get-creds")
        #expect(words.programIsPath)
        #expect(throws: CredentialProcessCommand.SplitError.empty) { try CredentialProcessCommand(splitting: " \t") }
        #expect(throws: CredentialProcessCommand.SplitError.emptyProgram) {
            try CredentialProcessCommand(splitting: "'' arg")
        }
        #expect(throws: CredentialProcessCommand.SplitError.unterminatedDoubleQuote) {
            try CredentialProcessCommand(splitting: "get \"open")
        }
        #expect(throws: CredentialProcessCommand.SplitError.trailingBackslash) {
            try CredentialProcessCommand(splitting: "get x\\")
        }
    }

    // MARK: Helpers

    static let secrets = [Self.secret, Self.sessionToken, Self.argumentSecret]

    /// An error's description, or "" when there is none.
    static func text(_ error: CredentialsError?) -> String {
        error.map { "\($0)" } ?? ""
    }

    /// Asserts that the provider logged, and that no log line and no given text holds a secret of these tests.
    static func expectNoSecrets(
        in handler: InMemoryLogHandler,
        and texts: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = MetadataTestSupport.lines(handler)
        #expect(!lines.isEmpty, "the provider logged nothing", sourceLocation: sourceLocation)
        for text in lines + texts {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "leaked into: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The error parsing `output` throws, checked not to quote the secret.
    static func parsingError(
        _ output: String,
        format: CredentialProcessFormat,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> CredentialsError? {
        do {
            _ = try CredentialProcessOutput.credentials(
                parsing: Array(output.utf8),
                format: format,
                context: "ctx",
                now: Date(timeIntervalSince1970: 1_700_000_000)
            )
            Issue.record("expected a CredentialsError", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// Asserts that every process whose pid is a line of `path` is gone: reaped, or (a grandchild handed to an init
    /// that does not reap) dead.
    static func expectGone(pidsIn path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        let pids = text.split(separator: "\n").compactMap { pid_t($0) }
        let clock = ContinuousClock()
        let start = clock.now
        for pid in pids {
            while Self.isAlive(pid), start.duration(to: clock.now) < .seconds(10) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!Self.isAlive(pid), "process \(pid) is still running", sourceLocation: sourceLocation)
        }
    }

    /// Whether `pid` is a process that has not died (a zombie has).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let commandEnd = status.lastIndex(of: ")")
        else { return false }
        return !status[commandEnd...].hasPrefix(") Z")
        #else
        return true
        #endif
    }
}

/// A temporary directory of scripts, removed when released.
private final class ScriptDirectory: Sendable {
    let path: String

    init() throws {
        self.path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("process-credentials-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: self.path)
    }

    func file(_ name: String) -> String {
        "\(self.path)/\(name)"
    }

    /// Writes an executable `#!/bin/sh` script and returns its path.
    ///
    /// The file is written through a descriptor closed on `exec` (Foundation's writers leave it open): a program
    /// another test starts meanwhile would otherwise inherit a descriptor open for writing on the script, and running
    /// the script would fail with ETXTBSY for as long as that program lives.
    func script(_ name: String, _ body: String) throws -> String {
        let path = self.file(name)
        let bytes = Array("#!/bin/sh\n\(body)\n".utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o700)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fchmod(descriptor, 0o755) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return path
    }

    /// A script that prints `output` (which must hold no single quote) and exits 0.
    func script(_ name: String, printing output: String) throws -> String {
        try self.script(name, "printf '%s' '\(output)'")
    }
}

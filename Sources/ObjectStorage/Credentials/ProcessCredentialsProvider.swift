//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageCheckpoint
public import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Credentials printed by an external program: AWS's `credential_process` or Alibaba Cloud's `External` profile
/// mode (`process_command`).
///
/// Each call runs the command and reads the JSON it writes to its standard output (see `CredentialProcessFormat`):
///
/// - The command is split into words as a POSIX shell splits them (single quotes, double quotes, backslashes), but
///   no shell runs it: `$(...)`, `$VAR`, `;`, `|`, `>` and `*` reach the program as they are written. The program
///   is looked up in the `PATH` of its environment unless its name contains a `/`.
/// - Its standard input is `/dev/null`; its standard error is read and thrown away, never logged or quoted.
/// - It inherits none of the app's other descriptors (sockets, open files) on Linux with glibc 2.34 or later and on
///   Darwin, even those opened without close-on-exec.
/// - It runs in a process group of its own. When it does not finish within the timeout, writes more than the
///   output limit, or the calling task is cancelled, the group is killed (`SIGKILL`) and the program reaped.
///
/// Errors and log lines name the program (its first word, or that word's last path component) but never its
/// arguments, which may carry secrets, and never quote what it printed.
///
/// ```swift
/// let credentials: some CredentialsProvider = .refreshing(.process("/usr/local/bin/get-credentials --role dev"))
/// ```
public struct ProcessCredentialsProvider: CredentialsProvider, CustomStringConvertible {
    private let command: Result<CredentialProcessCommand, CredentialProcessCommand.SplitError>
    let format: CredentialProcessFormat
    let timeout: Duration
    let maximumOutputSize: Int
    let environment: [String: String]?
    let origin: String?

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - command: The command line, split into words like a POSIX shell splits them, then run without a shell.
    ///   - format: What the program prints.
    ///   - timeout: How long the program may run before it is killed (default 30 s).
    ///   - maximumOutputSize: The most bytes the program may write to its standard output (default 64 KiB).
    ///   - environment: The program's whole environment, and the `PATH` searched for it; `nil` (the default) for
    ///     this process's.
    ///   - origin: Where the command was configured, the prefix of every message, e.g.
    ///     `AWS profile 'dev' in /home/u/.aws/config`.
    package init(
        command: String,
        format: CredentialProcessFormat,
        timeout: Duration = .seconds(30),
        maximumOutputSize: Int = 64 * 1024,
        environment: [String: String]? = nil,
        origin: String? = nil
    ) {
        self.command = Result { () throws(CredentialProcessCommand.SplitError) in
            try CredentialProcessCommand(splitting: command)
        }
        self.format = format
        self.timeout = timeout
        self.maximumOutputSize = maximumOutputSize
        self.environment = environment
        self.origin = origin
    }

    /// Runs the command and reads the credentials it prints.
    ///
    /// - Parameter logger: A logger for diagnostics (the program's name, the access key id and the expiration only).
    /// - Returns: The credentials; they expire when the output gives an expiration.
    /// - Throws: `CredentialsError`: `CredentialsError.Code.refreshFailed` when the command cannot be split, the
    ///   program is not found or cannot be started, does not finish in time, writes too much, exits with a status
    ///   other than 0, is killed by a signal, or prints something other than the format's JSON;
    ///   `CredentialsError.Code.incomplete`, `CredentialsError.Code.unsupported` or
    ///   `CredentialsError.Code.expired` for output that lacks a member, has a version or mode this provider does
    ///   not know, or holds expired credentials. `CancellationError` when the task is cancelled (the program is
    ///   killed).
    public func credentials(logger: Logger) async throws -> Credentials {
        let command: CredentialProcessCommand
        switch self.command {
        case .success(let split):
            command = split
        case .failure(let error):
            throw CredentialsError.refreshFailed("\(self.origin ?? "credential process"): \(error)")
        }
        let context =
            self.origin.map { "\($0): credential process \(command.programName)" }
            ?? "credential process \(command.programName)"
        var logger = logger
        logger[metadataKey: "credentials.process"] = "\(command.programName)"
        logger.debug("running a credential process", metadata: ["format": "\(self.format.name)"])

        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let cancellation = CredentialProcessRunner.Cancellation()
        let (timeout, maximumOutputSize) = (self.timeout, self.maximumOutputSize)
        let completion: CredentialProcessRunner.Completion
        do {
            completion = try await withTaskCancellationHandler {
                try await BlockingIO.run { () throws(CredentialProcessRunner.Failure) in
                    try CredentialProcessRunner.run(
                        arguments: command.words,
                        environment: environment,
                        timeout: timeout,
                        maximumOutputSize: maximumOutputSize,
                        cancellation: cancellation
                    )
                }
            } onCancel: {
                cancellation.cancel()
            }
        } catch let failure as CredentialProcessRunner.Failure {
            if failure == .cancelled { throw CancellationError() }
            throw CredentialsError.refreshFailed("\(context): \(self.reason(failure, program: command.programName))")
        }
        guard completion.termination == .exited(0) else {
            throw CredentialsError.refreshFailed("\(context): the program \(completion.termination)")
        }
        let credentials = try CredentialProcessOutput.credentials(
            parsing: completion.output,
            format: self.format,
            context: context,
            now: Date()
        )
        logger.debug(
            "the credential process returned credentials",
            metadata: [
                "accessKeyID": "\(credentials.accessKeyID)",
                "expiration": "\(credentials.expiration.map { "\($0)" } ?? "-")",
            ]
        )
        return credentials
    }

    /// Why the program did not run to its end, for a message.
    private func reason(_ failure: CredentialProcessRunner.Failure, program: String) -> String {
        switch failure {
        case .notFound(let searchPath):
            return "no executable named \(program) in PATH (\(searchPath))"
        case .couldNotStart(let code):
            return "the program could not be started: \(SystemErrorText.withNumber(code))"
        case .systemCall(let call, let code):
            return "\(call) failed while running the program: \(SystemErrorText.withNumber(code))"
        case .timedOut:
            return "the program did not finish within \(Self.seconds(self.timeout)) and was killed"
        case .outputTooLarge:
            return "the program wrote more than \(self.maximumOutputSize) bytes to its standard output and was killed"
        case .cancelled:
            return "the task was cancelled and the program killed"
        }
    }

    /// `30 seconds`, `1 second`, `1.5 seconds`.
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) seconds"
    }

    /// `process(FORMAT: PROGRAM)`, e.g. `process(aws: get-creds)`: the program's name, never its arguments.
    public var description: String {
        let program = (try? self.command.get())?.programName ?? "<invalid command>"
        return "process(\(self.format.name): \(program))"
    }
}

extension CredentialsProvider where Self == ProcessCredentialsProvider {
    /// Credentials printed by an external program, as AWS's `credential_process` and Alibaba Cloud's `External`
    /// profile mode (`process_command`) run it.
    ///
    /// Each call runs `command` and parses the JSON it writes to its standard output:
    ///
    /// - `.aws`: `{"Version": 1, "AccessKeyId": …, "SecretAccessKey": …, "SessionToken": …, "Expiration":
    ///   "2030-01-02T03:04:05Z"}`, the last two optional.
    /// - `.alibabaCloud`: `{"mode": "StsToken", "access_key_id": …, "access_key_secret": …, "sts_token": …,
    ///   "expiration": "2030-01-02T03:04:05Z"}`, with mode `AK` for long-lived keys (no token).
    ///
    /// The contract:
    ///
    /// - **No shell.** `command` is split into words as a POSIX shell splits them (single quotes, double quotes,
    ///   backslashes), then the program runs directly: `$(...)`, `$VAR`, `;`, `|`, `>` and `*` reach it literally.
    ///   The program is looked up in `PATH` unless its name contains a `/`.
    /// - **A timeout.** A program still running after `timeout` is killed (`SIGKILL`, with what it started in its
    ///   process group) and the call throws `CredentialsError.Code.refreshFailed`. So does cancelling the task,
    ///   which throws `CancellationError`.
    /// - **An output cap.** More than 64 KiB on standard output kills the program. Standard input is `/dev/null`;
    ///   standard error is discarded. Neither what the program printed nor its arguments appear in an error or a log
    ///   line: only the program's name does.
    /// - **A status.** An exit status other than 0, or death by a signal, is
    ///   `CredentialsError.Code.refreshFailed`.
    ///
    /// The program runs on every call. When it prints expiring credentials, wrap the provider in `refreshing(_:)`,
    /// which runs it once per credentials lifetime and again shortly before they expire:
    ///
    /// ```swift
    /// let aws: some CredentialsProvider = .refreshing(.process("aws-vault export --format=json dev"))
    /// let alibaba: some CredentialsProvider = .refreshing(
    ///     .process("get-sts-token --role 'oss writer'", format: .alibabaCloud)
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - command: The command line, e.g. `/usr/local/bin/get-credentials --profile 'my profile'`.
    ///   - format: What the program prints (default `.aws`).
    ///   - timeout: How long the program may run (default 30 s).
    /// - Returns: A provider described as `process(FORMAT: PROGRAM)`.
    public static func process(
        _ command: String,
        format: CredentialProcessFormat = .aws,
        timeout: Duration = .seconds(30)
    ) -> ProcessCredentialsProvider {
        ProcessCredentialsProvider(command: command, format: format, timeout: timeout)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
import Synchronization

/// Runs the built `objstore` executable as a child process, the way scripts call it, and passes
/// what it prints to ``SecretScanner/shared``.
///
/// Standard error (logs, error messages) is always scanned; standard output too, except `presign`'s,
/// which is the signed URL (and session token) by design. `serve` announces the development key pair
/// on standard error by design; that one line is left out of the scan.
public enum CLIProcess {
    /// How a run ended and what it printed.
    public struct Result: Sendable {
        /// Creates a result.
        ///
        /// - Parameters:
        ///   - status: The exit status.
        ///   - standardOutput: Standard output.
        ///   - standardError: Standard error.
        ///   - timedOut: Whether the time limit killed the process.
        public init(status: Int32, standardOutput: String, standardError: String, timedOut: Bool = false) {
            self.status = status
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.timedOut = timedOut
        }

        /// The exit status (or signal number).
        public var status: Int32
        /// Standard output's bytes as written (``standardOutput`` decodes them as UTF-8, replacing what is not, up
        /// to 1 MiB).
        public var standardOutputBytes: [UInt8] = []
        /// Standard output.
        public var standardOutput: String
        /// Standard error.
        public var standardError: String
        /// Whether the time limit killed the process.
        public var timedOut: Bool
    }

    /// `OBJSTORE_BINARY`, else `objstore` beside the test bundle (`swift build --build-tests` builds
    /// it), else `.build/debug/objstore`.
    public static let binary: URL? = {
        if let configured = ProcessInfo.processInfo.environment["OBJSTORE_BINARY"] {
            return URL(fileURLWithPath: configured)
        }
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("objstore")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: SecretScanner.packageRoot + "/.build/debug/objstore")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }()

    /// An environment with no credentials at all, a home directory that does not exist and the metadata services
    /// of the default chains turned off, so nothing from the machine running the tests (a cloud instance's role
    /// included) leaks in.
    ///
    /// - Parameter extra: Variables to add.
    /// - Returns: The environment.
    public static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": emptyHome, "AWS_EC2_METADATA_DISABLED": "true",
            "ALIBABA_CLOUD_ECS_METADATA_DISABLED": "true", "OBS_ECS_METADATA_DISABLED": "true",
        ]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// A home directory that cannot exist (`/dev/null` is not a directory): the binary finds no profile or
    /// config file there, and nothing is left behind.
    private static let emptyHome = "/dev/null/objstore-tests-home"

    /// Runs `objstore arguments...`, killing it after `timeLimit`.
    ///
    /// Waits without blocking a thread: an in-process server shares the test's concurrency pool, and a
    /// blocked pool thread could starve the server the child process is talking to.
    ///
    /// - Parameters:
    ///   - arguments: The arguments.
    ///   - environment: The whole environment.
    ///   - standardInput: The file its standard input reads, or `nil` for `/dev/null`.
    ///   - timeLimit: When to kill it.
    /// - Returns: The result.
    /// - Throws: ``NotBuilt``, or why it cannot be started.
    public static func run(
        _ arguments: [String],
        environment: [String: String],
        standardInput: String? = nil,
        timeLimit: Duration = .seconds(60)
    ) async throws -> Result {
        guard let binary else { throw NotBuilt() }
        return try await run(
            executable: binary,
            arguments: arguments,
            environment: environment,
            standardInput: standardInput,
            timeLimit: timeLimit
        )
    }

    /// Runs any executable with a time limit, reading both pipes while it runs.
    ///
    /// - Parameters:
    ///   - executable: The executable.
    ///   - arguments: The arguments.
    ///   - environment: The whole environment.
    ///   - standardInput: The file its standard input reads, or `nil` for `/dev/null`.
    ///   - timeLimit: When to kill it.
    /// - Returns: The result.
    /// - Throws: When the executable cannot be started.
    public static func run(
        executable: URL,
        arguments: [String],
        environment: [String: String],
        standardInput: String? = nil,
        timeLimit: Duration
    ) async throws -> Result {
        let child = try ChildProcess(
            executable: executable.path,
            arguments: arguments,
            environment: environment,
            standardInput: standardInput
        )
        // Both pipes drain to their ends while the child runs (one left full would block it), each on a thread of its
        // own, and the exit is awaited on a third.
        let outputHandle = child.standardOutput
        let errorHandle = child.standardError
        async let outputData = onOwnThread { outputHandle.map(readToEnd) ?? [] }
        async let errorData = onOwnThread { errorHandle.map(readToEnd) ?? [] }
        let timedOut = Mutex(false)
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            timedOut.withLock { $0 = true }
            child.terminate()
            // A child stuck in its SIGTERM clean-up (demo, serve) is killed outright.
            try await Task.sleep(for: .seconds(5))
            child.signal(SIGKILL)
        }
        // A cancelled test (its suite's time limit) kills the child, or waiting for its pipes would never end.
        let status = try await withTaskCancellationHandler {
            try await onOwnThread { child.waitForExit().status }
        } onCancel: {
            child.signal(SIGKILL)
        }
        watchdog.cancel()
        let (outputBytes, errorBytes) = try await (outputData, errorData)
        let killed = timedOut.withLock { $0 }
        let result = Result(
            status: status,
            standardOutput: Self.text(outputBytes),
            standardError: String(decoding: errorBytes, as: UTF8.self),
            timedOut: killed
        )
        scan(result, arguments: arguments)
        var withBytes = result
        withBytes.standardOutputBytes = outputBytes
        return withBytes
    }

    /// Output as text: decoded as UTF-8, replacing what is not; an output of more than 1 MiB that is not UTF-8 (an
    /// object's bytes) as "" (read ``Result/standardOutputBytes``), as repairing it takes a debug build a minute.
    static func text(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return bytes.count > 1 << 20 ? "" : String(decoding: bytes, as: UTF8.self)
    }

    /// Reads `handle` to its end, 1 MiB at a time, blocking the calling thread (call it through ``onOwnThread(_:)``).
    ///
    /// The bytes stay an array, as ``Result/standardOutputBytes`` keeps them.
    static func readToEnd(_ handle: FileHandle) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                Foundation.read(handle.fileDescriptor, buffer.baseAddress, buffer.count)
            }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }

    /// Reads a child's output from `handle` until it contains `marker` or ends, blocking the calling thread (call
    /// it through ``onOwnThread(_:)``).
    ///
    /// - Parameters:
    ///   - handle: The reading end of the child's output pipe.
    ///   - marker: The text to wait for.
    /// - Returns: What was read, `marker` included if it came.
    public static func read(_ handle: FileHandle, until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text
    }

    /// Passes a run's output to a scanner (the runs above call it with the process-wide one).
    ///
    /// - Parameters:
    ///   - result: What the run printed.
    ///   - arguments: Its arguments (the first is the command).
    ///   - scanner: The scanner.
    public static func scan(_ result: Result, arguments: [String], into scanner: SecretScanner = .shared) {
        let command = arguments.first ?? "objstore"
        var standardError = result.standardError
        if command == "serve" {
            standardError = standardError.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("development key pair (not for production)") }
                .joined(separator: "\n")
        }
        scanner.scan(output: standardError, origin: "objstore \(command) stderr")
        if command != "presign" {
            scanner.scan(output: result.standardOutput, origin: "objstore \(command) stdout")
        }
    }

    /// `objstore` was not found.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// What to do about it.
        public var description: String { "objstore is not built; run `swift build --build-tests` first" }
    }
}

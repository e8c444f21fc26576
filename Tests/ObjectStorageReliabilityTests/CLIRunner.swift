//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Runs the built `objstore` as a child process with a time limit (a minimal copy of
/// `Tests/ObjectStorageCLITests/CLIProcess.swift`: test targets cannot share files).
enum CLIRunner {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var timedOut: Bool
    }

    /// `OBJSTORE_BINARY`, else `objstore` beside the test bundle, else `.build/debug/objstore`.
    static let binary: URL? = {
        if let configured = ProcessInfo.processInfo.environment["OBJSTORE_BINARY"] {
            return URL(fileURLWithPath: configured)
        }
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("objstore")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fallback = packageRoot.appendingPathComponent(".build/debug/objstore")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }()

    /// No credentials from the machine, an empty home directory.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": emptyHome]
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// S3 credentials for the fixture server.
    static let s3Credentials = [
        "AWS_ACCESS_KEY_ID": TestSecrets.accessKeyID, "AWS_SECRET_ACCESS_KEY": TestSecrets.secret,
    ]
    /// OSS credentials for the fixture server.
    static let ossCredentials = [
        "OSS_ACCESS_KEY_ID": TestSecrets.accessKeyID, "OSS_ACCESS_KEY_SECRET": TestSecrets.secret,
    ]

    private static let emptyHome: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-reliability-home-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Runs `objstore arguments...`, killing it after `timeLimit` seconds.
    ///
    /// Waits without blocking a thread: the in-process server shares the test's concurrency pool, and a
    /// blocked pool thread could starve the server the child process is talking to.
    static func run(
        _ arguments: [String],
        environment: [String: String],
        timeLimit: Duration = .seconds(60)
    ) async throws -> Result {
        let binary = try #require(binary, "objstore is not built; run `swift build --build-tests` first")
        return try await run(executable: binary, arguments: arguments, environment: environment, timeLimit: timeLimit)
    }

    /// Runs any executable with a time limit, reading both pipes while it runs.
    static func run(
        executable: URL,
        arguments: [String],
        environment: [String: String],
        timeLimit: Duration
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        let collected = Collected()
        output.fileHandleForReading.readabilityHandler = { collected.append(output: $0.availableData) }
        error.fileHandleForReading.readabilityHandler = { collected.append(error: $0.availableData) }
        let (exited, continuation) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in
            continuation.yield()
            continuation.finish()
        }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            collected.markTimedOut()
            process.terminate()
        }
        for await _ in exited {}
        watchdog.cancel()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        error.fileHandleForReading.readabilityHandler = nil
        collected.append(output: output.fileHandleForReading.readDataToEndOfFile())
        collected.append(error: error.fileHandleForReading.readDataToEndOfFile())
        let (out, err, timedOut) = collected.value
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self),
            timedOut: timedOut
        )
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var output = Data()
        private var error = Data()
        private var timedOut = false

        func append(output data: Data) { lock.withLock { output.append(data) } }
        func append(error data: Data) { lock.withLock { error.append(data) } }
        func markTimedOut() { lock.withLock { timedOut = true } }
        var value: (Data, Data, Bool) { lock.withLock { (output, error, timedOut) } }
    }
}

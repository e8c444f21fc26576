//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Runs the built `objstore` executable as a child process, the way scripts call it.
struct CLIProcess {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `objstore` binary beside the test bundle (`swift build --build-tests` builds it), or the
    /// path in `OBJSTORE_BINARY`.
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

    /// An environment with no credentials at all and an empty home directory, so nothing from the
    /// machine running the tests leaks in.
    static func isolatedEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": emptyHome.path]
        environment.merge(extra) { _, new in new }
        return environment
    }

    private static let emptyHome: URL = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-cli-tests-home-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    static func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        let binary = try #require(binary, "objstore is not built; run `swift build --build-tests` first")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}

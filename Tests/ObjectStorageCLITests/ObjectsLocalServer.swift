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

/// `objstore serve --memory --port 0` as a child process, stopped with SIGTERM.
final class ObjectsLocalServer {
    /// The development key pair the server accepts by default.
    static let accessKeyID = "LOCALDEVACCESSKEY"
    static let secret = "localdev-secret-key-not-for-production"

    let process: ChildProcess
    let port: Int

    var endpoint: String { "http://127.0.0.1:\(port)" }

    private init(process: ChildProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts the server and reads its port from the `listening on http://127.0.0.1:PORT` line.
    ///
    /// - Parameters:
    ///   - arguments: Arguments after `serve --memory --port 0` (log level, fault rules).
    ///   - logPath: A file that receives the server's standard error (its request log), if any.
    ///   - environment: Variables added to the isolated environment (such as the serve secret).
    static func start(
        arguments: [String] = ["--log-level", "warning"],
        logPath: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> ObjectsLocalServer {
        let binary = try #require(CLIProcess.binary, "objstore is not built; run `swift build --build-tests` first")
        var errorDestination = ChildProcess.Output.discard
        if let logPath { errorDestination = .file(logPath) }
        let process = try ChildProcess(
            executable: binary.path,
            arguments: ["serve", "--memory", "--port", "0"] + arguments,
            environment: CLIProcess.isolatedEnvironment(environment),
            standardError: errorDestination
        )
        let output = try #require(process.standardOutput)
        let text = try await onOwnThread { CLIProcess.read(output, until: "\n") }
        let marker = "listening on http://127.0.0.1:"
        guard let range = text.range(of: marker),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            process.stop()
            Issue.record("objstore serve did not report its port; stdout: \(text)")
            throw CancellationError()
        }
        return ObjectsLocalServer(process: process, port: port)
    }

    /// Sends SIGTERM and waits for the exit (once).
    func stop() {
        process.stop()
    }
}

/// One wire dialect as the CLI sees it: the scheme, the region flag and the credentials variables.
struct ObjectsDialect: CustomTestStringConvertible, Sendable {
    var scheme: String
    var region: String?
    var accessKeyVariable: String
    var secretVariable: String

    var testDescription: String { scheme }

    static let s3 = ObjectsDialect(
        scheme: "s3",
        region: "us-east-1",
        accessKeyVariable: "AWS_ACCESS_KEY_ID",
        secretVariable: "AWS_SECRET_ACCESS_KEY"
    )
    static let oss = ObjectsDialect(
        scheme: "oss",
        region: "cn-hangzhou",
        accessKeyVariable: "OSS_ACCESS_KEY_ID",
        secretVariable: "OSS_ACCESS_KEY_SECRET"
    )
    static let obs = ObjectsDialect(
        scheme: "obs",
        region: nil,
        accessKeyVariable: "OBS_ACCESS_KEY_ID",
        secretVariable: "OBS_SECRET_ACCESS_KEY"
    )
    static let all = [s3, oss, obs]

    func url(_ path: String) -> String { "\(scheme)://\(path)" }
}

/// Runs `objstore` against one server in one dialect.
struct ObjectsCLI {
    var server: ObjectsLocalServer
    var dialect: ObjectsDialect
    var accessKeyID = ObjectsLocalServer.accessKeyID
    var secret = ObjectsLocalServer.secret

    func run(_ arguments: [String], standardInput: String? = nil) async throws -> CLIProcess.Result {
        var remote = ["--endpoint", server.endpoint]
        if let region = dialect.region { remote += ["--region", region] }
        let environment = CLIProcess.isolatedEnvironment([
            dialect.accessKeyVariable: accessKeyID,
            dialect.secretVariable: secret,
        ])
        return try await CLIProcess.run(arguments + remote, environment: environment, standardInput: standardInput)
    }

    /// Runs and expects exit status 0.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await run(arguments)
        #expect(
            result.status == 0,
            "\(arguments.joined(separator: " ")): \(result.standardError)",
            sourceLocation: sourceLocation
        )
        return result.standardOutput
    }
}

/// A scratch directory removed at the end of a test.
struct ObjectsScratch: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("objstore-objects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The one line a single-object `cp` prints on standard output, `upload: a to b (figures)`, split into what it did
/// (`upload: a to b`) and its figures; `nil` unless the output is exactly one such line.
func reportedTransfer(_ standardOutput: String) -> (action: String, figures: String)? {
    guard standardOutput.hasSuffix(")\n"), standardOutput.filter({ $0 == "\n" }).count == 1,
        let to = standardOutput.range(of: " to "),
        let open = standardOutput.range(of: " (", range: to.upperBound..<standardOutput.endIndex)
    else { return nil }
    let figures = standardOutput[open.upperBound...].dropLast(2)
    return (String(standardOutput[..<open.lowerBound]), String(figures))
}

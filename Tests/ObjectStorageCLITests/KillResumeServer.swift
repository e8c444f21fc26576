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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `objstore serve --memory` with fault rules and its info-level request log in a file, so a test can
/// count the body bytes each request really moved.
final class KillResumeServer {
    /// One line of the request log.
    struct Request {
        var operation: String
        /// The key as logged (percent-encoded, `/` kept).
        var key: String
        var status: String
        var outcome: String
        var received: Int64
        var sent: Int64
    }

    let server: ObjectsLocalServer
    let logPath: String

    var endpoint: String { server.endpoint }
    var process: ChildProcess { server.process }

    private init(server: ObjectsLocalServer, logPath: String) {
        self.server = server
        self.logPath = logPath
    }

    /// Starts the server with `faults` (`--fault` specs) and further `arguments`, and reads its port.
    static func start(faults: [String], logPath: String, arguments: [String] = []) async throws -> KillResumeServer {
        let arguments = ["--log-level", "info"] + faults.flatMap { ["--fault", $0] } + arguments
        return KillResumeServer(
            server: try await ObjectsLocalServer.start(arguments: arguments, logPath: logPath),
            logPath: logPath
        )
    }

    /// Every request logged so far, in order.
    func requests() -> [Request] { Self.requests(loggedIn: logPath) }

    /// Every request logged so far in the request log at `logPath`, in order.
    static func requests(loggedIn logPath: String) -> [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard line.hasSuffix(" request"), line.contains(" operation=") else { return nil }
            var fields: [Substring: Substring] = [:]
            for word in line.split(separator: " ") {
                guard let equals = word.firstIndex(of: "=") else { continue }
                fields[word[..<equals]] = word[word.index(after: equals)...]
            }
            guard let operation = fields["operation"] else { return nil }
            return Request(
                operation: String(operation),
                key: String(fields["key"] ?? ""),
                status: String(fields["status"] ?? ""),
                outcome: String(fields["outcome"] ?? ""),
                received: Int64(fields["received"] ?? "") ?? 0,
                sent: Int64(fields["sent"] ?? "") ?? 0
            )
        }
    }

    /// Waits until the log has not grown for `quiet` (the server logs a request once it ends, which
    /// for a killed client is when it notices the closed connection), at most 10 s.
    func settle(quiet: Duration = .milliseconds(400)) async {
        let deadline = ContinuousClock.now + .seconds(10)
        var size = -1
        var stableSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            let current = (try? FileManager.default.attributesOfItem(atPath: logPath)[.size] as? Int) ?? 0
            if current != size {
                size = current
                stableSince = ContinuousClock.now
            } else if ContinuousClock.now - stableSince >= quiet {
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends SIGTERM and waits for the exit.
    func stop() { server.stop() }
}

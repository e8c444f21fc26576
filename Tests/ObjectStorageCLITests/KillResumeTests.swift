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

/// `objstore cp` killed with SIGKILL part way (a separate process, no chance to clean up), rerun until
/// it finishes: the result is SHA-256-identical to the source, and each resume moves again at most
/// `concurrency × partSize` of the bytes the killed run had already moved.
///
/// Bytes moved are the server's own count (`sent=`/`received=` body bytes in its request log); bytes
/// saved are what the checkpoint records after each kill. The server is slowed (bandwidth on GETs, a
/// delay before UploadPart answers) so that kills land while parts are in flight.
struct KillResumeTests {
    static let concurrency = 2
    /// Kills per transfer before the last run is allowed to finish.
    static let maximumKills = 4

    @Test(arguments: [ObjectsDialect.oss, ObjectsDialect.s3])
    func downloadKilledWithSIGKILLResumesToIdenticalBytes(_ dialect: ObjectsDialect) async throws {
        let scratch = try ObjectsScratch()
        let server = try await KillResumeServer.start(
            faults: ["op=GetObject,bandwidth=1500000"],
            logPath: scratch.path("serve.log")
        )
        defer { server.stop() }
        let run = KillResumeRunner(server: server, dialect: dialect)
        let source = scratch.path("source.bin")
        try Self.payload(3 * 1_048_576 + 4_321, seed: 5).write(to: URL(fileURLWithPath: source))
        try await run.succeed(["mb", dialect.url("kill-resume")])
        try await run.succeed(["cp", source, dialect.url("kill-resume/object.bin"), "--no-checkpoint"])

        let target = scratch.path("copy.bin")
        let arguments = [
            "cp", dialect.url("kill-resume/object.bin"), target,
            "--part-size", "256K", "--concurrency", "\(Self.concurrency)",
        ]
        let final = try await run.untilDone(
            arguments,
            checkpoint: target + ".dcp",
            partCount: 13,
            counting: { $0.operation == "GetObject" ? $0.sent : 0 }
        )
        #expect(final.kills >= 1, "no run was killed; the transfer finished too fast to test")
        #expect(final.result.status == 0, "\(final.result.standardError)")
        #expect(
            Self.reused(final.result.standardOutput) == final.savedBeforeLastRun.bytes,
            "the last run should reuse exactly what the checkpoint held: \(final.result.standardOutput)"
        )
        await #expect(try Self.sha256(target) == Self.sha256(source))
        for leftover in [target + ".dcp", target + ".part"] {
            #expect(!FileManager.default.fileExists(atPath: leftover), "\(leftover) was left behind")
        }
    }

    @Test(arguments: [ObjectsDialect.oss, ObjectsDialect.s3])
    func uploadKilledWithSIGKILLResumesToIdenticalObject(_ dialect: ObjectsDialect) async throws {
        let scratch = try ObjectsScratch()
        let server = try await KillResumeServer.start(
            faults: ["op=UploadPart,delay-headers=200"],
            logPath: scratch.path("serve.log")
        )
        defer { server.stop() }
        let run = KillResumeRunner(server: server, dialect: dialect)
        // S3 parts are at least 5 MiB (smaller part sizes are clamped), so its file is larger.
        let size = dialect.scheme == "s3" ? 12 * 1_048_576 + 4_321 : 3 * 1_048_576 + 4_321
        let source = scratch.path("source.bin")
        try Self.payload(size, seed: 11).write(to: URL(fileURLWithPath: source))
        try await run.succeed(["mb", dialect.url("kill-resume")])

        let arguments = [
            "cp", source, dialect.url("kill-resume/object.bin"),
            "--part-size", "256K", "--concurrency", "\(Self.concurrency)",
        ]
        let final = try await run.untilDone(
            arguments,
            checkpoint: source + ".ucp",
            partCount: dialect.scheme == "s3" ? 3 : 13,
            counting: { $0.operation == "UploadPart" ? $0.received : 0 }
        )
        #expect(final.kills >= 1, "no run was killed; the transfer finished too fast to test")
        #expect(final.result.status == 0, "\(final.result.standardError)")
        #expect(
            Self.reused(final.result.standardOutput) == final.savedBeforeLastRun.bytes,
            "the last run should reuse exactly the checkpoint's parts: \(final.result.standardOutput)"
        )
        #expect(!FileManager.default.fileExists(atPath: source + ".ucp"))

        let fetched = scratch.path("fetched.bin")
        try await run.succeed(["cp", dialect.url("kill-resume/object.bin"), fetched, "--no-checkpoint"])
        await #expect(try Self.sha256(fetched) == Self.sha256(source))
    }

    /// The bytes a `cp` line says it reused (`...; resumed: 2 of 13 parts, 524288 bytes reused; ...`): 0 when it
    /// says nothing of reuse (a run that found no finished part).
    static func reused(_ line: String) -> Int64 {
        guard let clause = line.range(of: "; resumed: ") else { return 0 }
        let rest = line[clause.upperBound...]
        guard let end = rest.range(of: " bytes reused") else { return -1 }
        let number = rest[..<end.lowerBound].split(separator: " ").last ?? ""
        return Int64(number) ?? -1
    }

    /// Bytes that are not text and differ per seed.
    static func payload(_ count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// The SHA-256 of a file as `sha256sum` (an implementation independent of the project) prints it.
    static func sha256(_ path: String) async throws -> String {
        let sha256sum = try ChildProcess(
            executable: "/usr/bin/sha256sum",
            arguments: [path],
            environment: [:],
            standardError: .discard
        )
        let output = try #require(sha256sum.standardOutput)
        let (data, termination) = try await onOwnThread {
            (output.readDataToEndOfFile(), sha256sum.waitForExit())
        }
        let digest = String(decoding: data, as: UTF8.self).prefix { !$0.isWhitespace }
        #expect(termination.status == 0 && digest.count == 64, "sha256sum \(path) failed")
        return String(digest)
    }
}

/// Runs `objstore` against a ``KillResumeServer`` in one dialect, killing runs part way.
struct KillResumeRunner {
    /// What a checkpoint file records as done.
    struct Saved: Equatable {
        var parts = 0
        var bytes: Int64 = 0
        var partSize: Int64 = 0
    }

    struct Outcome {
        var result: CLIProcess.Result
        var kills: Int
        var savedBeforeLastRun: Saved
    }

    var server: KillResumeServer
    var dialect: ObjectsDialect

    var environment: [String: String] {
        CLIProcess.isolatedEnvironment([
            dialect.accessKeyVariable: ObjectsLocalServer.accessKeyID,
            dialect.secretVariable: ObjectsLocalServer.secret,
        ])
    }

    func remote(_ arguments: [String]) -> [String] {
        var remote = arguments + ["--endpoint", server.endpoint]
        if let region = dialect.region { remote += ["--region", region] }
        return remote
    }

    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await CLIProcess.run(remote(arguments), environment: environment)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    /// Runs `arguments` again and again, each time SIGKILLing the process once `checkpoint` records more
    /// parts than before the run, until a run finishes by itself (or after ``KillResumeTests/maximumKills``
    /// kills, a run is left alone). After each kill, the bytes the killed run moved (`counting`, from the
    /// server's log) minus the bytes its checkpoint gained must be at most `concurrency × partSize`.
    ///
    /// Kills wait for at most `partCount - 1` parts: a kill after the last part could land after the final
    /// rename, which is a different case (the transfer is complete).
    func untilDone(
        _ arguments: [String],
        checkpoint: String,
        partCount: Int,
        counting: (KillResumeServer.Request) -> Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome {
        var saved = Saved()
        var kills = 0
        for _ in 0...(KillResumeTests.maximumKills + 1) {
            let mark = server.requests().count
            let target = min(saved.parts + 1 + kills, partCount - 1)
            let killAt = kills < KillResumeTests.maximumKills && target > saved.parts ? target : nil
            var kill: (@Sendable () -> Bool)?
            if let killAt {
                kill = { ((try? Self.saved(checkpoint))?.parts ?? 0) >= killAt }
            }
            let (result, killed) = try await start(arguments, killWhen: kill)
            guard killed else { return Outcome(result: result, kills: kills, savedBeforeLastRun: saved) }
            kills += 1
            await server.settle()
            let after = try Self.saved(checkpoint)
            let moved = server.requests().dropFirst(mark).reduce(0) { $0 + counting($1) }
            let bound = Int64(KillResumeTests.concurrency) * after.partSize
            let again = moved - (after.bytes - saved.bytes)
            #expect(after.bytes >= saved.bytes, "the checkpoint lost progress", sourceLocation: sourceLocation)
            let text =
                "kill \(kills): moved \(moved) bytes, checkpoint gained \(after.bytes - saved.bytes): \(again) bytes "
                + "will move again, more than concurrency × partSize = \(bound)"
            #expect(again <= bound, Comment(rawValue: text), sourceLocation: sourceLocation)
            saved = after
        }
        Issue.record("no run finished after \(kills) kills", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Starts `objstore`; when `shouldKill` is set, SIGKILLs it as soon as `shouldKill` (polled every
    /// millisecond) returns true. Returns the result and whether the process died of the signal.
    func start(
        _ arguments: [String],
        killWhen shouldKill: (@Sendable () -> Bool)?
    ) async throws -> (result: CLIProcess.Result, killed: Bool) {
        let binary = try #require(CLIProcess.binary)
        let process = try ChildProcess(
            executable: binary.path,
            arguments: remote(arguments),
            environment: environment
        )
        let output = try #require(process.standardOutput)
        let error = try #require(process.standardError)
        let serverProcess = server.process
        // Both pipes drain while the child runs, or a full one would block it.
        async let outputData = onOwnThread { output.readDataToEndOfFile() }
        async let errorData = onOwnThread { error.readDataToEndOfFile() }
        let run = try await onOwnThread { () -> (termination: ChildProcess.Termination, hung: Bool) in
            // A run that hangs (a crashed server leaves the client retrying for minutes) is a failure, not a wait.
            let deadline = ContinuousClock.now + .seconds(120)
            var hung = false
            while process.isRunning {
                if let shouldKill, shouldKill() {
                    process.signal(SIGKILL)
                    break
                }
                if ContinuousClock.now > deadline || !serverProcess.isRunning {
                    process.signal(SIGKILL)
                    hung = true
                    break
                }
                usleep(1_000)
            }
            return (process.waitForExit(), hung)
        }
        let (outputBytes, errorBytes) = try await (outputData, errorData)
        if run.hung {
            Issue.record(
                "objstore \(arguments.joined(separator: " ")) hung or the server exited; see \(server.logPath)"
            )
            throw CancellationError()
        }
        let result = CLIProcess.Result(
            status: run.termination.status,
            standardOutput: String(decoding: outputBytes, as: UTF8.self),
            standardError: String(decoding: errorBytes, as: UTF8.self)
        )
        return (result, run.termination.bySignal)
    }

    /// Reads a download (`completedParts`) or upload (`parts`) checkpoint; none → nothing saved. Throws rather than
    /// records an issue, since it also runs on a polling thread outside the test.
    static func saved(_ path: String) throws -> Saved {
        guard let bytes = FileManager.default.contents(atPath: path) else { return Saved() }
        let document = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        let data = try field(document?["data"] as? [String: Any], "data", path)
        let partSize = try field((data["partSize"] as? NSNumber)?.int64Value, "partSize", path)
        if let parts = data["parts"] as? [[String: Any]] {
            let total = parts.reduce(Int64(0)) { $0 + ((($1["size"] as? NSNumber)?.int64Value) ?? 0) }
            return Saved(parts: parts.count, bytes: total, partSize: partSize)
        }
        let completed = try field(data["completedParts"] as? [[String: Any]], "completedParts", path)
        let object = try field(data["object"] as? [String: Any], "object", path)
        let size = try field((object["size"] as? NSNumber)?.int64Value, "object.size", path)
        let total = completed.reduce(Int64(0)) { sum, part in
            let index = Int64((part["index"] as? NSNumber)?.intValue ?? 0)
            return sum + max(0, min(partSize, size - index * partSize))
        }
        return Saved(parts: completed.count, bytes: total, partSize: partSize)
    }

    private struct MissingField: Error, CustomStringConvertible {
        var description: String
    }

    private static func field<Value>(_ value: Value?, _ name: String, _ path: String) throws -> Value {
        guard let value else { throw MissingField(description: "no \(name) in \(path)") }
        return value
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C says what it kept and whether a rerun resumes; a paused upload is never left behind silently when the
/// same file goes to another key.
struct InterruptionTests {
    static let slow = ["--part-size", "256K", "--concurrency", "1"]

    @Test
    func ctrlCSaysHowManyPartsTheCheckpointKeepsAndWhere() async throws {
        let (server, cli) = try await Self.setUp()
        let scratch = try ObjectsScratch()
        defer { server.stop() }
        let source = scratch.path("large.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        let checkpoint = source + ".ucp"

        let paused = try await cli.interrupt(["cp", source, "oss://bkt/a.bin"] + Self.slow) {
            ((try? KillResumeRunner.saved(checkpoint).parts) ?? 0) >= 2
        }
        #expect(paused.status == 130, "\(paused.standardError)")
        let kept = try KillResumeRunner.saved(checkpoint)
        #expect(kept.parts >= 2)
        // 256 KiB parts: KiB below 1 MiB, then MiB with one decimal.
        let bytes = kept.parts * 256
        let size = bytes < 1024 ? "\(bytes).0 KiB" : String(format: "%.1f MiB", Double(bytes) / 1024)
        #expect(
            paused.standardError.contains(
                "objstore: interrupted: \(kept.parts) of 48 parts (\(size) of 12.0 MiB) are kept in the checkpoint "
                    + "\(checkpoint); run the same command again to resume."
            ),
            "\(paused.standardError)"
        )
        let resumed = try await cli.run(["cp", source, "oss://bkt/a.bin"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(
            resumed.standardOutput.contains(
                "; resumed: \(kept.parts) of 48 parts, \(Int64(kept.parts) * 262_144) bytes reused; verified:"
            ),
            "\(resumed.standardOutput)"
        )
    }

    @Test
    func ctrlCBeforeAnyPartFinishedSaysARerunStartsOver() async throws {
        // Each part waits 3 s for its answer: the interruption comes before the first one.
        let (server, cli) = try await Self.setUp(faults: ["op=UploadPart,delay-headers=3000"])
        let scratch = try ObjectsScratch()
        defer { server.stop() }
        let source = scratch.path("large.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))

        let paused = try await cli.interrupt(["cp", source, "oss://bkt/a.bin"] + Self.slow, once: source + ".ucp")
        #expect(paused.status == 130, "\(paused.standardError)")
        #expect(
            paused.standardError.contains(
                "interrupted: no part of 48 had finished (the checkpoint \(source).ucp holds none), so a rerun "
                    + "starts over."
            ),
            "\(paused.standardError)"
        )
    }

    @Test
    func anUploadOfTheSameFileToAnotherKeyAbortsThePausedOneAndSaysSo() async throws {
        let (server, cli) = try await Self.setUp()
        let scratch = try ObjectsScratch()
        defer { server.stop() }
        let source = scratch.path("large.bin")
        try Self.payload.write(to: URL(fileURLWithPath: source))
        let paused = try await cli.interrupt(["cp", source, "oss://bkt/A.bin"] + Self.slow) {
            ((try? KillResumeRunner.saved(source + ".ucp").parts) ?? 0) >= 1
        }
        #expect(paused.status == 130, "\(paused.standardError)")
        let pending = try await cli.succeed(["ls", "--incomplete", "oss://bkt"])
        #expect(pending.contains("A.bin"), "the paused upload should be on the server: \(pending)")

        let other = try await cli.run(["cp", source, "oss://bkt/B.bin", "--part-size", "1M"])
        #expect(other.status == 0, "\(other.standardError)")
        #expect(
            other.standardError.contains(
                "aborted the paused upload to bucket 'bkt', key 'A.bin': this transfer to bucket 'bkt', key 'B.bin' "
                    + "replaces its checkpoint"
            ),
            "\(other.standardError)"
        )
        #expect(try await cli.succeed(["ls", "--incomplete", "oss://bkt"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: source + ".ucp"))
        let fetched = scratch.path("B.bin")
        try await cli.succeed(["cp", "oss://bkt/B.bin", fetched])
        #expect(FileManager.default.contents(atPath: fetched) == Self.payload)
    }

    @Test
    func ctrlCInADirectoryJobSaysWhatTheManifestKeeps() async throws {
        let (server, cli) = try await Self.setUp(faults: ["op=PutObject,delay-headers=300"])
        let scratch = try ObjectsScratch()
        defer { server.stop() }
        let directory = scratch.path("tree")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in 0..<40 {
            try Data("file \(index)".utf8).write(to: URL(fileURLWithPath: directory + "/f\(index).txt"))
        }
        let manifest = scratch.path("job.manifest")
        // One object at a time, 300 ms each: 1.5 s after the manifest appears, a few are done and most are not.
        let firstSeen = Mutex<ContinuousClock.Instant?>(nil)
        let paused = try await cli.interrupt(
            ["cp", "-r", directory, "oss://bkt/tree", "--transfers", "1", "--manifest", manifest]
        ) {
            guard FileManager.default.fileExists(atPath: manifest) else { return false }
            let now = ContinuousClock.now
            let first = firstSeen.withLock { seen in
                if seen == nil { seen = now }
                return seen ?? now
            }
            return now - first > .milliseconds(1_500)
        }
        #expect(paused.status == 130, "\(paused.standardError)")
        let message = try #require(
            paused.standardError.split(separator: "\n").first { $0.contains("interrupted") },
            "\(paused.standardError)"
        )
        // "interrupted after 3 of 40 objects", or "after 3 objects (of 4 found so far)" while the walk goes on.
        let prefix = "objstore: interrupted after "
        #expect(message.hasPrefix(prefix), "the message starts a line of its own: \(paused.standardError)")
        let done = Int(message.dropFirst(prefix.count).prefix { $0.isNumber }) ?? 0
        #expect((1..<40).contains(done), "\(message)")
        #expect(
            message.hasSuffix(
                "; the manifest \(manifest) records them (and the checkpoints of large objects their finished parts): "
                    + "run the same command again to continue where this run stopped."
            ),
            "\(message)"
        )
        let rerun = try await cli.run(["cp", "-r", directory, "oss://bkt/tree", "--manifest", manifest])
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardError.contains("done by an earlier run"), "\(rerun.standardError)")
    }

    static let payload = Data(generatedBytes(count: 12 << 20) { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })

    static func setUp(faults: [String] = []) async throws -> (ObjectsLocalServer, ObjectsCLI) {
        let arguments = ["--log-level", "warning"] + faults.flatMap { ["--fault", $0] }
        let server = try await ObjectsLocalServer.start(arguments: arguments)
        let cli = ObjectsCLI(server: server, dialect: .oss)
        try await cli.succeed(["mb", "oss://bkt"])
        return (server, cli)
    }
}

extension ObjectsCLI {
    /// Starts `objstore` with `arguments`, sends SIGINT once `marker` (a checkpoint) exists, and waits for the exit.
    func interrupt(_ arguments: [String], once marker: String) async throws -> CLIProcess.Result {
        try await interrupt(arguments) { FileManager.default.fileExists(atPath: marker) }
    }

    /// Starts `objstore` with `arguments`, sends `signal` (SIGINT unless told) once `isDue` says so (polled every
    /// 2 ms), and waits for the exit.
    func interrupt(
        _ arguments: [String],
        signal: Int32 = SIGINT,
        when isDue: @escaping @Sendable () -> Bool
    ) async throws -> CLIProcess.Result {
        let binary = try #require(CLIProcess.binary)
        var remote = ["--endpoint", server.endpoint]
        if let region = dialect.region { remote += ["--region", region] }
        let process = try ChildProcess(
            executable: binary.path,
            arguments: arguments + remote,
            environment: CLIProcess.isolatedEnvironment([
                dialect.accessKeyVariable: accessKeyID,
                dialect.secretVariable: secret,
            ]),
            standardOutput: .discard
        )
        let error = try #require(process.standardError)
        let (errorData, termination) = try await onOwnThread {
            while process.isRunning, !isDue() {
                usleep(2_000)
            }
            process.signal(signal)
            let errorData = error.readDataToEndOfFile()
            return (errorData, process.waitForExit())
        }
        return CLIProcess.Result(
            status: termination.status,
            standardOutput: "",
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}

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

/// `objstore cp -r` (a directory job, issue 17) SIGKILLed at seeded random instants and rerun with the same
/// `--manifest` until a run finishes: every object or file ends SHA-256-identical to its source, a destination
/// path never holds a partial file, the small objects sent again per kill are at most `--transfers`, and the
/// manifest is gone after the success.
///
/// What is counted: the server's request log lines (any outcome) for `PutObject` (upload) or `GetObject`
/// (download) whose key is one of the small files'. After each kill, those of the killed run minus the small
/// names its manifest gained must be at most ``transfers``; over the whole job, their total minus the number
/// of small files must be at most `kills × transfers`. The large file (above the 8 MiB threshold) goes through
/// the part engines, whose re-sent bytes ``KillResumeTests`` bounds.
struct DirectoryKillResumeTests {
    static let transfers = 8
    static let maximumKills = 4
    static let prefix = "p/"

    /// 400 small files of 1–20 KiB in nested directories, by relative name.
    static let small: [(String, Data)] = (0..<400).map { index in
        let size = 1_024 + (index &* 7_919) % (19 * 1_024)
        let bytes = generatedBytes(count: size) { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ index &* 97) >> 7) }
        return ("d\(index % 5)/s\(index % 3)/f\(index).bin", Data(bytes))
    }

    /// One file above the large-object threshold (8 MiB), moved in parts with a checkpoint beside the manifest.
    static let large: (String, Data) = (
        "large/big.bin", Data(generatedBytes(count: 9 * 1_048_576 + 1_234) { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
    )

    static var smallKeys: Set<String> { Set(small.map { prefix + $0.0 }) }

    @Test("cp -r DIR s3://…/ killed with SIGKILL at random instants, rerun until done: identical objects")
    func uploadKilledAtRandomInstantsResumes() async throws {
        let scratch = try ObjectsScratch()
        let (server, runner, source) = try await Self.start(
            scratch,
            faults: ["op=PutObject,delay-headers=15"],
            files: Self.small + [Self.large]
        )
        defer { server.stop() }
        let md5 = try await Self.digests("/usr/bin/md5sum", under: source, names: Self.small.map(\.0))
        let manifest = try Self.manifestPath(scratch)

        let outcome = try await Self.untilDone(
            [
                "cp", "-r", source, "s3://dirkill/" + Self.prefix, "--transfers", "\(Self.transfers)", "--manifest",
                manifest,
            ],
            runner: runner,
            manifest: manifest,
            operation: "PutObject",
            seed: 17
        ) {
            // An object is stored whole or not at all: each small one listed has its source's MD5 as ETag.
            let listed = try ObjectsCommandTests.jsonLines(
                try await runner.succeed(["ls", "s3://dirkill/" + Self.prefix, "--recursive", "--json"])
            )
            for object in listed {
                let name = String((object["key"] as? String ?? "").dropFirst(Self.prefix.count))
                if name == Self.large.0 {
                    #expect(object["size"] as? Int == Self.large.1.count, "\(name)")
                } else {
                    #expect(object["etag"] as? String == "\"\(md5[name] ?? "not a source name")\"", "\(name)")
                }
            }
        }
        #expect(outcome.kills >= 1, "no run was killed; the job finished too fast to test")
        #expect(outcome.result.status == 0, "\(outcome.result.standardError)")
        try Self.expectManifestGone(manifest)

        let fetched = scratch.path("fetched")
        try await runner.succeed(["cp", "-r", "s3://dirkill/" + Self.prefix, fetched, "--no-checkpoint"])
        try await Self.expectIdentical(fetched, to: source)
    }

    @Test("cp -r s3://…/ DIR killed with SIGKILL at random instants: no partial file at a final path, identical files")
    func downloadKilledAtRandomInstantsResumes() async throws {
        let scratch = try ObjectsScratch()
        let (server, runner, source) = try await Self.start(
            scratch,
            faults: ["op=GetObject,delay-headers=15"],
            files: Self.small + [Self.large],
            uploaded: true
        )
        defer { server.stop() }
        let expected = try await Self.digests("/usr/bin/sha256sum", under: source, names: Self.allNames)
        let manifest = try Self.manifestPath(scratch)
        let target = scratch.path("target")

        let outcome = try await Self.untilDone(
            [
                "cp", "-r", "s3://dirkill/" + Self.prefix, target, "--transfers", "\(Self.transfers)", "--manifest",
                manifest,
            ],
            runner: runner,
            manifest: manifest,
            operation: "GetObject",
            seed: 29
        ) {
            // Temporary files (`.objstore-partial` for small objects, `.part` for the large one) aside, every
            // file at a destination path holds its source's whole bytes.
            let names = try Self.regularFiles(under: target).filter {
                !$0.hasSuffix(".objstore-partial") && $0 != Self.large.0 + ".part"
            }
            let found = try await Self.digests("/usr/bin/sha256sum", under: target, names: names)
            for name in names {
                #expect(found[name] == expected[name], "\(name) is not its source's bytes after a kill")
            }
        }
        #expect(outcome.kills >= 1, "no run was killed; the job finished too fast to test")
        #expect(outcome.result.status == 0, "\(outcome.result.standardError)")
        try Self.expectManifestGone(manifest)
        try await Self.expectIdentical(target, to: source)
    }

    @Test("Ctrl-C (SIGINT) stops cp -r with status 130; the rerun completes the job")
    func interruptExits130AndRerunCompletes() async throws {
        let scratch = try ObjectsScratch()
        let files = Array(Self.small.prefix(120))
        let (server, runner, source) = try await Self.start(
            scratch,
            faults: ["op=PutObject,delay-headers=20"],
            files: files
        )
        defer { server.stop() }
        let manifest = try Self.manifestPath(scratch)
        let arguments = [
            "cp", "-r", source, "s3://dirkill/" + Self.prefix, "--transfers", "4", "--manifest", manifest,
        ]

        let binary = try #require(CLIProcess.binary)
        let process = try ChildProcess(
            executable: binary.path,
            arguments: runner.remote(arguments),
            environment: runner.environment,
            standardOutput: .discard
        )
        let error = try #require(process.standardError)
        async let errorData = onOwnThread { error.readDataToEndOfFile() }
        let termination = try await onOwnThread { () -> ChildProcess.Termination in
            let deadline = ContinuousClock.now + .seconds(60)
            while process.isRunning, Self.records(in: manifest).count < 10, ContinuousClock.now < deadline {
                usleep(1_000)
            }
            process.interrupt()
            return process.waitForExit()
        }
        let message = String(decoding: try await errorData, as: UTF8.self)
        #expect(termination == ChildProcess.Termination(status: 130, bySignal: false), "\(message)")
        let recorded = Self.records(in: manifest).count
        #expect(recorded >= 10 && recorded < files.count, "the manifest holds \(recorded) records after Ctrl-C")

        let rerun = try await CLIProcess.run(runner.remote(arguments), environment: runner.environment)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        // The rerun skips what the interrupted run recorded.
        #expect(rerun.standardOutput.split(separator: "\n").count <= files.count - recorded)
        try Self.expectManifestGone(manifest)
        let fetched = scratch.path("fetched")
        try await runner.succeed(["cp", "-r", "s3://dirkill/" + Self.prefix, fetched, "--no-checkpoint"])
        try await Self.expectIdentical(fetched, to: source)
    }

    /// Found by this suite: a large object deleted between a kill and the rerun left its `.part` file in the
    /// destination tree and its checkpoint beside the removed manifest. The rerun now discards them.
    @Test("A large object deleted between a kill and the rerun: its .part file and checkpoint are discarded")
    func largeObjectDeletedAfterKillLeavesNothing() async throws {
        let scratch = try ObjectsScratch()
        let (server, runner, _) = try await Self.start(
            scratch,
            faults: ["op=GetObject,bandwidth=3000000"],
            files: [Self.small[0], Self.large],
            uploaded: true
        )
        defer { server.stop() }
        let manifest = try Self.manifestPath(scratch)
        let jobs = (manifest as NSString).deletingLastPathComponent
        let target = scratch.path("target")
        let arguments = ["cp", "-r", "s3://dirkill/" + Self.prefix, target, "--manifest", manifest]

        // Killed once the large object's checkpoint records a part.
        let (_, killed) = try await runner.start(arguments) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: jobs)) ?? []
            return names.contains { name in
                name.hasSuffix(".dcp") && ((try? KillResumeRunner.saved(jobs + "/" + name))?.parts ?? 0) >= 1
            }
        }
        #expect(killed, "the download finished before the kill")
        let partial = target + "/" + Self.large.0 + ".part"
        #expect(FileManager.default.fileExists(atPath: partial))
        try await runner.succeed(["rm", "s3://dirkill/" + Self.prefix + Self.large.0])

        let rerun = try await CLIProcess.run(runner.remote(arguments), environment: runner.environment)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(!FileManager.default.fileExists(atPath: manifest))
        #expect(!FileManager.default.fileExists(atPath: partial), "\(partial) left in the destination")
        try Self.expectManifestGone(manifest)
    }

    // MARK: Helpers

    static var allNames: [String] { small.map(\.0) + [large.0] }

    /// Starts a server with `faults` and its request log in `scratch`, writes `files` under `scratch/source`
    /// and creates the bucket; with `uploaded`, also copies them to the prefix (no kill).
    static func start(
        _ scratch: borrowing ObjectsScratch,
        faults: [String],
        files: [(String, Data)],
        uploaded: Bool = false
    ) async throws -> (KillResumeServer, KillResumeRunner, source: String) {
        let server = try await KillResumeServer.start(faults: faults, logPath: scratch.path("serve.log"))
        let runner = KillResumeRunner(server: server, dialect: .s3)
        let source = scratch.path("source")
        do {
            try DirectoryCommandTests.write(files, under: source)
            try await runner.succeed(["mb", "s3://dirkill"])
            if uploaded {
                try await runner.succeed(["cp", "-r", source, "s3://dirkill/" + prefix, "--no-checkpoint"])
            }
        } catch {
            server.stop()
            throw error
        }
        return (server, runner, source)
    }

    struct Outcome {
        var result: CLIProcess.Result
        var kills: Int
    }

    /// Runs `arguments` until a run ends by itself; the first ``maximumKills`` runs are SIGKILLed once the manifest
    /// holds a seeded random number of further records (at most half of what is left), after a further random
    /// 0–20 ms. After each kill, `afterKill` checks the destination and the small objects sent again are counted.
    static func untilDone(
        _ arguments: [String],
        runner: KillResumeRunner,
        manifest: String,
        operation: String,
        seed: UInt64,
        afterKill: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome {
        var random = SplitMix64(seed: seed)
        let smallKeys = Self.smallKeys
        let smallNames = Set(small.map(\.0))
        var kills = 0
        var sent = 0
        for _ in 0...(maximumKills + 1) {
            let mark = runner.server.requests().count
            let before = records(in: manifest)
            let remaining = allNames.count - before.count
            var trigger: (@Sendable () -> Bool)?
            if kills < maximumKills, remaining > 1 {
                let kill = ManifestKillTrigger(
                    manifest: manifest,
                    records: before.count + Int.random(in: 1...max(1, remaining / 2), using: &random),
                    after: .milliseconds(Int.random(in: 0...20, using: &random))
                )
                trigger = { kill.isDue() }
            }
            let (result, killed) = try await runner.start(arguments, killWhen: trigger)
            await runner.server.settle()
            let sentNow = runner.server.requests().dropFirst(mark).filter {
                $0.operation == operation && smallKeys.contains($0.key)
            }.count
            sent += sentNow
            guard killed else {
                let again = sent - small.count
                #expect(
                    again <= kills * transfers,
                    "\(operation) of small objects: \(sent) for \(small.count) files after \(kills) kills",
                    sourceLocation: sourceLocation
                )
                return Outcome(result: result, kills: kills)
            }
            kills += 1
            let gained =
                records(in: manifest).filter(smallNames.contains).count
                - before.filter(smallNames.contains).count
            #expect(
                sentNow - gained <= transfers,
                "kill \(kills): \(sentNow) small objects sent, \(gained) recorded: more than \(transfers) to send again",
                sourceLocation: sourceLocation
            )
            try await afterKill()
        }
        Issue.record("no run finished after \(kills) kills", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The names a manifest records, from its complete lines (a line cut short by the kill is not a record).
    static func records(in manifest: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: manifest) else { return [] }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropFirst().dropLast()
        return lines.compactMap { line in
            line.split(separator: UInt8(ascii: "\t"), maxSplits: 2).last.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A manifest path in a directory of its own, so that what the job leaves beside it can be listed.
    static func manifestPath(_ scratch: borrowing ObjectsScratch) throws -> String {
        let directory = scratch.path("jobs")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/job.manifest"
    }

    /// The manifest and the large objects' checkpoints beside it are gone.
    static func expectManifestGone(_ manifest: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: (manifest as NSString).deletingLastPathComponent)
        #expect(left.isEmpty, "left beside the manifest: \(left)", sourceLocation: sourceLocation)
    }

    /// Every regular file under `root`, by relative name.
    static func regularFiles(under root: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: root) else { return [] }
        return try FileManager.default.subpathsOfDirectory(atPath: root).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
    }

    /// `directory` holds exactly the files of `source`, each SHA-256-identical, and no temporary file.
    static func expectIdentical(
        _ directory: String,
        to source: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let names = try regularFiles(under: source).sorted()
        #expect(try regularFiles(under: directory).sorted() == names, sourceLocation: sourceLocation)
        let expected = try await digests("/usr/bin/sha256sum", under: source, names: names)
        let found = try await digests("/usr/bin/sha256sum", under: directory, names: names)
        #expect(found.count == names.count && found == expected, sourceLocation: sourceLocation)
    }

    /// The digests `program` (`sha256sum`, `md5sum`: implementations independent of the project) prints for
    /// `names` under `root`, by name, in one run.
    static func digests(_ program: String, under root: String, names: [String]) async throws -> [String: String] {
        guard !names.isEmpty else { return [:] }
        let process = try ChildProcess(
            executable: program,
            arguments: ["--"] + names,
            environment: [:],
            directory: root,
            standardError: .discard
        )
        let output = try #require(process.standardOutput)
        let (data, termination) = try await onOwnThread {
            (output.readDataToEndOfFile(), process.waitForExit())
        }
        #expect(termination.status == 0, "\(program) under \(root) failed")
        var digests: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            digests[String(parts[1].drop { $0 == " " || $0 == "*" })] = String(parts[0])
        }
        return digests
    }
}

/// Decides when to SIGKILL a run: once its manifest holds `records` records, after a further delay.
final class ManifestKillTrigger: Sendable {
    let manifest: String
    let records: Int
    let delay: Duration
    private let reached = Mutex<ContinuousClock.Instant?>(nil)

    init(manifest: String, records: Int, after delay: Duration) {
        self.manifest = manifest
        self.records = records
        self.delay = delay
    }

    /// Whether the kill is due (polled).
    func isDue() -> Bool {
        let now = ContinuousClock.now
        return reached.withLock { since in
            if let since { return now - since >= delay }
            guard DirectoryKillResumeTests.records(in: manifest).count >= records else { return false }
            since = now
            return delay == .zero
        }
    }
}

/// SplitMix64: a seeded generator, so that a failing run's kill instants can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

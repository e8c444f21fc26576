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
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Issue 8's secret scan: a representative end-to-end workload — every operation, uploads and
/// downloads paused by cancellation and failed by faults (leaving checkpoints behind), presigning and
/// a presigned download, session (STS-style) credentials, a wrong secret, and `objstore` runs at
/// `--log-level trace` — while every log line (client and server, trace level), every error
/// description, every file left in the working directory (checkpoints, temp files) and the CLI's
/// output are collected; none may contain the secret or the session token.
@Suite("Secret scan", .timeLimit(.minutes(3)))
struct SecretScanTests {
    /// Everything the scan reads.
    final class Evidence: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [(origin: String, text: String)] = []
        /// The checkpoint files read, counting each version once.
        private(set) var checkpointFiles = 0
        /// What each file held when last read.
        private var read: [String: Data] = [:]

        func add(_ origin: String, _ text: String) { lock.withLock { texts.append((origin, text)) } }

        func add(error: any Error, _ origin: String) {
            SecretScanner.shared.scan(error: error, origin: origin)
            add(origin, "\(error)")
            add(origin, String(reflecting: error))
            add(origin, error.localizedDescription)
        }

        /// Reads every file under `directory` (checkpoints, temp files, lock files) that is new or changed since
        /// the last call: a file read again unchanged would only make the final search longer.
        func addFiles(under directory: String) {
            for relative in FileManager.default.subpaths(atPath: directory) ?? [] {
                let path = directory + "/" + relative
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let isNew = lock.withLock {
                    guard read[relative] != data else { return false }
                    read[relative] = data
                    if relative.hasSuffix(".dcp") || relative.hasSuffix(".ucp") { checkpointFiles += 1 }
                    return true
                }
                if isNew { add("file \(relative)", Self.text(of: data)) }
            }
        }

        /// A file's bytes as text to scan, each byte that is not ASCII replaced by `?`: the secrets are ASCII, and
        /// decoding the test's binary payloads as UTF-8 (repairing every invalid sequence) took seconds per file.
        static func text(of data: Data) -> String {
            String(unsafeUninitializedCapacity: data.count) { text in
                data.withUnsafeBytes { bytes in
                    for index in bytes.indices {
                        text[index] = bytes[index] < 0x80 ? bytes[index] : UInt8(ascii: "?")
                    }
                }
                return data.count
            }
        }

        /// The origins of texts that contain `needle`.
        func hits(_ needle: String) -> [String] {
            lock.withLock { texts.filter { $0.text.contains(needle) }.map(\.origin) }
        }

        var count: Int { lock.withLock { texts.count } }
    }

    @Test("no secret or session token in logs, errors, checkpoints or CLI output")
    func workload() async throws {
        let clientLogs = InMemoryLogHandler()
        let serverLogs = InMemoryLogHandler()
        let evidence = Evidence()
        let faults = FaultInjector()
        let fixture = try await ServerFixture.start(faults: faults, logger: .capturing(serverLogs, label: "server"))
        let scratch = try Scratch()
        do {
            try await Self.apiWorkload(fixture, faults: faults, scratch: scratch, logs: clientLogs, evidence: evidence)
            try await Self.cliWorkload(fixture, scratch: scratch, evidence: evidence)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
        for entry in clientLogs.entries {
            evidence.add("client log", "\(entry.level) \(entry.message) \(entry.metadata)")
        }
        for entry in serverLogs.entries {
            evidence.add("server log", "\(entry.level) \(entry.message) \(entry.metadata)")
        }
        evidence.addFiles(under: scratch.path)

        #expect(clientLogs.entries.count > 50, "the workload logged too little to prove anything")
        #expect(clientLogs.entries.contains { $0.level == .trace })
        #expect(evidence.checkpointFiles >= 2, "the workload left no checkpoint to scan")
        for secret in TestSecrets.forbidden {
            let hits = evidence.hits(secret)
            #expect(hits.isEmpty, "a secret appears in: \(hits)")
        }
        // Logs and CLI output also never show a signature or an Authorization header.
        for marker in ["Authorization:", "Signature=", "signature=", "x-oss-signature", "X-Amz-Signature"] {
            let hits = evidence.hits(marker).filter { !$0.hasPrefix("file ") && $0 != "wrong secret" }
            #expect(hits.isEmpty, "'\(marker)' appears in: \(hits)")
        }
    }

    /// Every public operation with session credentials, pauses, failures and presigning.
    static func apiWorkload(
        _ fixture: ServerFixture,
        faults: FaultInjector,
        scratch: Scratch,
        logs: InMemoryLogHandler,
        evidence: Evidence
    ) async throws {
        let logger = Logger.capturing(logs)
        let source = scratch.file("source.bin")
        try Data(testBytes(300_000, seed: 0)).write(to: URL(fileURLWithPath: source))
        // S3's parts are at least 5 MiB: an upload paused after its first part needs more than one.
        let s3Source = scratch.file("source-s3.bin")
        try Data(testBytes(5 << 20 + 300_000, seed: 0)).write(to: URL(fileURLWithPath: s3Source))
        for provider in [StorageVendor.oss, .obs, .s3] {
            let client = try fixture.client(provider, credentials: TestSecrets.sessionCredentials, logger: logger)
            let bucket = "scan-\(provider)"
            try await client.createBucket(bucket: bucket)
            _ = try await client.headBucket(bucket: bucket)
            try await client.putObject(PutObjectRequest(bucket: bucket, key: "a.txt", body: .bytes(Array("a".utf8))))
            _ = try await client.getObject(GetObjectRequest(bucket: bucket, key: "a.txt")).body.collect(upTo: 1 << 10)
            _ = try await client.headObject(bucket: bucket, key: "a.txt")
            try await client.copyObject(bucket: bucket, key: "b.txt", sourceBucket: bucket, sourceKey: "a.txt")
            for try await _ in client.listObjects(bucket: bucket) {}
            _ = try await client.deleteObjects(bucket: bucket, keys: ["b.txt"])
            let missing = await #expect(throws: ServiceError.self) {
                _ = try await client.getObject(GetObjectRequest(bucket: bucket, key: "missing"))
            }
            #expect(missing?.code == .noSuchKey)
            if let missing { evidence.add(error: missing, "missing object") }

            // An upload paused by cancellation, then a failed one, then resumed: checkpoints left behind. Each
            // part is answered 2 s after it arrives, so the first progress (a part sent) comes with at least one
            // more part and 2 s to go: the cancellation lands mid-transfer.
            let uploadSource = provider == .s3 ? s3Source : source
            var upload = TransferOptions(partSize: provider == .s3 ? 5 << 20 : 100 * 1024, concurrency: 1)
            upload.enableCheckpoint = true
            upload.forceMultipart = true
            faults.add(FaultRule(operations: [.uploadPart], fault: .delayBeforeHeaders(.seconds(2))))
            try await Self.pauseAfterProgress(evidence, "paused upload") { [upload] progress in
                _ = try await client.uploadFile(
                    from: uploadSource,
                    bucket: bucket,
                    key: "big.bin",
                    options: upload,
                    progress: progress
                )
            }
            evidence.addFiles(under: scratch.path)
            faults.removeAll()
            faults.add(FaultRule(operations: [.uploadPart], fault: .internalError))
            let failed = await #expect(throws: ServiceError.self) {
                _ = try await client.uploadFile(from: uploadSource, bucket: bucket, key: "big.bin", options: upload)
            }
            #expect(failed?.code == .internalError)
            if let failed { evidence.add(error: failed, "failed upload") }
            evidence.addFiles(under: scratch.path)
            faults.removeAll()
            _ = try await client.uploadFile(from: uploadSource, bucket: bucket, key: "big.bin", options: upload)

            // A download paused by cancellation, then resumed. At 16 KiB/s a part takes 4 s and the first progress
            // comes a tenth of a second in: the cancellation lands mid-transfer.
            let destination = scratch.file("down-\(provider).bin")
            let options = TransferOptions(partSize: 64 * 1024, concurrency: 1, enableCheckpoint: true)
            let throttled = FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 16 * 1024))
            faults.add(throttled)
            try await Self.pauseAfterProgress(evidence, "paused download") { [options] progress in
                _ = try await client.resumableDownload(
                    bucket: bucket,
                    key: "big.bin",
                    to: destination,
                    options: options,
                    progress: progress
                )
            }
            evidence.addFiles(under: scratch.path)
            faults.removeAll()
            _ = try await client.resumableDownload(bucket: bucket, key: "big.bin", to: destination, options: options)

            // Presigning, and a download through a presigned URL (which carries the session token).
            let presigned = try await client.presign(bucket: bucket, key: "big.bin")
            faults.add(throttled)
            let viaURL = scratch.file("url-\(provider).bin")
            try await Self.pauseAfterProgress(evidence, "paused presigned download") { [options] progress in
                _ = try await client.resumableDownload(
                    presignedURL: presigned.url,
                    to: viaURL,
                    options: options,
                    progress: progress
                )
            }
            evidence.addFiles(under: scratch.path)
            faults.removeAll()
            _ = try await client.resumableDownload(presignedURL: presigned.url, to: viaURL, options: options)
            try await client.deleteObject(bucket: bucket, key: "a.txt")

            // A wrong secret: the service's error (with its string-to-sign) must not echo anything secret.
            let wrong = Credentials(
                accessKeyID: TestSecrets.accessKeyID,
                secretAccessKey: TestSecrets.secret + "-wrong",
                securityToken: TestSecrets.sessionToken
            )
            let refused = await #expect(throws: ServiceError.self) {
                _ = try await fixture.client(provider, credentials: wrong, logger: logger)
                    .headObject(bucket: bucket, key: "big.bin")
            }
            #expect(refused?.statusCode == 403)
            if let refused { evidence.add(error: refused, "wrong secret") }
        }
    }

    /// Runs a transfer until it reports progress, then cancels it; it must end as a pause (`CancellationError`).
    /// The caller slows the transfer with a fault so that it is still seconds from its end when it is cancelled;
    /// a transfer that finishes anyway fails the test rather than skip the check.
    static func pauseAfterProgress(
        _ evidence: Evidence,
        _ origin: String,
        _ transfer: @escaping @Sendable (@escaping TransferProgressHandler) async throws -> Void
    ) async throws {
        let (progressed, continuation) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            // A transfer that ends without progress ends the wait too.
            defer { continuation.finish() }
            try await transfer { progress in
                if progress.completedBytes > 0 { continuation.yield() }
            }
        }
        var iterator = progressed.makeAsyncIterator()
        let reported = await iterator.next() != nil
        task.cancel()
        #expect(reported, "\(origin): the transfer ended without reporting progress")
        switch await task.result {
        case .success:
            Issue.record("\(origin): the transfer finished before it was cancelled; no pause was tested")
        case .failure(let error):
            evidence.add(error: error, origin)
            #expect(error is CancellationError, "\(origin): \(error)")
        }
    }

    /// `objstore` at `--log-level trace` with session credentials: its standard error (logs, errors)
    /// and standard output, except `presign`'s output, which is the signed URL by design.
    static func cliWorkload(_ fixture: ServerFixture, scratch: Scratch, evidence: Evidence) async throws {
        var environment = TestSecrets.s3Environment
        environment["AWS_SESSION_TOKEN"] = TestSecrets.sessionToken
        let environmentForRun = CLIProcess.isolatedEnvironment(environment)
        let remote = ["--endpoint", fixture.endpoint, "--region", fixture.region, "--log-level", "trace"]
        let source = scratch.file("source.bin")
        let runs: [[String]] = [
            ["ls", "s3://bkt", "--recursive"],
            ["cp", source, "s3://bkt/cli/up.bin", "--part-size", "5M"],
            ["cp", "s3://bkt/cli/up.bin", scratch.file("cli-down.bin")],
            ["cp", "--recursive", "s3://bkt/cli/", scratch.file("cli-tree")],
            ["stat", "s3://bkt/cli/up.bin"],
            ["cat", "s3://bkt/obj", "--range", "0-9"],
            ["cp", "s3://bkt/missing", scratch.file("missing.bin")],
            ["rm", "s3://bkt/cli/up.bin"],
        ]
        var traced = 0
        for arguments in runs {
            let result = try await CLIProcess.run(arguments + remote, environment: environmentForRun)
            #expect(!result.timedOut)
            evidence.add("objstore \(arguments[0]) stderr", result.standardError)
            evidence.add("objstore \(arguments[0]) stdout", result.standardOutput)
            if result.standardError.contains("trace") { traced += 1 }
        }
        #expect(traced >= 3, "the CLI wrote no trace-level logs")
        let presign = try await CLIProcess.run(
            ["presign", "s3://bkt/obj", "--endpoint", fixture.endpoint, "--region", fixture.region],
            environment: environmentForRun
        )
        #expect(presign.status == 0, "\(presign.standardError)")
        evidence.add("objstore presign stderr", presign.standardError)
    }
}

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
import ObjectStorageTransport
import Synchronization
import Testing

@Suite("Resumable download")
struct ResumableDownloadTests {
    static let dialects: [ClientDialect] = [.ossV4, .s3, .obs]

    @Test("downloads in parallel parts and verifies end to end", arguments: dialects)
    func downloadsAndVerifies(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(3 * 1024 * 1024 + 12_345, seed: 3)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "rd-bucket")
            try await client.putObject(PutObjectRequest(bucket: "rd-bucket", key: "a/big.bin", body: .bytes(content)))
            let destination = scratch.file("big.bin")
            let progress = DownloadProgressLog()
            let result = try await client.resumableDownload(
                bucket: "rd-bucket",
                key: "a/big.bin",
                to: destination,
                options: smallPartOptions(partSize: 256 * 1024),
                progress: progress.handler
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.objectSize == Int64(content.count))
            #expect(result.bytesTransferred == Int64(content.count))
            #expect(result.bytesReused == 0)
            #expect(result.partCount == 13)
            switch dialect.provider {
            case .oss: #expect(result.verification == .crc64(CRC64.checksum(content)))
            case .s3: #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
            default: #expect(result.verification == .md5(ByteEncoding.hex(Hashing.MD5.hash(content))))
            }
            #expect(!fileExists(destination + ".dcp"))
            #expect(!fileExists(destination + ".part"))
            let reports = progress.all
            #expect(reports.last?.completedBytes == Int64(content.count))
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        }
    }

    @Test("0-byte and 1-byte objects", arguments: [ClientDialect.ossV4, .s3])
    func tinyObjects(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "tiny")
            for size in [0, 1] {
                let content = testBytes(size, seed: 9)
                try await client.putObject(PutObjectRequest(bucket: "tiny", key: "k\(size)", body: .bytes(content)))
                let destination = scratch.file("t\(size)")
                let result = try await client.resumableDownload(bucket: "tiny", key: "k\(size)", to: destination)
                #expect(try fileBytes(destination) == content)
                #expect(result.partCount == size)
                #expect(!fileExists(destination + ".dcp"))
            }
        }
    }

    @Test("a byte range", arguments: [ClientDialect.ossV4, .s3])
    func rangeDownload(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024, seed: 4)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "range")
            try await client.putObject(PutObjectRequest(bucket: "range", key: "k", body: .bytes(content)))
            let options = smallPartOptions()
            let destination = scratch.file("slice")
            let result = try await client.resumableDownload(
                bucket: "range",
                key: "k",
                range: .bytes(100_000...1_300_000),
                to: destination,
                options: options
            )
            #expect(try fileBytes(destination) == Array(content[100_000...1_300_000]))
            #expect(result.range == 100_000..<1_300_001)
            guard case .none = result.verification else {
                Issue.record("a range has no service checksum, got \(result.verification)")
                return
            }
            _ = try await client.resumableDownload(
                bucket: "range",
                key: "k",
                range: .suffix(1000),
                to: destination,
                options: options
            )
            #expect(try fileBytes(destination) == Array(content.suffix(1000)))
        }
    }

    /// Seeds 5 and 6 read bodies as an `AsyncSequence` (a custom transport); the others on the event loop.
    @Test("cancel at random byte counts, then resume: identical SHA-256", arguments: [1, 2, 3, 4, 5, 6])
    func pauseAndResume(seed: Int) async throws {
        let scratch = try ScratchDirectory()
        let dialect: ClientDialect = seed.isMultiple(of: 2) ? .s3 : .ossV4
        let content = testBytes(4 * 1024 * 1024 + 777, seed: UInt8(seed))
        var generator = SplitMixForTests(seed: UInt64(seed))
        let threshold = Int64.random(in: 200_000...3_500_000, using: &generator)
        let counting = DownloadBox<CountingTransport>()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: counting.transportFactory(sequenceOnly: seed > 4))
            let counting = try #require(counting.value)
            try await client.createBucket(bucket: "pause")
            try await client.putObject(PutObjectRequest(bucket: "pause", key: "k", body: .bytes(content)))
            counting.reset()
            let options = smallPartOptions()
            let destination = scratch.file("paused.bin")
            let paused = try await pauseDownload(
                client,
                counting: counting,
                bucket: "pause",
                key: "k",
                to: destination,
                options: options,
                afterBytes: threshold
            )
            try #require(paused)
            #expect(fileExists(destination + ".dcp"))
            #expect(fileExists(destination + ".part"))
            #expect(!fileExists(destination))
            let firstRun = counting.received
            counting.reset()
            let progress = DownloadProgressLog()
            let result = try await client.resumableDownload(
                bucket: "pause",
                key: "k",
                to: destination,
                options: options,
                progress: progress.handler
            )
            #expect(sha256Hex(try fileBytes(destination)) == sha256Hex(content))
            #expect(result.bytesReused > 0)
            #expect(result.bytesReused + result.bytesTransferred == Int64(content.count))
            let refetched = firstRun + counting.received - Int64(content.count)
            #expect(refetched <= Int64(options.concurrency) * options.partSize)
            let reports = progress.all
            #expect(reports.first?.completedBytes == result.bytesReused)
            #expect(reports.first?.resumedBytes == result.bytesReused)
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
            #expect(!fileExists(destination + ".dcp"))
        }
    }

    @Test(
        "object replaced mid-download: restart, final file is the new version",
        arguments: [ClientDialect.ossV4, .s3]
    )
    func objectReplaced(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let old = testBytes(2 * 1024 * 1024, seed: 5)
        let new = testBytes(2 * 1024 * 1024 + 99, seed: 6)
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "change")
            try await client.putObject(PutObjectRequest(bucket: "change", key: "k", body: .bytes(old)))
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(3), fault: .replaceContent(with: new)))
            let destination = scratch.file("changed.bin")
            let result = try await client.resumableDownload(
                bucket: "change",
                key: "k",
                to: destination,
                options: smallPartOptions(concurrency: 2)
            )
            #expect(try fileBytes(destination) == new)
            #expect(result.restarts == 1)
            #expect(result.objectSize == Int64(new.count))

            // With no restart allowed, the change fails the download and leaves the old file alone.
            faults.removeAll()
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(2), fault: .replaceContent(with: old)))
            var options = smallPartOptions(concurrency: 2)
            options.restartsOnChange = 0
            await #expect {
                _ = try await client.resumableDownload(bucket: "change", key: "k", to: destination, options: options)
            } throws: { ($0 as? ObjectStorageError)?.code == .objectChanged }
            #expect(try fileBytes(destination) == new)
            #expect(!fileExists(destination + ".part"))
            #expect(!fileExists(destination + ".dcp"))
        }
    }

    @Test(
        "a connection closed mid-part resumes from the byte reached",
        arguments: [ClientDialect.ossV4, .s3],
        [false, true]
    )
    func connectionClosedMidPart(_ dialect: ClientDialect, sequenceOnly: Bool) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024, seed: 7)
        let faults = FaultInjector()
        let counting = DownloadBox<CountingTransport>()
        let factory = counting.transportFactory(sequenceOnly: sequenceOnly)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: factory)
            try await client.createBucket(bucket: "drop")
            try await client.putObject(PutObjectRequest(bucket: "drop", key: "k", body: .bytes(content)))
            // Each cut must leave the attempt more than the retry policy's 64 KiB `progressResetBytes`, which
            // restores the retry budget. When the server closes, AsyncHTTPClient's async body discards what it had
            // read from the socket but not yet handed over (measured: up to about 70 KB), so a cut after 100 KB
            // sometimes kept 30 KB on the `sequenceOnly` path, and a part cut three times failed.
            faults.add(
                FaultRule(
                    operations: [.getObject],
                    trigger: .first(6),
                    fault: .closeConnection(afterBodyBytes: 200_000)
                )
            )
            let counter = try #require(counting.value)
            counter.reset()
            let destination = scratch.file("dropped.bin")
            let result = try await client.resumableDownload(
                bucket: "drop",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: 512 * 1024)
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.bytesTransferred == Int64(content.count))
            // Resumed from the reached offset: nothing was fetched twice.
            #expect(counter.received == Int64(content.count))
        }
    }

    @Test("5xx and throttling bursts", arguments: [ClientDialect.ossV4, .s3])
    func serverErrorBursts(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(1024 * 1024 + 5, seed: 8)
        let faults = FaultInjector()
        let retry = RetryPolicy.exponentialJitter(maxAttempts: 6, base: .milliseconds(1), cap: .milliseconds(5))
        let configure: (inout ObjectStorageClient.Configuration) -> Void = {
            dialect.configure(&$0)
            $0.retry = retry
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: configure
        ) { client, _ in
            try await client.createBucket(bucket: "burst")
            try await client.putObject(PutObjectRequest(bucket: "burst", key: "k", body: .bytes(content)))
            faults.add(FaultRule(operations: [.headObject], trigger: .nth(1), fault: .slowDown))
            faults.add(FaultRule(operations: [.getObject], trigger: .first(2), fault: .internalError))
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(5), fault: .slowDown))
            faults.add(
                FaultRule(operations: [.getObject], trigger: .nth(7), fault: .tooManyRequests(retryAfterSeconds: 0))
            )
            let destination = scratch.file("burst.bin")
            _ = try await client.resumableDownload(
                bucket: "burst",
                key: "k",
                to: destination,
                options: smallPartOptions()
            )
            #expect(try fileBytes(destination) == content)
        }
    }

    enum Damage: String, CaseIterable, Sendable {
        case truncated, tampered, garbage, tempFileShortened
    }

    @Test("a damaged checkpoint restarts cleanly with the reason logged", arguments: Damage.allCases)
    func damagedCheckpoint(_ damage: Damage) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024, seed: 10)
        let counting = DownloadBox<CountingTransport>()
        let handler = InMemoryLogHandler()
        var logger = Logger.scanning(label: "rd-test", alsoTo: handler)
        logger.logLevel = .debug
        try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
            let client = client.derived(logger: logger, transport: counting.transportFactory)
            try await client.createBucket(bucket: "damage")
            try await client.putObject(PutObjectRequest(bucket: "damage", key: "k", body: .bytes(content)))
            let destination = scratch.file("damaged.bin")
            let paused = try await pauseDownload(
                client,
                counting: try #require(counting.value),
                bucket: "damage",
                key: "k",
                to: destination,
                options: smallPartOptions(),
                afterBytes: 1_000_000
            )
            try #require(paused)
            let checkpointPath = destination + ".dcp"
            var bytes = try fileBytes(checkpointPath)
            let expectedCode: String
            switch damage {
            case .truncated:
                bytes = Array(bytes.prefix(bytes.count / 2))
                expectedCode = "malformed"
            case .tampered:
                // Change one part's CRC digit: still JSON, but the digest no longer matches.
                let text = String(decoding: bytes, as: UTF8.self)
                let edited = try #require(text.range(of: "\"crc64\":\""))
                var characters = Array(text)
                let position = text.distance(from: text.startIndex, to: edited.upperBound)
                characters[position] = characters[position] == "1" ? "2" : "1"
                bytes = Array(String(characters).utf8)
                expectedCode = "digestMismatch"
            case .garbage:
                bytes = Array(repeating: 0xA5, count: 300)
                expectedCode = "malformed"
            case .tempFileShortened:
                try FileHandle(forWritingTo: URL(fileURLWithPath: destination + ".part")).truncate(atOffset: 1000)
                expectedCode = "tempFileSizeMismatch"
            }
            try Data(bytes).write(to: URL(fileURLWithPath: checkpointPath))
            let result = try await client.resumableDownload(
                bucket: "damage",
                key: "k",
                to: destination,
                options: smallPartOptions()
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.bytesReused == 0)
            let restart = handler.entries.first { $0.message.description.contains("starting the download over") }
            #expect(restart?.metadata["os.reason"]?.description.hasPrefix(expectedCode) == true)
        }
    }

    @Test("an existing destination survives a failed download")
    func destinationUntouchedOnFailure() async throws {
        let scratch = try ScratchDirectory()
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .s3, faults: faults, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "keep")
            try await client.putObject(PutObjectRequest(bucket: "keep", key: "k", body: .bytes(testBytes(600_000))))
            let destination = scratch.file("precious.txt")
            try Data("older version".utf8).write(to: URL(fileURLWithPath: destination))
            _ = await expectServiceError(.noSuchKey, status: 404) {
                _ = try await client.resumableDownload(bucket: "keep", key: "missing", to: destination)
            }
            let denied = Fault.error(status: 403, code: "AccessDenied", message: "no")
            faults.add(FaultRule(operations: [.getObject], trigger: .nth(3), fault: denied))
            _ = await expectServiceError(.accessDenied, status: 403) {
                _ = try await client.resumableDownload(
                    bucket: "keep",
                    key: "k",
                    to: destination,
                    options: smallPartOptions(partSize: 100_000, concurrency: 1)
                )
            }
            #expect(try fileBytes(destination) == Array("older version".utf8))
            // The checkpoint keeps the two finished parts; the next call finishes the job.
            #expect(fileExists(destination + ".dcp"))
            faults.removeAll()
            let result = try await client.resumableDownload(
                bucket: "keep",
                key: "k",
                to: destination,
                options: smallPartOptions(partSize: 100_000, concurrency: 1)
            )
            #expect(result.bytesReused == 200_000)
            #expect(try fileBytes(destination) == testBytes(600_000))
        }
    }

    @Test("a presigned URL alone", arguments: [ClientDialect.ossV4, .s3])
    func presignedURL(_ dialect: ClientDialect) async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(1024 * 1024 + 3, seed: 11)
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "presigned")
            try await client.putObject(PutObjectRequest(bucket: "presigned", key: "p/q r", body: .bytes(content)))
            try await client.putObject(PutObjectRequest(bucket: "presigned", key: "empty", body: .bytes([])))
            let url = try await client.presign(bucket: "presigned", key: "p/q r").url
            let destination = scratch.file("presigned.bin")
            let result = try await client.resumableDownload(
                presignedURL: url,
                to: destination,
                options: smallPartOptions(partSize: 200_000)
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.partCount == 6)
            let emptyURL = try await client.presign(bucket: "presigned", key: "empty").url
            _ = try await client.resumableDownload(presignedURL: emptyURL, to: scratch.file("empty"))
            #expect(try fileBytes(scratch.file("empty")) == [])
        }
    }

    @Test("invalid options are refused before anything is sent")
    func validation() async throws {
        let scratch = try ScratchDirectory()
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: "valid")
            try await client.putObject(PutObjectRequest(bucket: "valid", key: "k", body: .bytes(testBytes(1000))))
            var cases: [(String, TransferOptions, ByteRange?, String)] = []
            var options = TransferOptions()
            options.partSize = 0
            cases.append(("part size", options, nil, scratch.file("a")))
            options = TransferOptions()
            options.concurrency = 0
            cases.append(("concurrency 0", options, nil, scratch.file("a")))
            options.concurrency = TransferOptions.maximumConcurrency + 1
            cases.append(("concurrency above the maximum", options, nil, scratch.file("a")))
            options = TransferOptions()
            cases.append(("negative range", options, .from(-5), scratch.file("a")))
            cases.append(("empty suffix", options, .suffix(0), scratch.file("a")))
            cases.append(("range beyond the object", options, .from(1000), scratch.file("a")))
            cases.append(("directory destination", TransferOptions(), nil, scratch.path))
            cases.append(("missing directory", TransferOptions(), nil, scratch.file("nope/a")))
            options = TransferOptions(enableCheckpoint: true, checkpointFilePath: scratch.file("a"))
            cases.append(("checkpoint is the destination", options, nil, scratch.file("a")))
            for (name, options, range, destination) in cases {
                await #expect(Comment(rawValue: name)) {
                    _ = try await client.resumableDownload(
                        bucket: "valid",
                        key: "k",
                        range: range,
                        to: destination,
                        options: options
                    )
                } throws: { ($0 as? ObjectStorageError)?.code == .invalidArgument }
            }
            #expect(!fileExists(scratch.file("a")))
        }
    }

    @Test("abandon deletes the temp file and checkpoint; a running download is locked")
    func abandonAndLock() async throws {
        let scratch = try ScratchDirectory()
        let content = testBytes(2 * 1024 * 1024, seed: 12)
        let counting = DownloadBox<CountingTransport>()
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(vendor: .oss, faults: faults, logger: .scanning) { client, _ in
            let client = client.derived(transport: counting.transportFactory)
            try await client.createBucket(bucket: "abandon")
            try await client.putObject(PutObjectRequest(bucket: "abandon", key: "k", body: .bytes(content)))
            let destination = scratch.file("abandoned.bin")
            let counter = try #require(counting.value)
            let paused = try await pauseDownload(
                client,
                counting: counter,
                bucket: "abandon",
                key: "k",
                to: destination,
                options: smallPartOptions(),
                afterBytes: 700_000
            )
            try #require(paused)
            #expect(try await client.abandonResumableDownload(to: destination, options: smallPartOptions()))
            #expect(!fileExists(destination + ".part"))
            #expect(!fileExists(destination + ".dcp"))

            // While one download runs, a second one to the same destination is refused.
            faults.add(FaultRule(operations: [.getObject], fault: .bandwidthLimit(bytesPerSecond: 512 * 1024)))
            let (started, startedContinuation) = AsyncStream<Void>.makeStream()
            counter.reset()
            counter.onReceived(1) { startedContinuation.yield() }
            let running = Task {
                try await client.resumableDownload(
                    bucket: "abandon",
                    key: "k",
                    to: destination,
                    options: smallPartOptions()
                )
            }
            for await _ in started { break }
            await #expect {
                _ = try await client.resumableDownload(
                    bucket: "abandon",
                    key: "k",
                    to: destination,
                    options: smallPartOptions()
                )
            } throws: { ($0 as? ObjectStorageError)?.code == .checkpointLocked }
            await #expect {
                try await client.abandonResumableDownload(to: destination, options: smallPartOptions())
            } throws: { ($0 as? ObjectStorageError)?.code == .checkpointLocked }
            running.cancel()
            _ = await running.result
            faults.removeAll()
            let result = try await client.resumableDownload(
                bucket: "abandon",
                key: "k",
                to: destination,
                options: smallPartOptions()
            )
            #expect(try fileBytes(destination) == content)
            #expect(result.verification == .crc64(CRC64.checksum(content)))
        }
    }
}

extension DownloadBox where Value == CountingTransport {
    /// A `derived(logger:transport:)` transport factory that wraps the base transport and keeps the wrapper here.
    var transportFactory: @Sendable (any HTTPTransport) -> any HTTPTransport {
        { base in self.set(CountingTransport(base: base)) }
    }

    /// Like ``transportFactory``, but bodies reach the download as an `AsyncSequence` (a custom transport's
    /// path) when `sequenceOnly` is set, instead of being delivered on the event loop.
    func transportFactory(sequenceOnly: Bool) -> @Sendable (any HTTPTransport) -> any HTTPTransport {
        { base in
            let counting = self.set(CountingTransport(base: base))
            return sequenceOnly ? SequenceOnlyTransport(base: counting) : counting
        }
    }
}

/// A settable reference, to get a test transport out of `derived(logger:transport:)`'s factory closure.
final class DownloadBox<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    var value: Value? { self.storage.withLock { $0 } }

    func set(_ value: Value) -> Value {
        self.storage.withLock { $0 = value }
        return value
    }
}

/// A seeded generator for test parameters.
struct SplitMixForTests: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { self.state = seed }

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

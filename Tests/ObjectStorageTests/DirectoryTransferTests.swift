//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

@Suite("Directory jobs: upload, download and sync of trees, resumed from a manifest")
struct DirectoryTransferTests {
    /// File contents by the name's UTF-8 bytes (Swift strings would merge the NFC and NFD names).
    typealias Tree = [[UInt8]: [UInt8]]

    static let bucket = "tree"

    /// A tree with nested directories, an empty file, NFC and NFD names (two files on Linux), a large file, an
    /// empty directory and a symbolic link.
    static func makeTree(_ dialect: ClientDialect) throws -> (root: String, files: Tree) {
        let root = temporaryPath("tree")
        var list: [(String, [UInt8])] = [
            ("a.txt", testBytes(10, seed: 1)),
            ("a-b.txt", testBytes(20, seed: 2)),
            ("a/b/c.txt", testBytes(3000, seed: 3)),
            ("empty", []),
            ("caf\u{E9}.txt", testBytes(5, seed: 4)),
            ("cafe\u{301}.txt", testBytes(6, seed: 5)),
            ("z/large.bin", testBytes(Self.largeSize(dialect), seed: 6)),
        ]
        for index in 0..<40 { list.append(("many/\(index).bin", testBytes(100 + index, seed: UInt8(10 + index)))) }
        var files: Tree = [:]
        for (name, bytes) in list {
            files[Array(name.utf8)] = bytes
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true
            )
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        }
        try FileManager.default.createDirectory(atPath: root + "/empty-dir", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/a.txt")
        return (root, files)
    }

    /// Creates the tree's bucket and a "mirror" bucket, and uploads `root` to the tree's bucket under "photos/".
    static func uploadPhotos(_ root: String, _ client: ObjectStorageClient, _ dialect: ClientDialect) async throws {
        try await client.createBucket(bucket: Self.bucket)
        try await client.createBucket(bucket: "mirror")
        _ = try await client.uploadDirectory(
            root,
            bucket: Self.bucket,
            prefix: "photos/",
            options: Self.options(dialect)
        )
    }

    /// Above the large-object threshold, so it goes through the part engine.
    static func largeSize(_ dialect: ClientDialect) -> Int { dialect.minimumPartSize * 2 + 1000 }

    static func options(_ dialect: ClientDialect) -> DirectoryTransferOptions {
        var options = DirectoryTransferOptions()
        options.concurrency = 8
        options.largeObjectThreshold = Int64(dialect.minimumPartSize + 1)
        options.transfer.partSize = Int64(dialect.minimumPartSize)
        options.transfer.concurrency = 2
        return options
    }

    /// The files under `root` (regular files only), by relative name.
    static func readTree(_ root: String) throws -> Tree {
        var result: Tree = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = root + "/" + name
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            result[Array(name.utf8)] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return result
    }

    static func remoteKeys(_ client: ObjectStorageClient) async throws -> [String] {
        var keys: [String] = []
        for try await page in client.listObjects(bucket: Self.bucket) { keys += page.contents.map(\.key) }
        return keys
    }

    @Test("job files are named by the 64-bit FNV-1a hash of a text, 16 hexadecimal digits")
    func jobFileNames() {
        // The FNV reference values (draft-eastlake-fnv): "", "a" and "foobar".
        #expect(JobFileName.hash("") == "cbf29ce484222325")
        #expect(JobFileName.hash("a") == "af63dc4c8601ec8c")
        #expect(JobFileName.hash("foobar") == "85944171f73967e8")
    }

    @Test(
        "a tree goes up and comes back byte for byte; links, empty directories and unsafe keys are left out",
        arguments: [ClientDialect.ossV4, .obs, .s3]
    )
    func roundTrip(_ dialect: ClientDialect) async throws {
        let (root, files) = try Self.makeTree(dialect)
        let restored = temporaryPath("restored")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: restored)
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            let events = EventLog()
            let up = try await client.uploadDirectory(
                root,
                bucket: Self.bucket,
                prefix: "photos/",
                options: Self.options(dialect),
                events: events.handler
            )
            #expect(up.transferred == files.count)
            #expect(up.transferredBytes == Int64(files.values.map(\.count).reduce(0, +)))
            #expect(up.skipped == 1)
            #expect(events.skipped.map(\.name) == ["link"])
            // By bytes: Swift's `==` would take the NFC and NFD names for one.
            #expect(Set(events.transferred.map { Array($0.utf8) }) == Set(files.keys))
            // The progress after each object: the last one counts every name found, once both sides are listed.
            let progress = events.progress
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.objectsDone <= $1.objectsDone })
            let last = try #require(progress.last)
            #expect(last.objectsDone == files.count + 1 && last.objectsFound == files.count + 1)
            #expect(last.isListingComplete)
            #expect(last.bytesTransferred == up.transferredBytes)
            let keys = try await Self.remoteKeys(client)
            // Keys in UTF-8 byte order, NFC and NFD apart, nothing for the link or the empty directory.
            #expect(
                keys.map { Array($0.utf8) }
                    == files.keys.map { Array("photos/".utf8) + $0 }.sorted {
                        $0.lexicographicallyPrecedes($1)
                    }
            )
            // Two unsafe keys next to the tree: never written outside the directory.
            try await client.putObject(.init(bucket: Self.bucket, key: "photos/../escape", body: .bytes([1])))
            try await client.putObject(.init(bucket: Self.bucket, key: "photos/a//b", body: .bytes([2])))

            let downloadEvents = EventLog()
            let down = try await client.downloadDirectory(
                bucket: Self.bucket,
                prefix: "photos/",
                to: restored,
                options: Self.options(dialect),
                events: downloadEvents.handler
            )
            #expect(down.transferred == files.count)
            #expect(down.skipped == 2)
            #expect(Set(downloadEvents.skipped.map(\.name)) == ["../escape", "a//b"])
            #expect(downloadEvents.progress.last?.objectsDone == files.count + 2)
            #expect(
                !FileManager.default.fileExists(atPath: (restored as NSString).deletingLastPathComponent + "/escape")
            )
            #expect(try Self.readTree(restored) == files)
        }
    }

    @Test("sync moves only what changed, deletes extraneous names last, and a dry run changes nothing")
    func syncBothWays() async throws {
        let dialect = ClientDialect.s3
        let (root, files) = try Self.makeTree(.ossV4)
        let mirror = temporaryPath("mirror")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: mirror)
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.comparison = .sizeAndModificationTime
            let first = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            #expect(first.transferred == files.count)
            let again = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            #expect(again.transferred == 0)
            #expect(again.unchanged == files.count)

            // One file grows, one disappears locally; an object exists only remotely.
            try Data([9, 9, 9]).write(to: URL(fileURLWithPath: root + "/a/b/c.txt"))
            try FileManager.default.removeItem(atPath: root + "/a.txt")
            try await client.putObject(.init(bucket: Self.bucket, key: "only-remote", body: .bytes([7])))
            options.deletesExtraneous = true
            var dry = options
            dry.isDryRun = true
            let dryEvents = EventLog()
            let planned = try await client.uploadDirectory(
                root,
                bucket: Self.bucket,
                options: dry,
                events: dryEvents.handler
            )
            #expect(planned.transferred == 1)
            #expect(planned.deleted == 2)
            #expect(dryEvents.transferred == ["a/b/c.txt"])
            #expect(Set(dryEvents.deleted) == ["a.txt", "only-remote"])
            // Nothing moved: the progress counts no byte, and the objects are as they were.
            #expect(dryEvents.progress.last?.bytesTransferred == 0)
            #expect(try await Self.remoteKeys(client).contains("only-remote"))
            #expect(
                try await client.getObject(.init(bucket: Self.bucket, key: "a/b/c.txt")).body.collect(upTo: 10_000)
                    .bytes == files[Array("a/b/c.txt".utf8)]
            )

            let synced = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            #expect(synced.transferred == 1)
            #expect(synced.deleted == 2)
            let keys = try await Self.remoteKeys(client)
            #expect(!keys.contains("only-remote") && !keys.contains("a.txt"))
            #expect(
                try await client.getObject(.init(bucket: Self.bucket, key: "a/b/c.txt")).body.collect(upTo: 100)
                    .bytes == [9, 9, 9]
            )

            // Down: a full mirror, then a second sync moves nothing; a stray local file goes with --delete.
            options.largeObjectThreshold = 100_000  // z/large.bin goes through the part engine (and its .part file)
            let down = try await client.downloadDirectory(bucket: Self.bucket, to: mirror, options: options)
            #expect(down.transferred == files.count - 1)
            let modified =
                try FileManager.default.attributesOfItem(atPath: mirror + "/empty")[.modificationDate] as? Date
            let head = try await client.headObject(bucket: Self.bucket, key: "empty")
            #expect(
                modified.map { Int($0.timeIntervalSince1970) }
                    == head.lastModified.map { Int($0.timeIntervalSince1970) }
            )
            try Data([1]).write(to: URL(fileURLWithPath: mirror + "/stray"))
            // What a killed download of the large object would leave: the job's own, never deleted as extraneous.
            try Data([2]).write(to: URL(fileURLWithPath: mirror + "/z/large.bin.part"))
            let second = try await client.downloadDirectory(bucket: Self.bucket, to: mirror, options: options)
            #expect(second.transferred == 0)
            #expect(second.unchanged == files.count - 1)
            #expect(second.deleted == 1)
            #expect(!FileManager.default.fileExists(atPath: mirror + "/stray"))
            #expect(FileManager.default.fileExists(atPath: mirror + "/z/large.bin.part"))
        }
    }

    @Test("a job with failures keeps its manifest; the rerun skips what was done and removes it")
    func manifestResumes() async throws {
        let dialect = ClientDialect.ossV4
        let (root, files) = try Self.makeTree(dialect)
        let manifest = temporaryPath("job.manifest")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let faults = FaultInjector()
        faults.add(
            FaultRule(
                operations: [.putObject],
                key: "many/7.bin",
                fault: .error(status: 403, code: "AccessDenied", message: "denied for the test")
            )
        )
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.manifestPath = manifest
            let events = EventLog()
            let first = try await client.uploadDirectory(
                root,
                bucket: Self.bucket,
                options: options,
                events: events.handler
            )
            #expect(first.failed == 1)
            #expect(first.transferred == files.count - 1)
            #expect(events.failed.map(\.name) == ["many/7.bin"])
            #expect((events.failed.first?.error as? ServiceError)?.code == "AccessDenied")
            let journal = try String(contentsOfFile: manifest, encoding: .utf8)
            // The header, the large file's start, and one line per finished file.
            #expect(journal.split(separator: "\n").count == files.count + 1)
            #expect(journal.contains("\n-\t-\tz/large.bin\n"))

            // Another job may not use this manifest.
            await #expect {
                _ = try await client.uploadDirectory(root, bucket: Self.bucket, prefix: "other/", options: options)
            } throws: { error in
                (error as? ObjectStorageError)?.code == .checkpointFailed
            }

            faults.removeAll()
            let tally = Mutex(0)
            let second = try await client.uploadDirectory(root, bucket: Self.bucket, options: options) { event in
                if case .transferred = event { tally.withLock { $0 += 1 } }
            }
            #expect(second.transferred == 1)
            #expect(second.finishedEarlier == files.count - 1)
            #expect(tally.withLock { $0 } == 1)
            #expect(!FileManager.default.fileExists(atPath: manifest))
            let object = try await client.getObject(.init(bucket: Self.bucket, key: "many/7.bin"))
            #expect(try await object.body.collect(upTo: 1 << 20).bytes == files[Array("many/7.bin".utf8)])
        }
    }

    @Test("a download's rerun trusts its manifest only for files still in place: deleted or truncated ones come again")
    func manifestResumesDownloadsOfFilesStillInPlace() async throws {
        let dialect = ClientDialect.s3
        let (root, files) = try Self.makeTree(dialect)
        let restored = temporaryPath("restored")
        let manifest = temporaryPath("download.manifest")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: restored)
            try? FileManager.default.removeItem(atPath: manifest)
        }
        let faults = FaultInjector()
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            _ = try await client.uploadDirectory(root, bucket: Self.bucket, options: Self.options(dialect))
            faults.add(
                FaultRule(
                    operations: [.getObject],
                    key: "many/7.bin",
                    fault: .error(status: 403, code: "AccessDenied", message: "denied for the test")
                )
            )
            var options = Self.options(dialect)
            options.manifestPath = manifest
            let first = try await client.downloadDirectory(bucket: Self.bucket, to: restored, options: options)
            #expect(first.failed == 1)
            #expect(FileManager.default.fileExists(atPath: manifest))

            // Between the runs, one file is deleted and one cut short; the manifest still lists both.
            try FileManager.default.removeItem(atPath: restored + "/many/3.bin")
            let truncated = try FileHandle(forWritingTo: URL(fileURLWithPath: restored + "/a/b/c.txt"))
            try truncated.truncate(atOffset: 100)
            try truncated.close()

            faults.removeAll()
            let events = EventLog()
            let second = try await client.downloadDirectory(
                bucket: Self.bucket,
                to: restored,
                options: options,
                events: events.handler
            )
            #expect(second.failed == 0)
            #expect(
                Set(events.transferred) == ["many/7.bin", "many/3.bin", "a/b/c.txt"]
            )
            #expect(second.finishedEarlier == files.count - 3)
            #expect(try Self.readTree(restored) == files)
        }
    }

    @Test("checksum finds a change that keeps the size and the modification time")
    func checksumComparison() async throws {
        let dialect = ClientDialect.s3
        let (root, files) = try Self.makeTree(.ossV4)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.comparison = .sizeAndModificationTime
            _ = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            // Same size, same modification time, other bytes.
            let path = root + "/a-b.txt"
            let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            try Data(testBytes(20, seed: 99)).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: date ?? Date()], ofItemAtPath: path)
            let byTime = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            #expect(byTime.transferred == 0)
            options.comparison = .checksum
            var dry = options
            dry.isDryRun = true
            #expect(try await client.uploadDirectory(root, bucket: Self.bucket, options: dry).transferred == 1)
            let byContent = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            #expect(byContent.transferred == 1)
            // The large file was uploaded in parts: no MD5 to compare, so it is judged by size and time.
            #expect(byContent.unchanged == files.count - 1)
            let object = try await client.getObject(.init(bucket: Self.bucket, key: "a-b.txt"))
            #expect(try await object.body.collect(upTo: 100).bytes == testBytes(20, seed: 99))
        }
    }

    @Test("a missing bucket stops the job at the first object instead of failing each one")
    func missingBucketStopsTheJob() async throws {
        let dialect = ClientDialect.s3
        let (root, _) = try Self.makeTree(.ossV4)
        let parent = temporaryPath("never-written")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: parent)
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let events = EventLog()
            await #expect {
                _ = try await client.uploadDirectory(
                    root,
                    bucket: "missing-bucket",
                    options: Self.options(dialect),
                    events: events.handler
                )
            } throws: { error in
                (error as? ServiceError)?.code == .noSuchBucket
            }
            #expect(events.failed.isEmpty)

            // A download creates its directory, and removes it again when the job fails before writing anything.
            let target = parent + "/inner"
            await #expect {
                _ = try await client.downloadDirectory(bucket: "missing-bucket", to: target)
            } throws: { error in
                (error as? ServiceError)?.code == .noSuchBucket
            }
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    @Test("a prefix copies to another bucket server-side and to another server streamed; a sync copies nothing more")
    func prefixCopies() async throws {
        let dialect = ClientDialect.ossV4
        let (root, files) = try Self.makeTree(dialect)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sent = Mutex<[String]>([])
        let recording: @Sendable (any HTTPTransport) -> any HTTPTransport = { base in
            RecordingTransport(base: base) { request in
                sent.withLock { $0.append("\(request.method) \(request.url)") }
            }
        }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: recording)
            try await Self.uploadPhotos(root, client, dialect)
            var options = Self.options(dialect)
            let events = EventLog()
            let copied = try await client.copyPrefix(
                bucket: "mirror",
                prefix: "backup/",
                sourceBucket: Self.bucket,
                sourcePrefix: "photos/",
                options: options,
                events: events.handler
            )
            #expect(copied.transferred == files.count)
            #expect(events.transferred.count == files.count && events.failed.isEmpty && events.skipped.isEmpty)
            // A small object is one CopyObject pinned to its listed ETag: only the large one's engine reads headers.
            let heads = sent.withLock { $0 }.filter { $0.hasPrefix("HEAD ") }
            #expect(!heads.isEmpty && heads.allSatisfy { $0.hasSuffix("/photos/z/large.bin") }, "\(heads)")
            for (name, bytes) in files {
                let key = "backup/" + String(decoding: name, as: UTF8.self)
                let object = try await client.getObject(.init(bucket: "mirror", key: key))
                #expect(try await object.body.collect(upTo: 1 << 24).bytes == bytes, "\(key)")
            }
            options.comparison = .checksum
            options.deletesExtraneous = true
            try await client.putObject(.init(bucket: "mirror", key: "backup/stray", body: .bytes([1])))
            let again = try await client.copyPrefix(
                bucket: "mirror",
                prefix: "backup/",
                sourceBucket: Self.bucket,
                sourcePrefix: "photos/",
                options: options
            )
            #expect(again.transferred == 0)
            #expect(again.deleted == 1)
            await #expect {
                _ = try await client.copyPrefix(
                    bucket: Self.bucket,
                    prefix: "photos/x/",
                    sourceBucket: Self.bucket,
                    sourcePrefix: "photos/"
                )
            } throws: { error in
                (error as? ObjectStorageError)?.code == .invalidArgument
            }

            // Another server in another dialect: the bytes stream through this process.
            try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { other, _ in
                try await other.createBucket(bucket: "elsewhere")
                let streamed = try await other.copyPrefix(
                    bucket: "elsewhere",
                    from: client,
                    sourceBucket: Self.bucket,
                    sourcePrefix: "photos/",
                    options: Self.options(.s3)
                )
                #expect(streamed.transferred == files.count)
                let large = try await other.getObject(.init(bucket: "elsewhere", key: "z/large.bin"))
                #expect(try await large.body.collect(upTo: 1 << 24).bytes == files[Array("z/large.bin".utf8)])
            }
        }
    }

    @Test(
        "an object replaced after the listing is not moved stale: it fails, and a rerun moves the new bytes",
        arguments: ["download", "copy"]
    )
    func replacedAfterListing(_ job: String) async throws {
        let dialect = ClientDialect.s3
        let (root, _) = try Self.makeTree(dialect)
        let target = temporaryPath("replaced")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: target)
        }
        let replacement = testBytes(321, seed: 99)
        let replace = ReplaceBeforeFirstRequest(
            suffix: job == "download" ? "/tree/photos/many/9.bin" : "/mirror/backup/many/9.bin"
        )
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            let client = client.derived(transport: replace.transport)
            try await Self.uploadPhotos(root, client, dialect)
            replace.arm {
                try await client.putObject(
                    .init(bucket: Self.bucket, key: "photos/many/9.bin", body: .bytes(replacement))
                )
            }
            func run(_ events: EventLog) async throws -> DirectoryTransferSummary {
                if job == "download" {
                    return try await client.downloadDirectory(
                        bucket: Self.bucket,
                        prefix: "photos/",
                        to: target,
                        options: Self.options(dialect),
                        events: events.handler
                    )
                }
                return try await client.copyPrefix(
                    bucket: "mirror",
                    prefix: "backup/",
                    sourceBucket: Self.bucket,
                    sourcePrefix: "photos/",
                    options: Self.options(dialect),
                    events: events.handler
                )
            }
            func moved() async throws -> [UInt8]? {
                if job == "download" {
                    return FileManager.default.contents(atPath: target + "/many/9.bin").map(Array.init)
                }
                do {
                    let object = try await client.getObject(.init(bucket: "mirror", key: "backup/many/9.bin"))
                    return try await object.body.collect(upTo: 1 << 20).bytes
                } catch let error as ServiceError where error.code == .noSuchKey {
                    return nil  // not copied; any other failure is the test's
                }
            }
            let events = EventLog()
            let first = try await run(events)
            #expect(first.failed == 1)
            let failed = try #require(events.failed.first)
            #expect(failed.name == "many/9.bin")
            #expect((failed.error as? ServiceError)?.code == .preconditionFailed)
            #expect(try await moved() == nil)
            if job == "download" {
                // Neither the file nor its partial download (`9.bin.objstore-partial`) is left behind.
                let left = try FileManager.default.contentsOfDirectory(atPath: target + "/many")
                #expect(!left.isEmpty && !left.contains { $0.hasPrefix("9.bin") }, "\(left)")
            }

            let second = try await run(EventLog())
            #expect(second.failed == 0)
            #expect(try await moved() == replacement)
        }
    }

    @Test("a file that vanishes during the job is skipped, not failed")
    func vanishedFile() async throws {
        let dialect = ClientDialect.s3
        let (root, files) = try Self.makeTree(.ossV4)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.concurrency = 1
            let events = EventLog()
            // One object at a time, in key order: when the first file is done, 'empty' has been walked (it is in
            // the root directory) but not uploaded yet.
            let summary = try await client.uploadDirectory(root, bucket: Self.bucket, options: options) { event in
                events.handler(event)
                if case .transferred("a-b.txt", _) = event {
                    try? FileManager.default.removeItem(atPath: root + "/empty")
                }
            }
            #expect(summary.failed == 0)
            #expect(summary.transferred == files.count - 1)
            let skipped = events.skipped
            #expect(skipped.map(\.name).sorted() == ["empty", "link"])
            #expect(skipped.contains { $0.reason == "vanished during the job" })
        }
    }

    @Test("keys 'a' and 'a/b' cannot both be files: one is skipped, with the reason, whichever is in the way")
    func fileAndDirectoryOfOneName() async throws {
        let fileFirst = temporaryPath("file-first")
        let directoryFirst = temporaryPath("directory-first")
        defer {
            try? FileManager.default.removeItem(atPath: fileFirst)
            try? FileManager.default.removeItem(atPath: directoryFirst)
        }
        try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            for (key, bytes) in [("k/a", [1, 2]), ("k/a/b", [3, 4, 5]), ("k/c", [6])] as [(String, [UInt8])] {
                try await client.putObject(.init(bucket: Self.bucket, key: key, body: .bytes(bytes)))
            }
            var options = Self.options(.s3)
            options.concurrency = 1
            func download(
                to directory: String
            ) async throws -> (DirectoryTransferSummary, [(name: String, reason: String)]) {
                let events = EventLog()
                let summary = try await client.downloadDirectory(
                    bucket: Self.bucket,
                    prefix: "k/",
                    to: directory,
                    options: options,
                    events: events.handler
                )
                return (summary, events.skipped)
            }

            // In key order, one at a time: 'a' lands as a file, so 'a/b' has no directory to go to.
            for run in 1...2 {
                let (summary, skipped) = try await download(to: fileFirst)
                #expect(summary.failed == 0, "run \(run)")
                #expect(summary.skipped == 1, "run \(run)")
                #expect(skipped.map(\.name) == ["a/b"])
                #expect(skipped.first?.reason.contains("not a directory") == true)
            }
            #expect(FileManager.default.contents(atPath: fileFirst + "/a") == Data([1, 2]))
            #expect(FileManager.default.contents(atPath: fileFirst + "/c") == Data([6]))

            // A directory 'a' already there: the object 'a' is the one skipped.
            try FileManager.default.createDirectory(atPath: directoryFirst + "/a", withIntermediateDirectories: true)
            let (summary, skipped) = try await download(to: directoryFirst)
            #expect(summary.failed == 0)
            #expect(summary.transferred == 2)
            #expect(skipped.map(\.name) == ["a"])
            #expect(skipped.first?.reason.contains("is a directory") == true)
            #expect(FileManager.default.contents(atPath: directoryFirst + "/a/b") == Data([3, 4, 5]))
        }
    }

    @Test("followed symbolic links: a link to a file uploads its target, a loop back up is skipped and reported")
    func followedLinksAndLoops() async throws {
        let dialect = ClientDialect.obs
        let (root, files) = try Self.makeTree(dialect)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createSymbolicLink(atPath: root + "/a/b/up", withDestinationPath: root + "/a")
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.followsSymbolicLinks = true
            let events = EventLog()
            let summary = try await client.uploadDirectory(
                root,
                bucket: Self.bucket,
                options: options,
                events: events.handler
            )
            #expect(summary.transferred == files.count + 1)
            let skipped = events.skipped
            #expect(skipped.map(\.name) == ["a/b/up/"])
            #expect(skipped.first?.reason.contains("symbolic link back") == true)
            let link = try await client.getObject(.init(bucket: Self.bucket, key: "link"))
            #expect(try await link.body.collect(upTo: 100).bytes == files[Array("a.txt".utf8)])
        }
    }

    @Test("excludes and includes filter by relative name")
    func filters() async throws {
        let dialect = ClientDialect.obs
        let (root, _) = try Self.makeTree(dialect)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            var options = Self.options(dialect)
            options.excludes = ["*"]
            options.includes = ["*.txt"]
            _ = try await client.uploadDirectory(root, bucket: Self.bucket, options: options)
            let keys = try await Self.remoteKeys(client)
            let expected = ["a-b.txt", "a.txt", "a/b/c.txt", "cafe\u{301}.txt", "caf\u{E9}.txt"]
            #expect(keys.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
        }
    }
}

/// Runs an armed action once, before the first request whose URL ends with `suffix` goes out.
final class ReplaceBeforeFirstRequest: Sendable {
    let suffix: String
    private let action = Mutex<(@Sendable () async throws -> Void)?>(nil)

    init(suffix: String) { self.suffix = suffix }

    func arm(_ action: @escaping @Sendable () async throws -> Void) { self.action.withLock { $0 = action } }

    var transport: @Sendable (any HTTPTransport) -> any HTTPTransport {
        { base in
            RecordingTransport(base: base) { request in
                if request.url.hasSuffix(self.suffix), let action = self.action.withLock({ $0.take() }) {
                    try await action()
                }
            }
        }
    }
}

/// Collects a directory job's events.
final class EventLog: Sendable {
    private let events = Mutex<[DirectoryTransferEvent]>([])
    var all: [DirectoryTransferEvent] { events.withLock { $0 } }
    var handler: @Sendable (DirectoryTransferEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

    /// The names transferred, in order.
    var transferred: [String] {
        all.compactMap { if case .transferred(let name, _) = $0 { name } else { nil } }
    }
    /// The names deleted, in order.
    var deleted: [String] {
        all.compactMap { if case .deleted(let name) = $0 { name } else { nil } }
    }
    /// The names skipped, with their reasons.
    var skipped: [(name: String, reason: String)] {
        all.compactMap { if case .skipped(let name, let reason) = $0 { (name, reason) } else { nil } }
    }
    /// The transfers and deletions that failed.
    var failed: [(name: String, error: any Error)] {
        all.compactMap {
            switch $0 {
            case .transferFailed(let name, let error), .deletionFailed(let name, let error): (name, error)
            default: nil
            }
        }
    }
    /// The progress events' counts.
    var progress: [(objectsDone: Int, objectsFound: Int, bytesTransferred: Int64, isListingComplete: Bool)] {
        all.compactMap {
            if case .progress(let done, let found, let bytes, let complete) = $0 {
                (done, found, bytes, complete)
            } else {
                nil
            }
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageTestSupport
import Testing

/// Whoever can create a file beside the user's files (a shared folder, a CI workspace) plants a symbolic link at a
/// name a transfer is about to use, pointing at a file outside: the transfer must never write, truncate or delete
/// through it. Each case plants a link to `victim`, runs one write path, and checks that `victim` still holds its
/// bytes.
@Suite("Links planted beside the user's files", .timeLimit(.minutes(2)))
struct PlantedLinkTests {
    static let victimBytes = Data("the victim's own bytes, never to be replaced\n".utf8)

    /// A scratch directory (where the transfer writes) and, outside it, the victim file.
    struct Place {
        let scratch: Scratch
        let outside: Scratch

        init() throws {
            scratch = try Scratch()
            outside = try Scratch()
            try PlantedLinkTests.victimBytes.write(to: URL(fileURLWithPath: victim))
        }

        var victim: String { outside.file("victim") }
        var victimIsIntact: Bool { FileManager.default.contents(atPath: victim) == PlantedLinkTests.victimBytes }

        /// Plants `name` (in the scratch directory) as a symbolic link to the victim.
        func plant(_ name: String) throws {
            try FileManager.default.createSymbolicLink(atPath: scratch.file(name), withDestinationPath: victim)
        }

        /// Whether `path` is a regular file (not a link) holding `bytes`.
        func holds(_ path: String, _ bytes: [UInt8]) -> Bool {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
            return FileManager.default.contents(atPath: path) == Data(bytes)
        }
    }

    static var checkpointed: TransferOptions {
        var options = TransferOptions(enableCheckpoint: true)
        options.partSize = 256 << 10
        return options
    }

    static func isUnsafePath(_ error: any Error) -> Bool {
        (error as? ObjectStorageError)?.code == .unsafePath
    }

    // MARK: Downloads

    @Test("a download's temp file, checkpoint or destination planted as a link is replaced, never written through")
    func downloadReplacesPlantedFiles() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            for planted in ["dest.part", "dest.dcp", "dest"] {
                let place = try Place()
                try place.plant(planted)
                _ = try await client.resumableDownload(
                    bucket: "bkt",
                    key: "obj",
                    to: place.scratch.file("dest"),
                    options: Self.checkpointed
                )
                #expect(place.victimIsIntact, "through \(planted)")
                #expect(place.holds(place.scratch.file("dest"), ServerFixture.objectBytes), "through \(planted)")
                #expect(place.scratch.listing() == ["dest", "existing.bin"], "through \(planted)")
            }
            let place = try Place()
            try place.plant("file")
            try await client.getObject(GetObjectRequest(bucket: "bkt", key: "obj"), toFile: place.scratch.file("file"))
            #expect(place.victimIsIntact)
            #expect(place.holds(place.scratch.file("file"), ServerFixture.objectBytes))
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("a checkpoint's lock planted as a link is refused and the file it points to is not truncated")
    func plantedLocksAreRefused() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            let download = try Place()
            try download.plant("dest.dcp.lock")
            await #expect(
                performing: {
                    try await client.resumableDownload(
                        bucket: "bkt",
                        key: "obj",
                        to: download.scratch.file("dest"),
                        options: Self.checkpointed
                    )
                },
                throws: Self.isUnsafePath
            )
            #expect(download.victimIsIntact)
            #expect(!FileManager.default.fileExists(atPath: download.scratch.file("dest")))

            let upload = try Place()
            try Data(ServerFixture.objectBytes).write(to: URL(fileURLWithPath: upload.scratch.file("source")))
            try upload.plant("source.ucp.lock")
            var multipart = Self.checkpointed
            multipart.forceMultipart = true
            await #expect(
                performing: {
                    try await fixture.client(.oss).uploadFile(
                        from: upload.scratch.file("source"),
                        bucket: "bkt",
                        key: "uploaded",
                        options: multipart
                    )
                },
                throws: Self.isUnsafePath
            )
            #expect(upload.victimIsIntact)

            // A hard link to the victim at the lock's name is refused too (the victim has two names then).
            let hard = try Place()
            try FileManager.default.linkItem(atPath: hard.victim, toPath: hard.scratch.file("dest.dcp.lock"))
            await #expect(
                performing: {
                    try await client.resumableDownload(
                        bucket: "bkt",
                        key: "obj",
                        to: hard.scratch.file("dest"),
                        options: Self.checkpointed
                    )
                },
                throws: Self.isUnsafePath
            )
            #expect(hard.victimIsIntact)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("an upload's checkpoint planted as a link is replaced by the real one, never written through")
    func uploadCheckpointReplacesLink() async throws {
        let fixture = try await ServerFixture.start()
        do {
            // OSS: parts of 256 KiB are allowed there (S3 wants 5 MiB).
            let client = try fixture.client(.oss)
            let place = try Place()
            let source = place.scratch.file("source")
            let bytes = generatedBytes(count: 600 << 10) { UInt8(truncatingIfNeeded: $0 &* 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: source))
            try place.plant("source.ucp")
            var options = Self.checkpointed
            options.forceMultipart = true
            _ = try await client.uploadFile(from: source, bucket: "bkt", key: "up", options: options)
            #expect(place.victimIsIntact)
            let stored = try await client.getObject(GetObjectRequest(bucket: "bkt", key: "up")).body.collect(
                upTo: 1 << 20
            )
            #expect(Array(buffer: stored) == bytes)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("a copy's checkpoint or its lock planted as a link is never written through")
    func copyCheckpoint() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.oss)
            let bytes = generatedBytes(count: 600 << 10) { UInt8(truncatingIfNeeded: $0 &* 5) }
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: "big", body: .bytes(bytes)))
            var options = Self.checkpointed
            options.forceMultipart = true
            let place = try Place()
            options.checkpointFilePath = place.scratch.file("copy.ccp")
            try place.plant("copy.ccp")
            _ = try await client.resumableCopy(
                bucket: "bkt",
                key: "copied",
                sourceBucket: "bkt",
                sourceKey: "big",
                options: options
            )
            #expect(place.victimIsIntact)
            try place.plant("copy.ccp.lock")
            await #expect(
                performing: {
                    try await client.resumableCopy(
                        bucket: "bkt",
                        key: "copied-again",
                        sourceBucket: "bkt",
                        sourceKey: "big",
                        options: options
                    )
                },
                throws: Self.isUnsafePath
            )
            #expect(place.victimIsIntact)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("objstore cp URL FILE with a link planted at FILE.part exits 0 and leaves the file outside alone")
    func commandLineDownload() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let place = try Place()
            try place.plant("big.part")
            let result = try await CLIProcess.run(
                ["cp", "s3://bkt/obj", place.scratch.file("big"), "--endpoint", fixture.endpoint],
                environment: CLIProcess.isolatedEnvironment(TestSecrets.s3Environment)
            )
            #expect(result.status == 0, "\(result.standardError)")
            #expect(place.victimIsIntact)
            #expect(place.holds(place.scratch.file("big"), ServerFixture.objectBytes))

            try place.plant("big.dcp.lock")
            let refused = try await CLIProcess.run(
                ["cp", "s3://bkt/obj", place.scratch.file("big"), "--endpoint", fixture.endpoint],
                environment: CLIProcess.isolatedEnvironment(TestSecrets.s3Environment)
            )
            #expect(refused.status != 0)
            #expect(refused.standardError.contains("is a symbolic link"), "\(refused.standardError)")
            #expect(place.victimIsIntact)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    // MARK: Directory jobs

    @Test("a directory download replaces links planted at its temporary names and never writes through them")
    func directoryDownloadTemporaryNames() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            let small = Array("small object".utf8)
            let large = generatedBytes(count: 300 << 10) { UInt8(truncatingIfNeeded: $0 &* 13) }
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: "tree/small", body: .bytes(small)))
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: "tree/sub/large", body: .bytes(large)))
            let place = try Place()
            let directory = place.scratch.file("out")
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
            try place.plant("out/small.objstore-partial")
            try place.plant("out/sub/large.part")
            var options = DirectoryTransferOptions()
            options.largeObjectThreshold = 100 << 10
            options.manifestPath = place.scratch.file("job.manifest")
            let summary = try await client.downloadDirectory(
                bucket: "bkt",
                prefix: "tree/",
                to: directory,
                options: options
            )
            #expect(summary.transferred == 2)
            #expect(place.victimIsIntact)
            #expect(place.holds(directory + "/small", small))
            #expect(place.holds(directory + "/sub/large", large))
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("a directory job's manifest, or its lock, planted as a link is refused")
    func plantedManifest() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            for planted in ["job.manifest", "job.manifest.lock"] {
                let place = try Place()
                try place.plant(planted)
                var options = DirectoryTransferOptions()
                options.manifestPath = place.scratch.file("job.manifest")
                await #expect(
                    performing: {
                        try await client.downloadDirectory(
                            bucket: "bkt",
                            to: place.scratch.file("out"),
                            options: options
                        )
                    },
                    throws: Self.isUnsafePath
                )
                #expect(place.victimIsIntact, "through \(planted)")
            }
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    @Test("sync --delete never deletes through a link in the destination, even with --follow-symlinks")
    func syncDeleteStaysInside() async throws {
        let fixture = try await ServerFixture.start()
        do {
            let client = try fixture.client(.s3)
            try await client.putObject(PutObjectRequest(bucket: "bkt", key: "mirror/kept", body: .bytes([1, 2, 3])))
            let place = try Place()
            let directory = place.scratch.file("dir")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for name in ["a", "b", "c"] {
                try Data(name.utf8).write(to: URL(fileURLWithPath: place.outside.file(name)))
            }
            try Data("stale".utf8).write(to: URL(fileURLWithPath: directory + "/stale"))
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/linkdir",
                withDestinationPath: place.outside.path
            )
            let result = try await CLIProcess.run(
                [
                    "sync", "s3://bkt/mirror", directory, "--delete", "--follow-symlinks", "--endpoint",
                    fixture.endpoint,
                ],
                environment: CLIProcess.isolatedEnvironment(TestSecrets.s3Environment)
            )
            #expect(result.status == 0, "\(result.standardError)")
            #expect(place.outside.listing() == ["a", "b", "c", "existing.bin", "victim"])
            #expect(place.outside.existingIsIntact && place.victimIsIntact)
            #expect(!FileManager.default.fileExists(atPath: directory + "/stale"), "the real extraneous file goes")
            #expect(place.holds(directory + "/kept", [1, 2, 3]))
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }

    // MARK: The directory handle itself

    @Test("a directory swapped for a link after it was opened redirects nothing")
    func swappedDirectory() throws {
        let place = try Place()
        let root = try DirectoryHandle.open(place.scratch.path)
        let held = try root.descend(["a", "b"], creating: true)
        // Swap: move the real directory away and put a link to the outside where it was.
        try FileManager.default.moveItem(atPath: place.scratch.file("a"), toPath: place.scratch.file("moved"))
        try FileManager.default.createSymbolicLink(
            atPath: place.scratch.file("a"),
            withDestinationPath: place.outside.path
        )
        let descriptor = try held.createFile("victim", flags: O_WRONLY, mode: 0o644)
        close(descriptor)
        #expect(place.victimIsIntact)
        #expect(FileManager.default.fileExists(atPath: place.scratch.file("moved/b/victim")))
        // A fresh walk from the root refuses the link.
        #expect(throws: CheckpointError.self) { try root.descend(["a", "b"], creating: false) }
        #expect(held.remove("victim") == nil)
        #expect(place.victimIsIntact)
    }
}

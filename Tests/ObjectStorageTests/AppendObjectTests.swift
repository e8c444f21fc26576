//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Appends against the local server in the dialects that have them (OSS, OBS), S3's refusal, and the writer's
/// settling of a lost answer: applied (the length and CRC-64 match), not applied (sent again), and another writer's
/// append of the same length in between (a conflict, which a check of the length alone would take for success).
@Suite("Appends")
struct AppendObjectTests {
    static let bucket = "appends"
    static let dialects: [ClientDialect] = [.ossV4, .ossV1, .obs]

    static func text(_ client: ObjectStorageClient, _ key: String) async throws -> String {
        let object = try await client.getObject(GetObjectRequest(bucket: Self.bucket, key: key))
        let body = try await object.body.collect(upTo: 1 << 20)
        return String(decoding: body.readableBytesView, as: UTF8.self)
    }

    static func bytes(_ text: String) -> UploadBody { .bytes(Array(text.utf8)) }

    static func withServer(
        _ dialect: ClientDialect,
        faults: FaultInjector = FaultInjector(),
        _ body: (ObjectStorageClient) async throws -> Void
    ) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            faults: faults,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: Self.bucket)
            try await body(client)
        }
    }

    @Test("appends of bytes and a file region make one object, whose CRC-64 the answers report", arguments: dialects)
    func appendsMakeOneObject(_ dialect: ClientDialect) async throws {
        try await Self.withServer(dialect) { client in
            let first = try await client.appendObject(
                bucket: Self.bucket,
                key: "log",
                position: 0,
                body: Self.bytes("hello ")
            )
            #expect(first.nextPosition == 6 && !first.recovered)
            let path = try UploadFileFixture.makeFile(Array("--world--".utf8), name: "append-region")
            defer { UploadFileFixture.cleanUp(path) }
            let second = try await client.appendObject(
                bucket: Self.bucket,
                key: "log",
                position: 6,
                body: .file(path: path, offset: 2, length: 5)
            )
            #expect(second.nextPosition == 11)
            if dialect.provider == .oss {
                #expect(first.crc64 == CRC64.checksum(Array("hello ".utf8)))
                #expect(second.crc64 == CRC64.checksum(Array("hello world".utf8)))
            } else {
                #expect(second.crc64 == nil)
            }
            #expect(try await Self.text(client, "log") == "hello world")
            let head = try await client.headObject(bucket: Self.bucket, key: "log")
            let prefix = dialect.provider == .oss ? "x-oss-" : "x-obs-"
            #expect(head.headers.first { $0.name.lowercased() == prefix + "object-type" }?.value == "Appendable")
        }
    }

    @Test("an append at the wrong position gets the service's error with the position it expected", arguments: dialects)
    func wrongPosition(_ dialect: ClientDialect) async throws {
        try await Self.withServer(dialect) { client in
            _ = try await client.appendObject(bucket: Self.bucket, key: "log", position: 0, body: Self.bytes("abc"))
            let stale = await #expect(throws: ServiceError.self) {
                try await client.appendObject(bucket: Self.bucket, key: "log", position: 1, body: Self.bytes("d"))
            }
            #expect(stale?.code == .positionNotEqualToLength && stale?.statusCode == 409)
            #expect(stale?.nextAppendPosition == 3)
            #expect(stale.map { "\($0)" }?.contains("next append position 3") == true)
            let absent = await #expect(throws: ServiceError.self) {
                try await client.appendObject(bucket: Self.bucket, key: "absent", position: 5, body: Self.bytes("d"))
            }
            #expect(absent?.nextAppendPosition == 0)

            try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: "normal", body: Self.bytes("x")))
            let normal = await #expect(throws: ServiceError.self) {
                try await client.appendObject(bucket: Self.bucket, key: "normal", position: 1, body: Self.bytes("y"))
            }
            #expect(normal?.code == .objectNotAppendable)
            // A PUT over an appendable object makes a normal one.
            try await client.putObject(PutObjectRequest(bucket: Self.bucket, key: "log", body: Self.bytes("new")))
            let replaced = await #expect(throws: ServiceError.self) {
                try await client.appendObject(bucket: Self.bucket, key: "log", position: 3, body: Self.bytes("z"))
            }
            #expect(replaced?.code == .objectNotAppendable)
            #expect(try await Self.text(client, "log") == "new")
        }
    }

    @Test("S3 has no append, OBS and S3 no symlinks: refused in a sentence before anything is sent")
    func unsupportedWhereAbsent() async throws {
        try await Self.withServer(.s3) { client in
            for call in [
                {
                    _ = try await client.appendObject(bucket: Self.bucket, key: "k", position: 0, body: Self.bytes("a"))
                },
                { _ = try await client.appendWriter(bucket: Self.bucket, key: "k") },
                { _ = try await client.putSymlink(bucket: Self.bucket, key: "k", target: "t") },
            ] as [() async throws -> Void] {
                let error = await #expect(throws: ObjectStorageError.self) { try await call() }
                #expect(error?.code == .unsupported, "\(String(describing: error))")
            }
            let error = await #expect(throws: ObjectStorageError.self) {
                var writer = AppendWriter(client: client, bucket: Self.bucket, key: "k")
                try await writer.append(Self.bytes("a"))
            }
            #expect(error?.message.contains("S3 has no AppendObject") == true)
            await #expect(throws: ServiceError.self) { _ = try await client.headObject(bucket: Self.bucket, key: "k") }
        }
        try await Self.withServer(.obs) { client in
            let error = await #expect(throws: ObjectStorageError.self) {
                try await client.getSymlink(bucket: Self.bucket, key: "k")
            }
            #expect(error?.code == .unsupported && error?.message.contains("OBS has no GetSymlink") == true)
        }
    }

    @Test("a writer goes on from an object's length, and its CRC-64 is the object's", arguments: dialects)
    func writerContinues(_ dialect: ClientDialect) async throws {
        try await Self.withServer(dialect) { client in
            var writer = try await client.appendWriter(bucket: Self.bucket, key: "log")
            writer.attributes.contentType = "text/plain"
            #expect(writer.position == 0)
            try await writer.append(Self.bytes("one\n"))
            try await writer.append(Self.bytes("two\n"))
            var reopened = try await client.appendWriter(bucket: Self.bucket, key: "log")
            #expect(reopened.position == 8)
            #expect(reopened.crc64 == (dialect.provider == .oss ? CRC64.checksum(Array("one\ntwo\n".utf8)) : nil))
            try await reopened.append(Self.bytes("three\n"))
            #expect(writer.crc64 == CRC64.checksum(Array("one\ntwo\n".utf8)))
            #expect(try await Self.text(client, "log") == "one\ntwo\nthree\n")
            #expect(try await client.headObject(bucket: Self.bucket, key: "log").contentType == "text/plain")
            // The first writer is behind now: the service says where the object ends.
            let behind = await #expect(throws: ServiceError.self) { try await writer.append(Self.bytes("four\n")) }
            #expect(behind?.nextAppendPosition == 14)
        }
    }

    @Test(
        "append with a lost response: the writer finds it applied by length and CRC-64 and writes nothing twice",
        arguments: dialects
    )
    func lostResponseApplied(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: ["AppendObject"], trigger: .nth(2), fault: .dropResponse))
        try await Self.withServer(dialect, faults: faults) { client in
            var writer = AppendWriter(client: client, bucket: Self.bucket, key: "log")
            try await writer.append(Self.bytes("hello "))
            let lost = try await writer.append(Self.bytes("world"))
            #expect(lost.recovered && lost.nextPosition == 11 && writer.position == 11)
            #expect(lost.crc64 == (dialect.provider == .oss ? CRC64.checksum(Array("hello world".utf8)) : nil))
            try await writer.append(Self.bytes("!"))
            #expect(try await Self.text(client, "log") == "hello world!")
        }
    }

    @Test(
        "a lost answer after which another writer appended: the appended range read back proves this append",
        arguments: dialects
    )
    func lostResponseThenAnotherAppend(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: ["AppendObject"], trigger: .nth(2), fault: .dropResponse))
        faults.add(
            FaultRule(
                operations: ["HeadObject"],
                trigger: .nth(1),
                fault: .replaceContent(with: Array("hello world, and more".utf8))
            )
        )
        try await Self.withServer(dialect, faults: faults) { client in
            var writer = AppendWriter(client: client, bucket: Self.bucket, key: "log")
            try await writer.append(Self.bytes("hello "))
            let lost = try await writer.append(Self.bytes("world"))
            #expect(lost.recovered && lost.nextPosition == 11 && lost.crc64 == nil)
            let behind = await #expect(throws: ServiceError.self) { try await writer.append(Self.bytes("!")) }
            #expect(behind?.nextAppendPosition == 21)
        }
    }

    @Test(
        "append with a lost request: the object still ends where it did, and the writer sends it again",
        arguments: dialects
    )
    func lostRequestSentAgain(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        faults.add(
            FaultRule(operations: ["AppendObject"], trigger: .nth(2), fault: .closeConnection(afterBodyBytes: 0))
        )
        try await Self.withServer(dialect, faults: faults) { client in
            var writer = AppendWriter(client: client, bucket: Self.bucket, key: "log")
            try await writer.append(Self.bytes("hello "))
            let sent = try await writer.append(Self.bytes("world"))
            #expect(!sent.recovered && sent.nextPosition == 11)
            #expect(try await Self.text(client, "log") == "hello world")
        }
    }

    @Test(
        "another writer's append of the same length between the loss and the check is a conflict, not a success",
        arguments: dialects
    )
    func sameLengthWriterIsAConflict(_ dialect: ClientDialect) async throws {
        let faults = FaultInjector()
        // The writer's second append is lost before the service applies it; before the writer's HEAD, another writer
        // makes the object what an append of "BBBBB" at the same position makes it: the length the writer expects.
        faults.add(
            FaultRule(operations: ["AppendObject"], trigger: .nth(2), fault: .closeConnection(afterBodyBytes: 0))
        )
        faults.add(
            FaultRule(
                operations: ["HeadObject"],
                trigger: .nth(1),
                fault: .replaceContent(with: Array("hello BBBBB".utf8))
            )
        )
        try await Self.withServer(dialect, faults: faults) { client in
            var writer = AppendWriter(client: client, bucket: Self.bucket, key: "log")
            try await writer.append(Self.bytes("hello "))
            let conflict = await #expect(throws: ObjectStorageError.self) {
                try await writer.append(Self.bytes("world"))
            }
            #expect(conflict?.code == .appendConflict, "\(String(describing: conflict))")
            #expect(conflict?.message.contains("another writer changed the object") == true)
            #expect(writer.position == 6)
            // Exactly the length a check of the length alone would have taken for this writer's append.
            #expect(try await client.headObject(bucket: Self.bucket, key: "log").contentLength == 11)
            #expect(try await Self.text(client, "log") == "hello BBBBB")
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageSigning

/// The bad-input table: every case names its input and the typed outcome expected.
extension BadInputCase {
    static let all: [BadInputCase] =
        partSizes + concurrency + ranges + bucketNames + keys + presign + credentials
        + endpoints + paths

    // MARK: Part sizes

    static let partSizes: [BadInputCase] = [
        .api("upload part size 0", .storage(.invalidArgument, mentions: "part size 0")) { context in
            var options = TransferOptions()
            options.partSize = 0
            _ = try await context.client(.s3).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "up",
                options: options
            )
        },
        .api("upload part size -1", .storage(.invalidArgument, mentions: "part size -1")) { context in
            var options = TransferOptions()
            options.partSize = -1
            _ = try await context.client(.oss).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "up",
                options: options
            )
        },
        .api("download part size 0", .storage(.invalidArgument, mentions: "part size")) { context in
            var options = TransferOptions()
            options.partSize = 0
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .api("download part size -8", .storage(.invalidArgument, mentions: "part size")) { context in
            var options = TransferOptions()
            options.partSize = -8
            _ = try await context.client(.obs).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .api("OSS part size 1 byte is clamped to 100 KiB", .warning(mentions: "outside")) { context in
            var options = TransferOptions()
            options.partSize = 1
            let result = try await context.client(.oss).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "clamped",
                options: options
            )
            guard result.partSize == 100 * 1024 else { throw ObjectStorageError.invalidResponse("not clamped") }
        },
        .api("S3 part size 1 MiB is clamped to 5 MiB", .warning(mentions: "outside")) { context in
            var options = TransferOptions()
            options.partSize = 1 << 20
            options.forceMultipart = true
            let result = try await context.client(.s3).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "clamped",
                options: options
            )
            guard result.partSize == 5 << 20 else { throw ObjectStorageError.invalidResponse("not clamped") }
        },
        .api("OBS part size 6 GiB is clamped to 5 GiB", .warning(mentions: "outside")) { context in
            var options = TransferOptions()
            options.partSize = 6 << 30
            let result = try await context.client(.obs).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "clamped",
                options: options
            )
            guard result.partSize == 5 << 30 || !result.isMultipart else {
                throw ObjectStorageError.invalidResponse("not clamped")
            }
        },
        .cli("cp --part-size 6G to S3 is clamped with a warning", .exit(0, mentions: "outside")) { context in
            ["cp", context.source, "s3://bkt/clamped-6g", "--part-size", "6G"] + context.remote()
        },
        .cli("cp --part-size 0", .exit(64, mentions: "--part-size")) { context in
            ["cp", context.source, "s3://bkt/up", "--part-size", "0"] + context.remote()
        },
        .cli("cp --part-size=-1", .exit(64, mentions: "--part-size")) { context in
            ["cp", context.source, "s3://bkt/up", "--part-size=-1"] + context.remote()
        },
        .cli("cp --part-size abc", .exit(64, mentions: "--part-size")) { context in
            ["cp", "s3://bkt/obj", context.scratch.existing, "--part-size", "abc"] + context.remote()
        },
        .cli(
            "cp --part-size 1K to OSS is clamped with a warning",
            .exit(0, mentions: "outside"),
            environment: TestSecrets.ossEnvironment
        ) { context in
            ["cp", context.source, "oss://bkt/clamped", "--part-size", "1K"] + context.remote(.oss)
        },
    ]

    // MARK: Concurrency

    static let concurrency: [BadInputCase] = [
        .api("upload concurrency 0", .storage(.invalidArgument, mentions: "concurrency 0")) { context in
            var options = TransferOptions()
            options.concurrency = 0
            _ = try await context.client(.s3).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "up",
                options: options
            )
        },
        .api("upload concurrency 10,000", .storage(.invalidArgument, mentions: "concurrency 10000")) { context in
            var options = TransferOptions()
            options.concurrency = 10_000
            _ = try await context.client(.s3).uploadFile(
                from: context.source,
                bucket: "bkt",
                key: "up",
                options: options
            )
        },
        .api("download concurrency 0", .storage(.invalidArgument, mentions: "concurrency")) { context in
            var options = TransferOptions()
            options.concurrency = 0
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .api("download concurrency 10,000", .storage(.invalidArgument, mentions: "concurrency")) { context in
            var options = TransferOptions()
            options.concurrency = 10_000
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .cli("cp --concurrency 0", .exit(64, mentions: "--concurrency")) { context in
            ["cp", "s3://bkt/obj", context.scratch.existing, "--concurrency", "0"] + context.remote()
        },
        .cli("cp --concurrency 10000", .exit(64, mentions: "--concurrency")) { context in
            ["cp", context.source, "s3://bkt/up", "--concurrency", "10000"] + context.remote()
        },
    ]

    // MARK: Ranges

    static let ranges: [BadInputCase] = [
        .api("range reversed (10-2)", .storage(.invalidArgument, mentions: "before the first")) { context in
            var request = GetObjectRequest(bucket: "bkt", key: "obj")
            request.range = try .bytes(first: 10, last: 2)
            _ = try await context.client(.s3).getObject(request)
        },
        .api("range with a negative first byte", .storage(.invalidArgument, mentions: "negative")) { context in
            var request = GetObjectRequest(bucket: "bkt", key: "obj")
            request.range = .bytes(-5...10)
            _ = try await context.client(.s3).getObject(request)
        },
        .api("range from a negative offset", .storage(.invalidArgument, mentions: "negative")) { context in
            var request = GetObjectRequest(bucket: "bkt", key: "obj")
            request.range = .from(-1)
            _ = try await context.client(.obs).getObject(request)
        },
        .api("empty suffix range", .storage(.invalidArgument, mentions: "suffix")) { context in
            var request = GetObjectRequest(bucket: "bkt", key: "obj")
            request.range = .suffix(0)
            _ = try await context.client(.s3).getObject(request)
        },
        .api("an append at the wrong position", .service(.positionNotEqualToLength, status: 409)) { context in
            let client = try context.client(.oss)
            let key = "appended-\(UInt32.random(in: 0...UInt32.max))"
            _ = try await client.appendObject(bucket: "bkt", key: key, position: 0, body: .bytes(Array("abc".utf8)))
            _ = try await client.appendObject(bucket: "bkt", key: key, position: 1, body: .bytes(Array("d".utf8)))
        },
        .api("an append on S3", .storage(.unsupported, mentions: "S3 has no AppendObject")) { context in
            _ = try await context.client(.s3).appendObject(bucket: "bkt", key: "log", position: 0, body: .empty)
        },
        .api("range beyond the object (GET)", .service(.invalidRange, status: 416)) { context in
            var request = GetObjectRequest(bucket: "bkt", key: "obj")
            request.range = .bytes(5000...6000)
            _ = try await context.client(.s3).getObject(request)
        },
        .api("range beyond the object (resumable download)", .storage(.invalidArgument, mentions: "outside the object"))
        {
            context in
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                range: .bytes(5000...6000),
                to: context.scratch.existing
            )
        },
        .api("negative range (resumable download)", .storage(.invalidArgument, mentions: "negative")) { context in
            _ = try await context.client(.oss).resumableDownload(
                bucket: "bkt",
                key: "obj",
                range: .from(-3),
                to: context.scratch.existing
            )
        },
        .cli("cat --range 9-2 (reversed)", .exit(64, mentions: "--range")) { context in
            ["cat", "s3://bkt/obj", "--range", "9-2"] + context.remote()
        },
        .cli("cat --range=-0", .exit(64, mentions: "--range")) { context in
            ["cat", "s3://bkt/obj", "--range=-0"] + context.remote()
        },
        .cli("cat --range beyond the object", .exit(1, mentions: "InvalidRange")) { context in
            ["cat", "s3://bkt/obj", "--range", "5000-6000"] + context.remote()
        },
    ]

    // MARK: Bucket names

    static let bucketNames: [BadInputCase] = [
        .api("S3 bucket 'ab' (too short)", .storage(.invalidArgument, mentions: "3 to 63")) { context in
            try await context.client(.s3).createBucket(bucket: "ab")
        },
        // The message quotes the name with its right-to-left override escaped, so it cannot reorder the message.
        .api("S3 bucket with U+202E", .storage(.invalidArgument, mentions: #"'ab\u{202E}c'"#)) { context in
            try await context.client(.s3).createBucket(bucket: "ab\u{202E}c")
        },
        .api("S3 bucket 'My_Bucket'", .storage(.invalidArgument, mentions: "lowercase")) { context in
            try await context.client(.s3).createBucket(bucket: "My_Bucket")
        },
        .api("S3 bucket 'a..b'", .storage(.invalidArgument, mentions: "'..'")) { context in
            try await context.client(.s3).createBucket(bucket: "a..b")
        },
        .api("S3 bucket 'xn--bucket' (reserved prefix)", .storage(.invalidArgument, mentions: "reserved")) { context in
            try await context.client(.s3).createBucket(bucket: "xn--bucket")
        },
        .api("OSS bucket 'my.bucket' (no dots)", .storage(.invalidArgument, mentions: "lowercase")) { context in
            try await context.client(.oss).createBucket(bucket: "my.bucket")
        },
        .api("OSS bucket '-bucket'", .storage(.invalidArgument, mentions: "start and end")) { context in
            try await context.client(.oss).createBucket(bucket: "-bucket")
        },
        .api("OSS bucket of 64 characters", .storage(.invalidArgument, mentions: "3 to 63")) { context in
            try await context.client(.oss).createBucket(bucket: String(repeating: "a", count: 64))
        },
        .api("OBS bucket '192.168.1.1'", .storage(.invalidArgument, mentions: "IP address")) { context in
            try await context.client(.obs).createBucket(bucket: "192.168.1.1")
        },
        .api("OBS bucket 'my-.bucket'", .storage(.invalidArgument, mentions: "next to")) { context in
            try await context.client(.obs).createBucket(bucket: "my-.bucket")
        },
        .api("bucket '..' in a GET (path traversal)", .storage(.invalidArgument, mentions: "'..'")) { context in
            _ = try await context.client(.s3).getObject(GetObjectRequest(bucket: "..", key: "etc/passwd"))
        },
        .api("bucket 'a/b' in a listing", .storage(.invalidArgument, mentions: "'/'")) { context in
            for try await _ in try context.client(.s3).listObjects(bucket: "a/b") {}
        },
        .cli("mb s3://My_Bucket", .exit(65, mentions: "lowercase")) { context in
            ["mb", "s3://My_Bucket"] + context.remote()
        },
        .cli("mb oss://my.bucket", .exit(65, mentions: "lowercase"), environment: TestSecrets.ossEnvironment) {
            context in
            ["mb", "oss://my.bucket"] + context.remote(.oss)
        },
        .cli(
            "mb obs://ab",
            .exit(65, mentions: "3 to 63"),
            environment: ["OBS_ACCESS_KEY_ID": TestSecrets.accessKeyID, "OBS_SECRET_ACCESS_KEY": TestSecrets.secret]
        ) {
            context in
            ["mb", "obs://ab", "--endpoint", context.fixture.endpoint]
        },
    ]

    // MARK: Keys

    static let keys: [BadInputCase] = [
        .api("empty key (PUT)", .storage(.invalidArgument, mentions: "empty")) { context in
            _ = try await context.client(.s3).putObject(PutObjectRequest(bucket: "bkt", key: "", body: .bytes([1])))
        },
        .api("empty key (uploadFile)", .storage(.invalidArgument, mentions: "empty")) { context in
            _ = try await context.client(.oss).uploadFile(from: context.source, bucket: "bkt", key: "")
        },
        .api("OSS key of 1,024 bytes", .storage(.invalidArgument, mentions: "1024 UTF-8 bytes")) { context in
            let key = String(repeating: "k", count: 1024)
            _ = try await context.client(.oss).putObject(PutObjectRequest(bucket: "bkt", key: key, body: .bytes([1])))
        },
        .api("S3 key of 1,025 bytes (512 two-byte characters + 1)", .storage(.invalidArgument, mentions: "1025")) {
            context in
            let key = String(repeating: "é", count: 512) + "k"
            _ = try await context.client(.s3).putObject(PutObjectRequest(bucket: "bkt", key: key, body: .bytes([1])))
        },
        .api("key with NUL", .storage(.invalidArgument, mentions: "NUL")) { context in
            _ = try await context.client(.s3).getObject(GetObjectRequest(bucket: "bkt", key: "obj\u{0}.txt"))
        },
        .api("key decoded from invalid UTF-8", .storage(.invalidArgument, mentions: "U+FFFD")) { context in
            let key = String(decoding: [0x61, 0xFF, 0xFE, 0x62], as: UTF8.self)
            _ = try await context.client(.s3).resumableDownload(bucket: "bkt", key: key, to: context.scratch.existing)
        },
        .api("OSS key starting with '/'", .storage(.invalidArgument, mentions: "start with")) { context in
            _ = try await context.client(.oss).headObject(bucket: "bkt", key: "/etc/passwd")
        },
        .cli("cp to a key of 1,025 bytes", .exit(65, mentions: "1025 UTF-8 bytes")) { context in
            ["cp", context.source, "s3://bkt/" + String(repeating: "k", count: 1025)] + context.remote()
        },
        .cli(
            "stat oss://bkt//leading-slash",
            .exit(65, mentions: "start with"),
            environment: TestSecrets.ossEnvironment
        ) { context in
            ["stat", "oss://bkt//leading-slash"] + context.remote(.oss)
        },
        BadInputCase(
            name: "CLI: cat a key that is not valid UTF-8",
            action: .shell(
                { context in
                    "exec \"$OBJSTORE\" cat \"$(printf 's3://bkt/a\\377b')\" --endpoint \(context.fixture.endpoint)"
                },
                environment: TestSecrets.s3Environment
            ),
            expected: .exit(65, mentions: "not valid UTF-8")
        ),
    ]

    // MARK: Presign

    static let presign: [BadInputCase] = [
        .api("presign expiry 0", .signing(.invalidExpiry)) { context in
            _ = try await context.client(.s3).presign(bucket: "bkt", key: "obj", expires: .zero)
        },
        .api("presign expiry -60 s", .signing(.invalidExpiry)) { context in
            _ = try await context.client(.oss).presign(
                bucket: "bkt",
                key: "obj",
                expires: .seconds(-60)
            )
        },
        .api("SigV4 presign expiry 7 days + 1 s", .signing(.invalidExpiry)) { context in
            _ = try await context.client(.s3).presign(
                bucket: "bkt",
                key: "obj",
                expires: .seconds(604_801)
            )
        },
        .api("OSS V4 presign expiry 8 days", .signing(.invalidExpiry)) { context in
            _ = try await context.client(.oss).presign(
                bucket: "bkt",
                key: "obj",
                expires: .seconds(8 * 86_400)
            )
        },
        .api("presign on an anonymous client", .storage(.invalidArgument, mentions: "credentials")) { context in
            _ = try await context.fixture.anonymousClient(.s3).presign(bucket: "bkt", key: "obj")
        },
        .cli("presign --expires 0", .exit(65, mentions: "--expires")) { _ in
            ["presign", "s3://bkt/obj", "--expires", "0"]
        },
        .cli("presign --expires=-5", .exit(65, mentions: "--expires")) { _ in
            ["presign", "s3://bkt/obj", "--expires=-5"]
        },
        .cli("presign --expires 604801 (SigV4)", .exit(65, mentions: "604801")) { _ in
            ["presign", "s3://bkt/obj", "--expires", "604801"]
        },
    ]

    // MARK: Credentials

    static let credentials: [BadInputCase] = [
        .api("static credentials with an empty secret", .credentials(.incomplete)) { context in
            let half = Credentials(accessKeyID: TestSecrets.accessKeyID, secretAccessKey: "")
            _ = try await context.fixture.client(.s3, credentials: half).headObject(
                bucket: "bkt",
                key: "obj"
            )
        },
        .api("environment with the key id only", .credentials(.incomplete)) { context in
            let provider = EnvironmentCredentialsProvider(.oss, environment: ["OSS_ACCESS_KEY_ID": "id-only"])
            _ = try await provider.credentials(logger: context.logger)
        },
        .api("environment with nothing set", .credentials(.notFound)) { context in
            _ = try await EnvironmentCredentialsProvider(.s3, environment: [:]).credentials(logger: context.logger)
        },
        .cli("ls without credentials", .exit(77, mentions: "AWS_ACCESS_KEY_ID"), environment: [:]) { context in
            ["ls", "s3://bkt"] + context.remote()
        },
        .cli(
            "ls with the secret only",
            .exit(77, mentions: "AWS_ACCESS_KEY_ID"),
            environment: ["AWS_SECRET_ACCESS_KEY": TestSecrets.secret]
        ) { context in
            ["ls", "s3://bkt"] + context.remote()
        },
    ]

    // MARK: Endpoints

    static let endpoints: [BadInputCase] = [
        .api("endpoint 'not a url'", .signing(.invalidEndpoint)) { _ in
            _ = try Endpoint(url: "not a url")
        },
        .api("endpoint with a path", .signing(.invalidEndpoint)) { _ in
            _ = try Endpoint(url: "http://127.0.0.1:9000/bucket/../admin")
        },
        .api("endpoint with user info", .signing(.invalidEndpoint)) { _ in
            _ = try Endpoint(url: "http://user:\(TestSecrets.secret)@127.0.0.1:9000")
        },
        .api("endpoint file:///tmp", .signing(.invalidEndpoint)) { _ in
            _ = try Endpoint(url: "file:///tmp")
        },
        .cli("--endpoint 'not a url'", .exit(64, mentions: "--endpoint")) { _ in
            ["ls", "s3://bkt", "--endpoint", "not a url"]
        },
        .cli("--endpoint with a path", .exit(64, mentions: "--endpoint")) { context in
            ["ls", "s3://bkt", "--endpoint", context.fixture.endpoint + "/path"]
        },
    ]

    // MARK: Local paths

    static let paths: [BadInputCase] = [
        .api("download destination is a directory", .storage(.invalidArgument, mentions: "is a directory")) {
            context in
            _ = try await context.client(.s3).resumableDownload(bucket: "bkt", key: "obj", to: context.scratch.path)
        },
        .api("download into a missing directory", .storage(.invalidArgument, mentions: "does not exist")) { context in
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.file("missing/out.bin")
            )
        },
        .api("download under a regular file", .storage(.invalidArgument, mentions: "does not exist")) { context in
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing + "/out.bin"
            )
        },
        .api("download into an unwritable directory (/proc)", .storage(.fileSystem, mentions: "/proc")) { context in
            var options = TransferOptions()
            options.enableCheckpoint = false
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: "/proc/objstore-reliability.bin",
                options: options
            )
        },
        .api("checkpoint path = destination", .storage(.invalidArgument, mentions: "checkpoint")) { context in
            let options = TransferOptions(enableCheckpoint: true, checkpointFilePath: context.scratch.existing)
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .api("checkpoint path in a missing directory", .storage(.invalidArgument, mentions: "checkpoint")) {
            context in
            let missing = context.scratch.file("missing/out.dcp")
            let options = TransferOptions(enableCheckpoint: true, checkpointFilePath: missing)
            _ = try await context.client(.s3).resumableDownload(
                bucket: "bkt",
                key: "obj",
                to: context.scratch.existing,
                options: options
            )
        },
        .api("upload checkpoint path = the file uploaded", .storage(.invalidArgument, mentions: "checkpoint")) {
            context in
            var options = TransferOptions()
            options.enableCheckpoint = true
            options.checkpointFilePath = context.scratch.existing
            _ = try await context.client(.s3).uploadFile(
                from: context.scratch.existing,
                bucket: "bkt",
                key: "up",
                options: options
            )
        },
        .api("presigned-URL download of file:///etc/passwd", .storage(.invalidArgument, mentions: "http")) {
            context in
            _ = try await context.client(.s3).resumableDownload(
                presignedURL: "file:///etc/passwd",
                to: context.scratch.existing
            )
        },
        .cli("cp into an unwritable directory (/proc)", .exit(1, mentions: "/proc/objstore-reliability.bin")) {
            context in
            ["cp", "s3://bkt/obj", "/proc/objstore-reliability.bin"] + context.remote()
        },
        .cli("cp with --checkpoint-file = destination", .exit(65, mentions: "checkpoint")) { context in
            ["cp", "s3://bkt/obj", context.scratch.existing, "--checkpoint-file", context.scratch.existing]
                + context.remote()
        },
        .cli("cp with a checkpoint in a missing directory", .exit(65, mentions: "checkpoint")) { context in
            ["cp", "s3://bkt/obj", context.scratch.existing, "--checkpoint-file", context.scratch.file("no/dir.dcp")]
                + context.remote()
        },
        .cli("cp upload with --checkpoint-file = the source", .exit(65, mentions: "checkpoint")) { context in
            ["cp", context.scratch.existing, "s3://bkt/up", "--checkpoint-file", context.scratch.existing]
                + context.remote()
        },
        .cli("cp from file:///etc/hostname", .exit(64, mentions: "file://")) { context in
            ["cp", "file:///etc/hostname", "s3://bkt/up"] + context.remote()
        },
        .cli("cp to file://", .exit(64, mentions: "file://")) { context in
            ["cp", "s3://bkt/obj", "file://" + context.scratch.existing] + context.remote()
        },
        .cli("cp s3://bkt/dir/.. into a directory", .exit(64, mentions: "no file name")) { context in
            ["cp", "s3://bkt/dir/..", context.scratch.path + "/"] + context.remote()
        },
        .cli("cp --recursive between overlapping prefixes", .exit(65, mentions: "overlap")) { context in
            ["cp", "--recursive", "s3://bkt/a/", "s3://bkt/a/b/"] + context.remote()
        },
        .cli("cp --recursive from a regular file", .exit(65, mentions: "is not a directory")) { context in
            ["cp", "--recursive", context.scratch.existing, "s3://bkt/up/"] + context.remote()
        },
        .cli("cp --exclude without --recursive", .exit(64, mentions: "cp --recursive and sync only")) { context in
            ["cp", context.scratch.existing, "s3://bkt/up", "--exclude", "*"] + context.remote()
        },
        .cli("sync --transfers 0", .exit(64, mentions: "--transfers")) { context in
            ["sync", context.scratch.path, "s3://bkt/up/", "--transfers", "0"] + context.remote()
        },
        .cli("cp --recursive onto a regular file", .exit(64, mentions: "not a directory")) { context in
            ["cp", "--recursive", "s3://bkt/", context.scratch.existing] + context.remote()
        },
        .cli("--log-level loud", .exit(64, mentions: "--log-level")) { context in
            ["ls", "s3://bkt", "--log-level", "loud"] + context.remote()
        },
    ]
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageCheckpoint

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh directory under the system temp directory, removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/checkpoint-tests.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
            guard let base = buffer.baseAddress else { return nil }
            return mkdtemp(base)
        }
        guard made != nil else { throw POSIXError(.EIO) }
        let raw = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self.path = try CheckpointPaths.absolute(String(decoding: raw, as: UTF8.self))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

/// Writes `bytes` to `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// Reads `path`.
func readFile(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Sets a file's modification time to exactly `seconds` + `nanoseconds`.
func setModificationTime(_ path: String, seconds: Int, nanoseconds: Int) throws {
    var times = [
        timespec(tv_sec: seconds, tv_nsec: nanoseconds),
        timespec(tv_sec: seconds, tv_nsec: nanoseconds),
    ]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EIO) }
}

/// A 20-byte object cut into 8-byte parts (8 + 8 + 4), with its checkpoint and temp file on disk.
struct DownloadFixture {
    static let objectBytes = Array("0123456789abcdefghij".utf8)
    static let etag = "\"5D41402ABC4B2A76B9719D911017C592\""
    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    let directory: TemporaryDirectory
    let destination: String
    let checkpointPath: String
    let identity: DownloadCheckpoint.Identity
    let object: DownloadCheckpoint.ObjectState
    var checkpoint: DownloadCheckpoint

    init(key: String = "photos/2024/object.bin", range: CheckpointByteRange? = nil) throws {
        directory = try TemporaryDirectory()
        destination = directory.file("object.bin")
        checkpointPath = try CheckpointPaths.download(destination: destination)
        identity = DownloadCheckpoint.Identity(
            vendor: "oss",
            endpoint: "https://oss-cn-hangzhou.aliyuncs.com",
            bucket: "examplebucket",
            key: key,
            versionId: "CAEQNhiBgMDJgZCA0BYiIDc4MGZjZGI2OTBjOTRmNTE5NmU5NmFhZjhjYmY0****",
            range: range,
            destinationPath: destination
        )
        object = DownloadCheckpoint.ObjectState(
            size: Int64(Self.objectBytes.count),
            etag: Self.etag,
            lastModified: Self.lastModified,
            crc64: 11_027_584_245_493_016_713,
            versionId: "CAEQNhiBgMDJgZCA0BYiIDc4MGZjZGI2OTBjOTRmNTE5NmU5NmFhZjhjYmY0****"
        )
        checkpoint = try DownloadCheckpoint(
            identity: identity,
            object: object,
            partSize: 8,
            tempFilePath: try CheckpointPaths.downloadTempFile(destination: destination)
        )
        try writeFile(checkpoint.tempFilePath, [UInt8](repeating: 0, count: Int(checkpoint.expectedTempFileSize)))
    }

    var expectation: DownloadCheckpoint.Expectation {
        DownloadCheckpoint.Expectation(identity: identity, object: object)
    }
}

/// A 2.5-part source file with its upload checkpoint.
struct UploadFixture {
    let directory: TemporaryDirectory
    let source: String
    let checkpointPath: String
    let identity: UploadCheckpoint.Identity
    let parameters: UploadCheckpoint.ObjectParameters
    var checkpoint: UploadCheckpoint

    init() throws {
        directory = try TemporaryDirectory()
        source = directory.file("backup.tar")
        try writeFile(source, Array("the quick brown fox".utf8))  // 19 bytes: parts of 8, 8, 3
        checkpointPath = try CheckpointPaths.upload(source: source)
        identity = UploadCheckpoint.Identity(
            vendor: "s3",
            endpoint: "http://127.0.0.1:9000",
            bucket: "backups",
            key: "nightly/backup.tar",
            sourcePath: source
        )
        parameters = UploadCheckpoint.ObjectParameters(
            contentType: "application/x-tar",
            metadata: ["owner": "ops", "purpose": "nightly"],
            storageClass: "STANDARD_IA",
            acl: "private",
            serverSideEncryption: "AES256"
        )
        checkpoint = try UploadCheckpoint(
            identity: identity,
            source: try FileIdentity.current(path: source),
            partSize: 8,
            uploadId: "0004B9894A22E5B1888A1E29F8236E2D",
            parameters: parameters
        )
    }

    var expectation: UploadCheckpoint.Expectation {
        UploadCheckpoint.Expectation(identity: identity, parameters: parameters)
    }
}

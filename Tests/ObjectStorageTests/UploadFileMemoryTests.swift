//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Opt-in (`UPLOADFILE_MEMORY_MIB=<file size in MiB>`): uploads a large sparse file at the default
/// settings to a directory-backed local server in this process and prints the peak RSS of the
/// whole process (client and server together, unless `UPLOADFILE_MEMORY_ENDPOINT` is set).
@Suite("uploadFile memory (opt-in)")
struct UploadFileMemoryTests {
    static let sizeMiB = ProcessInfo.processInfo.environment["UPLOADFILE_MEMORY_MIB"].flatMap { Int64($0) }

    @Test("peak RSS while uploading a large file", .enabled(if: sizeMiB != nil))
    func peakRSS() async throws {
        let size = (Self.sizeMiB ?? 0) << 20
        let path = temporaryPath("big.bin")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { UploadFileFixture.cleanUp(path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()

        // UPLOADFILE_MEMORY_ENDPOINT points at an `objstore serve` in another process, so the
        // peak RSS is the client's alone; otherwise the server runs in this process.
        if let external = ProcessInfo.processInfo.environment["UPLOADFILE_MEMORY_ENDPOINT"] {
            let credentials = LocalObjectServer.developmentCredentials
            let configuration = ObjectStorageClient.Configuration(
                vendor: .oss,
                endpoint: try Endpoint(url: external),
                region: LocalObjectServer.Configuration().region(for: .oss),
                credentials: .static(accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey)
            )
            let client = ObjectStorageClient(configuration: configuration, logger: .scanning)
            try await Self.upload(path, size: size, with: client)
        } else {
            try await LocalObjectServer.withRunning(vendor: .oss, logger: .scanning) { client, _ in
                try await Self.upload(path, size: size, with: client)
            }
        }
    }

    /// Uploads `path` with a checkpoint and prints the time and the process's peak RSS.
    private static func upload(_ path: String, size: Int64, with client: ObjectStorageClient) async throws {
        _ = try? await client.createBucket(bucket: UploadFileFixture.bucket)
        var request = UploadFileCall(bucket: UploadFileFixture.bucket, key: "big", filePath: path)
        request.options.enableCheckpoint = true
        let start = ContinuousClock.now
        let result = try await client.uploadFile(request)
        let elapsed = ContinuousClock.now - start
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        print(
            "uploadFile \(size >> 20) MiB in \(elapsed), parts \(result.partsTransferred), "
                + "peak RSS \(usage.ru_maxrss / 1024) MiB"
        )
        #expect(result.partsTransferred > 1)
    }
}

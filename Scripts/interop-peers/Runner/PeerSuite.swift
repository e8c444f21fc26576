//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import ObjectStorage
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The checks for one peer; each asserts only what that peer promises (``Peer``).
struct PeerSuite {
    let peer: Peer
    let settings: Settings
    let client: ObjectStorageClient
    let flaky: FlakyTransport
    let flakyClient: ObjectStorageClient
    let bucket: String

    init(peer: Peer, settings: Settings) throws {
        self.peer = peer
        self.settings = settings
        let configuration = try settings.configuration()
        self.client = ObjectStorageClient(configuration: configuration)
        self.flaky = FlakyTransport(base: AsyncHTTPClientTransport.shared)
        self.flakyClient = ObjectStorageClient(configuration: configuration, transport: self.flaky)
        var random = SystemRandomNumberGenerator()
        let suffix = String(UInt32.random(in: 0...UInt32.max, using: &random), radix: 36)
        self.bucket = peer.writable ? "interop-\(peer.name)-\(suffix)" : (settings.fixtureBucket ?? "fixtures")
    }

    /// Runs every check that applies to the peer.
    func run(_ checklist: Checklist) async {
        if self.peer.writable {
            await self.runWritable(checklist)
        } else {
            await self.runReadOnly(checklist)
        }
    }

    private func runWritable(_ checklist: Checklist) async {
        await checklist.run("create-bucket") { try await self.createBucket() }
        await checklist.run("put-get-head") { try await self.putGetHead() }
        await checklist.run("put-file-get-to-file") { try await self.putFileGetToFile() }
        await checklist.run("list-v2") { try await self.listObjects() }
        await checklist.run("any-request-put-get-list") { try await self.anyRequest() }
        if self.peer.storesTags {
            await checklist.run("any-request-tagging") { try await self.anyRequestTagging() }
            await checklist.run("tags") { try await self.tags() }
        }
        await checklist.run("delete-objects") { try await self.deleteObjects() }
        await checklist.run("ranged-get") { try await self.rangedGet(key: "ranged.bin", size: 300 * 1024 + 7) }
        await checklist.run("conditional-get") { try await self.conditionalGet(key: "conditional.bin") }
        await checklist.run("multipart-with-resumed-part") { try await self.multipart() }
        await checklist.run("multipart-abort") { try await self.multipartAbort() }
        if self.peer.enforcesMinimumPartSize {
            await checklist.run("multipart-entity-too-small") { try await self.entityTooSmall() }
        }
        if self.peer.keepsUploadAfterFailedComplete {
            await checklist.run("multipart-invalid-part-keeps-upload") { try await self.invalidPartKeepsUpload() }
        }
        if self.peer.verifiesPresignedURLs {
            await checklist.run("presigned-get") { try await self.presignedGet() }
        }
        if self.peer.verifiesPresignedHeadAndPut {
            await checklist.run("presigned-head-put") { try await self.presignedHeadAndPut() }
        }
        if self.peer.verifiesSignatureV2 {
            await checklist.run("signature-v2") { try await self.signatureV2() }
        }
        if self.peer.verifiesPostPolicies {
            await checklist.run("post-policy-v4") { try await self.postPolicy(.sigV4) }
            await checklist.run("post-policy-v2") { try await self.postPolicy(.awsV2) }
        }
        if self.peer.verifiesSignatures {
            await checklist.run("wrong-secret") { try await self.wrongSecret() }
            await checklist.run("unknown-access-key") { try await self.unknownAccessKey() }
        }
        await checklist.run("upload-file-paused-resumed") { try await self.uploadFilePausedAndResumed() }
        await checklist.run("upload-file-resumed-after-abort") { try await self.uploadFileResumedAfterAbort() }
        await checklist.run("upload-file-aborted-before-complete") { try await self.uploadFileAbortedBeforeComplete() }
        await checklist.run("resumable-download-paused-resumed") {
            let bytes = Pattern.bytes(count: 1024 * 1024 + 333, seed: 11)
            try await self.resumableDownloadPausedAndResumed(key: "engine-download.bin", bytes: bytes, upload: true)
        }
        await checklist.run("resumable-download-multipart-etag") {
            try await self.resumableDownloadVerifiesMultipartETag()
        }
        await checklist.run("resumable-copy-paused-resumed") { try await self.copyPausedAndResumed() }
        await checklist.run("streamed-copy-piped-and-content-md5") { try await self.streamedCopy() }
        if self.peer.copiesParts {
            await checklist.run("resumable-copy-source-replaced") { try await self.copySourceReplacedBetweenRuns() }
        }
        await checklist.run("retries-put-bytes-and-file") { try await self.retriesPut() }
        await checklist.run("retries-get-to-file") { try await self.retriesGetToFileWritable() }
        await checklist.run("retries-multipart") { try await self.retriesMultipart() }
        await checklist.run("retries-list-cut-off-body") { try await self.retriesListing() }
        await checklist.run("directory-upload-download") { try await self.directoryRoundTrip() }
        await checklist.run("directory-sync-unchanged") { try await self.directorySyncUnchanged() }
        await checklist.run("directory-sync-delete") { try await self.directorySyncDeletes() }
        await checklist.run("delete-bucket") { try await self.cleanUp() }
    }

    private func runReadOnly(_ checklist: Checklist) async {
        let key = self.settings.fixtureKey ?? "pattern.bin"
        let size = self.settings.fixtureSize ?? 0
        await checklist.run("anonymous-get-head") { try await self.anonymousGet(key: key, size: size) }
        await checklist.run("ranged-get") { try await self.rangedGet(key: key, size: size, upload: false) }
        await checklist.run("conditional-get") { try await self.conditionalGet(key: key, upload: false) }
        await checklist.run("missing-key-404") { try await self.missingKey() }
        await checklist.run("retries-get-to-file") { try await self.retriesGetToFile(key: key, size: size) }
        await checklist.run("resumable-download-paused-resumed") {
            try await self.resumableDownloadPausedAndResumed(key: key, bytes: Pattern.bytes(count: size), upload: false)
        }
    }

    // MARK: Helpers

    /// Uploads `bytes` under `key` and returns the ETag.
    @discardableResult
    func put(_ key: String, _ bytes: [UInt8], using client: ObjectStorageClient? = nil) async throws -> String? {
        let response = try await (client ?? self.client).putObject(
            PutObjectRequest(bucket: self.bucket, key: key, body: .bytes(bytes))
        )
        return response.etag
    }

    /// Downloads `key` whole (or a range) into memory.
    func get(
        _ key: String,
        configure: (inout GetObjectRequest) -> Void = { _ in }
    ) async throws -> (
        GetObjectResponse, [UInt8]
    ) {
        var request = GetObjectRequest(bucket: self.bucket, key: key)
        configure(&request)
        let response = try await self.client.getObject(request)
        let body = try await response.body.collect(upTo: 64 << 20)
        return (response, body.bytes)
    }

    /// A scratch path under the work directory.
    func scratch(_ name: String) -> String {
        "\(self.settings.work)/\(self.peer.name)-\(name)"
    }
}

/// File helpers for the checks (plain POSIX, no Foundation).
enum Files {
    static func store(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CheckFailure("cannot create \(path): errno \(errno)") }
        defer { _ = close(descriptor) }
        let failed = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written <= 0 { return true }
                offset += written
            }
            return false
        }
        if failed { throw CheckFailure("cannot write \(path): errno \(errno)") }
    }

    static func load(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CheckFailure("cannot open \(path): errno \(errno)") }
        defer { _ = close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { throw CheckFailure("cannot read \(path): errno \(errno)") }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }
}

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
import ObjectStorageCheckpoint
import ObjectStorageTestSupport
import Testing

@Suite("Checkpoints hold no credentials")
struct CheckpointSecurityTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    static let token = "FwoGZXIvYXdzEXAMPLESESSIONTOKEN"

    /// Every stored property name, recursively, of a value's type.
    private func fieldNames(_ value: Any) -> [String] {
        var names = [String]()
        for child in Mirror(reflecting: value).children {
            if let label = child.label { names.append(label) }
            names += fieldNames(child.value)
        }
        return names
    }

    @Test func noFieldOfTheDataModelIsMeantForACredential() throws {
        var download = try DownloadFixture()
        try download.checkpoint.markPartCompleted(0, crc64: 1)
        var upload = try UploadFixture()
        try upload.checkpoint.recordPart(.init(number: 1, etag: "e", size: 8, crc64: 1, md5: "m"))
        let names = fieldNames(download.checkpoint) + fieldNames(upload.checkpoint)
        #expect(names.contains("uploadId"))
        for name in names {
            let lower = name.lowercased()
            for word in ["secret", "token", "password", "credential", "authorization", "signature", "accesskey"] {
                #expect(!lower.contains(word), "field \(name)")
            }
        }
    }

    @Test func credentialBearingValuesAreRefusedOnSave() throws {
        let upload = try UploadFixture()
        for header in [
            "Authorization", "x-amz-security-token", "x-oss-security-token", "x-obs-security-token",
            "x-amz-server-side-encryption-customer-key", "x-obs-server-side-encryption-customer-key", "Cookie",
        ] {
            var checkpoint = upload.checkpoint
            checkpoint.parameters.additionalHeaders[header] = Self.secret
            let error = try #require(throws: CheckpointError.self) {
                try CheckpointStore(logger: .scanning).save(checkpoint, to: upload.checkpointPath)
            }
            #expect(error.code == .sensitiveValue)
            #expect(!error.description.contains(Self.secret))
        }
        #expect(!UploadCheckpoint.ObjectParameters.isSensitiveHeader("x-amz-server-side-encryption-customer-key-MD5"))

        let download = try DownloadFixture()
        for endpoint in [
            "https://bucket.oss-cn-hangzhou.aliyuncs.com?OSSAccessKeyId=AK&Signature=\(Self.secret)",
            "https://AKID:\(Self.secret)@s3.amazonaws.com",
            "https://host/#\(Self.token)",
        ] {
            var checkpoint = download.checkpoint
            checkpoint.identity.endpoint = endpoint
            let error = try #require(throws: CheckpointError.self) {
                try CheckpointStore(logger: .scanning).save(checkpoint, to: download.checkpointPath)
            }
            #expect(error.code == .sensitiveValue)
            #expect(!error.description.contains(Self.secret))
        }
        #expect(!FileManager.default.fileExists(atPath: download.checkpointPath))
    }

    @Test func savedFilesAndLogsNeverContainTheTestSecret() throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let store = CheckpointStore(logger: .scanning(label: "test", alsoTo: handler))

        var download = try DownloadFixture()
        try download.checkpoint.markPartCompleted(1, crc64: 77)
        try store.save(download.checkpoint, to: download.checkpointPath)
        var upload = try UploadFixture()
        try upload.checkpoint.recordPart(.init(number: 1, etag: "e", size: 8))
        try store.save(upload.checkpoint, to: upload.checkpointPath)
        _ = store.load(at: download.checkpointPath, expecting: download.expectation)
        _ = store.load(at: upload.checkpointPath, expecting: upload.expectation)
        try writeFile(download.checkpointPath, [0xFF, 0x00])
        _ = store.load(at: download.checkpointPath, expecting: download.expectation)

        for path in [upload.checkpointPath] {
            let text = String(decoding: try readFile(path), as: UTF8.self)
            #expect(!text.contains(Self.secret))
            #expect(!text.contains(Self.token))
        }
        for entry in handler.entries {
            let line = "\(entry.message) \(entry.metadata)"
            #expect(!line.contains(Self.secret))
            #expect(!line.contains(Self.token))
        }
        #expect(!handler.entries.isEmpty)
    }
}

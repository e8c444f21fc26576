//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// `objstore cp oss://… obs://…`: a copy between two services streams through the CLI, each service's endpoint
/// and keys read from its own variables (one `objstore serve` answers every dialect).
@Suite("objstore cp between services")
struct CrossServiceCopyTests {
    /// Both services' variables, pointing at `server`.
    static func environment(_ server: ObjectsLocalServer) -> [String: String] {
        CLIProcess.isolatedEnvironment([
            "OSS_ENDPOINT": server.endpoint, "OSS_REGION": "cn-hangzhou",
            "OSS_ACCESS_KEY_ID": ObjectsLocalServer.accessKeyID, "OSS_ACCESS_KEY_SECRET": ObjectsLocalServer.secret,
            "OBS_ENDPOINT": server.endpoint,
            "OBS_ACCESS_KEY_ID": ObjectsLocalServer.accessKeyID, "OBS_SECRET_ACCESS_KEY": ObjectsLocalServer.secret,
            "AWS_ENDPOINT_URL": server.endpoint, "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": ObjectsLocalServer.accessKeyID, "AWS_SECRET_ACCESS_KEY": ObjectsLocalServer.secret,
        ])
    }

    @discardableResult
    static func succeed(_ arguments: [String], _ environment: [String: String]) async throws -> CLIProcess.Result {
        let result = try await CLIProcess.run(arguments, environment: environment)
        #expect(result.status == 0, "objstore \(arguments.joined(separator: " ")): \(result.standardError)")
        return result
    }

    @Test("OSS to OBS to S3, in parts: the bytes arrive unchanged")
    func ossToObsToS3() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let environment = Self.environment(server)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cross-copy-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let content = Data((0..<(1_300_000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        try content.write(to: URL(fileURLWithPath: directory + "/source.bin"))

        for bucket in ["oss://from-oss", "obs://via-obs", "s3://to-s3"] {
            try await Self.succeed(["mb", bucket], environment)
        }
        try await Self.succeed(["cp", directory + "/source.bin", "oss://from-oss/object.bin"], environment)
        let parts = ["--part-size", "256K", "--concurrency", "3", "--quiet"]
        try await Self.succeed(["cp", "oss://from-oss/object.bin", "obs://via-obs/object.bin"] + parts, environment)
        try await Self.succeed(["cp", "obs://via-obs/object.bin", "s3://to-s3/"] + parts, environment)

        let copied = try await Self.succeed(["cat", "s3://to-s3/object.bin"], environment)
        #expect(copied.standardOutputBytes == Array(content))
        let incomplete = try await Self.succeed(["ls", "--incomplete", "s3://to-s3"], environment)
        #expect(incomplete.standardOutput.isEmpty)
    }
}

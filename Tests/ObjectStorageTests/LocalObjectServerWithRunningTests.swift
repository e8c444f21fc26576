//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import NIOPosix
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// The shipped test helper, ``LocalObjectServer/withRunning(vendor:faults:logger:configureServer:configureClient:isolation:_:)``: the client it
/// hands out works in every dialect, the faults it is given fire, and the server and its data are gone afterwards
/// even when the test throws.
@Suite("LocalObjectServer.withRunning")
struct LocalObjectServerWithRunningTests {
    private struct PlannedFailure: Error {}

    @Test("the client stores and reads back", arguments: [StorageVendor.oss, .obs, .s3])
    func clientStoresAndReadsBack(_ dialect: StorageVendor) async throws {
        try await LocalObjectServer.withRunning(vendor: dialect) { client, _ in
            try await client.createBucket(bucket: "test")
            let put = try await client.putObject(
                PutObjectRequest(bucket: "test", key: "a.txt", body: .bytes(Array("hello".utf8)))
            )
            // Only the OSS dialect answers with a CRC-64: the server spoke the client's dialect.
            #expect((put.crc64 != nil) == (dialect == .oss))
            let object = try await client.getObject(GetObjectRequest(bucket: "test", key: "a.txt"))
            #expect(try await object.body.collect(upTo: 1024).bytes == Array("hello".utf8))
        }
    }

    @Test("the faults it is given fire, and the client retries them")
    func faultsFire() async throws {
        let faults = FaultInjector()
        faults.add(FaultRule(operations: [.createBucket], trigger: .first(2), fault: .slowDown))
        try await LocalObjectServer.withRunning(vendor: .oss, faults: faults) { client, server in
            #expect(server.faults === faults)
            // Two throttled attempts, then the third succeeds.
            try await client.createBucket(bucket: "test")
            server.faults.add(FaultRule(operations: [.putObject], trigger: .always, fault: .internalError))
            let error = await #expect(throws: ServiceError.self) {
                try await client.putObject(PutObjectRequest(bucket: "test", key: "k", body: .bytes([1, 2, 3])))
            }
            #expect(error?.statusCode == 500)
            #expect(error?.code == .internalError)
        }
    }

    @Test("its closures configure the server and the client before they start")
    func closuresConfigureServerAndClient() async throws {
        let other = Credentials(accessKeyID: "other-key-id", secretAccessKey: "with-running-other-secret-4e7b")
        let configureServer: (inout LocalObjectServer.Configuration) -> Void = { configuration in
            configuration.authentication = .credentials([other])
            configuration.regions[.oss] = "cn-shanghai"
        }
        let configureClient: (inout ObjectStorageClient.Configuration) -> Void = { configuration in
            configuration.signatureVersion = .ossV1
            configuration.credentials = .static(accessKeyID: other.accessKeyID, secretAccessKey: other.secretAccessKey)
        }
        try await LocalObjectServer.withRunning(
            vendor: .oss,
            configureServer: configureServer,
            configureClient: configureClient
        ) { client, server in
            #expect(server.configuration.region(for: .oss) == "cn-shanghai")
            // The client's region follows the server's, and it signs in OSS V1 with the other key pair, the only
            // one the server accepts.
            #expect(client.configuration.region == "cn-shanghai")
            #expect(client.configuration.signatureVersion == .ossV1)
            try await client.createBucket(bucket: "test")
            let presigned = try await client.presign(bucket: "test", key: "k")
            #expect(presigned.url.contains("OSSAccessKeyId=other-key-id"))

            var development = client.configuration
            development.credentials = .static(
                accessKeyID: LocalObjectServer.developmentCredentials.accessKeyID,
                secretAccessKey: LocalObjectServer.developmentCredentials.secretAccessKey
            )
            let refused = await #expect(throws: ServiceError.self) {
                try await ObjectStorageClient(configuration: development).headBucket(bucket: "test")
            }
            #expect(refused?.statusCode == 403)
        }
    }

    @Test("a throwing test still stops the server and removes its data")
    func stopsAndRemovesItsDataWhenTheBodyThrows() async throws {
        var directory: String?
        var openConnection: (any Channel)?
        do {
            try await LocalObjectServer.withRunning { client, server in
                directory = server.configuration.storage.path
                openConnection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: try #require(server.port))
                    .get()
                try await client.createBucket(bucket: "test")
                try await client.putObject(PutObjectRequest(bucket: "test", key: "k", body: .bytes([1, 2, 3])))
                throw PlannedFailure()
            }
            Issue.record("withRunning returned although its body threw")
        } catch is PlannedFailure {}
        let data = try #require(directory)
        let connection = try #require(openConnection)
        #expect(!FileManager.default.fileExists(atPath: data))
        // A stopped server closes the connections it held. (Probing its port instead would be a race: another
        // test's server may be given the same port once it is free.)
        #expect(await Self.closes(connection, within: .seconds(30)))
    }

    private static func closes(_ connection: any Channel, within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await connection.closeFuture.get()) != nil }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            defer { group.cancelAll() }
            let first = await group.next() ?? false
            if !first { try? await connection.close() }
            return first
        }
    }

    @Test("storage is a new temporary directory per call")
    func eachCallGetsItsOwnDirectory() async throws {
        let first = try await LocalObjectServer.withRunning { _, server in server.configuration.storage.path }
        let second = try await LocalObjectServer.withRunning { _, server in
            let path = try #require(server.configuration.storage.path)
            #expect(FileManager.default.fileExists(atPath: path))
            return path
        }
        #expect(first != nil)
        #expect(first != second)
    }
}

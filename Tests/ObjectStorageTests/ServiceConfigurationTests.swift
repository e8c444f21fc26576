//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

/// Each fact said once: a vendor and region make the endpoint, region and signature; the environment is read as
/// `objstore` reads it.
@Suite struct ServiceConfigurationTests {
    @Test func aVendorAndRegionMakeTheEndpointRegionAndSignature() {
        let oss = ObjectStorageClient.Configuration.oss(region: "cn-shanghai")
        #expect(oss.vendor == .oss)
        #expect(oss.endpoint.description == "https://oss-cn-shanghai.aliyuncs.com")
        #expect(oss.region == "cn-shanghai")
        #expect(oss.signatureVersion == .ossV4)
        // The default chain, in the order of Alibaba's credentials library (Credentials.md).
        #expect(
            oss.credentials.map { "\($0)" }?.hasPrefix(
                "chain(environment(OSS), webIdentity(ALIBABA_CLOUD_ROLE_ARN), profile(aliyunCLI), profile(alibabaCloud)"
            ) == true
        )

        let obs = ObjectStorageClient.Configuration.obs(region: "cn-north-4")
        #expect(obs.endpoint.description == "https://obs.cn-north-4.myhuaweicloud.com")
        #expect(obs.signatureVersion == .obs)

        let s3 = ObjectStorageClient.Configuration.s3(
            region: "eu-west-1",
            credentials: .static(accessKeyID: "a", secretAccessKey: "b")
        )
        #expect(s3.endpoint.description == "https://s3.eu-west-1.amazonaws.com")
        #expect(s3.region == "eu-west-1")
        #expect(s3.signatureVersion == .sigV4)
    }

    @Test func theEnvironmentNamesTheEndpointOrTheRegion() throws {
        let host = try ObjectStorageClient.Configuration.environment(
            .oss,
            variables: ["OSS_ENDPOINT": "oss-cn-beijing.aliyuncs.com"]
        )
        #expect(host.endpoint.description == "https://oss-cn-beijing.aliyuncs.com")
        #expect(host.region == "cn-beijing")

        let region = try ObjectStorageClient.Configuration.environment(
            .obs,
            variables: ["OBS_REGION": "ap-southeast-1"]
        )
        #expect(region.endpoint.description == "https://obs.ap-southeast-1.myhuaweicloud.com")
        #expect(region.region == "ap-southeast-1")

        let fallback = try ObjectStorageClient.Configuration.environment(.s3, variables: ["AWS_DEFAULT_REGION": ""])
        #expect(fallback.endpoint.description == "https://s3.us-east-1.amazonaws.com")
        #expect(fallback.region == "us-east-1")
    }

    @Test func anEndpointVariableThatIsNoURLIsRefusedNamingTheVariable() {
        #expect {
            try ObjectStorageClient.Configuration.environment(.s3, variables: ["AWS_ENDPOINT_URL": "http://h/path"])
        } throws: { error in
            let error = error as? ObjectStorageError
            return error?.code == .invalidArgument && error?.message.hasPrefix("AWS_ENDPOINT_URL ") == true
        }
    }

    /// The credentials come from the same variables: a round trip through a server that checks every signature.
    @Test(arguments: [StorageVendor.oss, .obs, .s3])
    func anEnvironmentConfigurationTalksToTheServerItNames(_ provider: StorageVendor) async throws {
        let server = LocalObjectServer(configuration: .init(storage: .memory))
        let port = try await server.start()
        do {
            try await self.roundTrip(provider, port: port, server: server)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    private func roundTrip(_ provider: StorageVendor, port: Int, server: LocalObjectServer) async throws {
        let keys = LocalObjectServer.developmentCredentials
        let variables: [String: String] =
            switch provider {
            case .oss:
                [
                    "OSS_ENDPOINT": "http://127.0.0.1:\(port)", "OSS_REGION": server.configuration.region(for: .oss),
                    "OSS_ACCESS_KEY_ID": keys.accessKeyID, "OSS_ACCESS_KEY_SECRET": keys.secretAccessKey,
                ]
            case .obs:
                [
                    "OBS_ENDPOINT": "http://127.0.0.1:\(port)", "OBS_REGION": server.configuration.region(for: .obs),
                    "OBS_ACCESS_KEY_ID": keys.accessKeyID, "OBS_SECRET_ACCESS_KEY": keys.secretAccessKey,
                ]
            default:
                [
                    "AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)", "AWS_REGION": server.configuration.region(for: .s3),
                    "AWS_ACCESS_KEY_ID": keys.accessKeyID, "AWS_SECRET_ACCESS_KEY": keys.secretAccessKey,
                    "HOME": "/nonexistent",
                ]
            }
        let client = ObjectStorageClient(configuration: try .environment(provider, variables: variables))
        try await client.createBucket(bucket: "said-once")
        _ = try await client.putObject(
            PutObjectRequest(bucket: "said-once", key: "k", body: .bytes(Array("from the environment".utf8)))
        )
        let object = try await client.getObject(GetObjectRequest(bucket: "said-once", key: "k"))
        #expect(String(buffer: try await object.body.collect(upTo: 1024)) == "from the environment")
    }
}

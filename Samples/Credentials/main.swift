//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Credentials
//
// The places the SDK takes keys from: the vendor's environment variables, the vendors' profile files, a
// closure of the app's that fetches STS tokens (cached and refreshed by `.refreshing`), a chain of these,
// and the role of an ECS instance. Each provider that finds credentials signs a request, to show they
// work. Secrets are never printed: a `Credentials` value redacts them in every description.
//
// ```sh
// swift run CredentialsSample
// OSS_ACCESS_KEY_ID=LOCALDEVACCESSKEY OSS_ACCESS_KEY_SECRET=localdev-secret-key-not-for-production \
//     swift run CredentialsSample   # the embedded server's development keys, from the environment
// ```

import Foundation
import ObjectStorage
import SampleSupport
import Synchronization

try await SampleStorage.run("Credentials") { storage in
    // 1. Environment variables: OSS_ACCESS_KEY_ID, OSS_ACCESS_KEY_SECRET and OSS_SESSION_TOKEN (or OBS_*, AWS_*).
    let environment: EnvironmentCredentialsProvider = .environment(storage.vendor)
    try await check("environment", environment, storage)

    // 2. A profile file: ~/.alibabacloud/credentials, ~/.aliyun/config.json or ~/.aws/credentials.
    let profile: ProfileCredentialsProvider
    if let keys = storage.embeddedServerCredentials {
        let file = storage.scratchDirectory + "/alibabacloud-credentials"  // the embedded server's keys
        let profileText = """
            [default]
            type = access_key
            access_key_id = \(keys.accessKeyID)
            access_key_secret = \(keys.secretAccessKey)

            """
        try profileText.write(toFile: file, atomically: true, encoding: .utf8)
        profile = .profile(.alibabaCloud(file: file))
    } else {
        profile = storage.vendor == .s3 ? .profile(.aws()) : .profile(.alibabaCloud())
    }
    try await check("profile file", profile, storage)

    // 3. Federation: the app's closure fetches temporary credentials (an STS token), typically from the
    //    app's own server; `.refreshing` calls it once and again only shortly before the token expires.
    let fetches = Mutex(0)
    let federated: RefreshingCredentialsProvider = .refreshing(
        .federated {
            fetches.withLock { $0 += 1 }
            return try await fetchTemporaryCredentials(storage)
        }
    )
    try await check("federated STS closure", federated, storage)
    _ = try await federated.credentials(logger: Logger(label: "sample"))
    print("  asked twice, fetched \(fetches.withLock { $0 }) time: cached until shortly before it expires")

    // 4. A chain tries providers in order and uses the first that finds credentials.
    try await check("chain", .chain(environment, profile, federated), storage)

    // 5. The RAM role of an Alibaba Cloud ECS instance (or the agency of a Huawei Cloud one, for OBS).
    let role: RefreshingCredentialsProvider = .refreshing(.alibabaCloudECSRole())
    let agency: RefreshingCredentialsProvider = .refreshing(.huaweiCloudECS())
    print("ECS instance role: \(role)")
    print("ECS instance agency: \(agency)")
    print("  constructed only, not fetched: they ask the instance metadata service, which exists only on an ECS")
    print("  instance; elsewhere a fetch fails with CredentialsError.notFound, so a chain moves on")
}

/// Resolves a provider and, when it finds credentials, signs a HeadBucket request with them.
func check(_ name: String, _ provider: some CredentialsProvider, _ storage: SampleStorage) async throws {
    do {
        let credentials = try await provider.credentials(logger: Logger(label: "sample"))
        print("\(name): \(credentials)")
        var configuration = try ObjectStorageClient.Configuration.environment(storage.vendor)
        configuration.credentials = provider
        let client = ObjectStorageClient(configuration: configuration)
        _ = try await client.headBucket(bucket: storage.bucket)
        print("  signed HeadBucket \(storage.bucket): OK")
    } catch let error as CredentialsError where error.code == .notFound {
        print("\(name): nothing found (\(error))")
    }
}

/// Stands in for a call to the app's token service, which would call STS AssumeRole. On the embedded server:
/// its keys with a made-up token (it does not check tokens). Against a real bucket: the environment's keys.
func fetchTemporaryCredentials(_ storage: SampleStorage) async throws -> Credentials {
    guard var credentials = storage.embeddedServerCredentials else {
        let environment = EnvironmentCredentialsProvider.environment(storage.vendor)
        return try await environment.credentials(logger: Logger(label: "sample"))
    }
    credentials.securityToken = "sample-security-token"
    credentials.expiration = Date().addingTimeInterval(3600)
    return credentials
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Presigned URLs
//
// Presigns GET and HEAD URLs with `ObjectStorageClient.presign(bucket:key:method:expires:)` and fetches them
// with a plain HTTP client that holds no credentials: first signed with long-term keys, then with temporary STS
// credentials, whose security token is signed into the URL. A URL with a tampered signature is refused.
//
// ```sh
// swift run PresignURLSample
// ```

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ObjectStorage
import SampleSupport

try await SampleStorage.run("PresignURL") { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them
    // (OSS_ENDPOINT, OSS_REGION, OSS_ACCESS_KEY_ID...; with no bucket configured, they name the embedded server).
    let client = ObjectStorageClient(configuration: try .environment(storage.vendor))
    let key = storage.prefix + "reports/2024 Q1.txt"
    let upload = PutObjectRequest(bucket: storage.bucket, key: key, body: .bytes(Array("Hello, presigned!\n".utf8)))
    _ = try await client.putObject(upload)

    print("Signed with long-term keys:")
    try await presignAndFetch(client: client, bucket: storage.bucket, key: key)

    print("\nSigned with temporary STS credentials (the token travels in the URL):")
    if let temporary = try await temporaryCredentials(storage) {
        var configuration = client.configuration
        configuration.credentials = .static(
            accessKeyID: temporary.accessKeyID,
            secretAccessKey: temporary.secretAccessKey,
            securityToken: temporary.securityToken
        )
        let temporaryClient = ObjectStorageClient(configuration: configuration)
        try await presignAndFetch(client: temporaryClient, bucket: storage.bucket, key: key)
    } else {
        print(
            "  skipped: set the \(storage.vendor.description.uppercased()) session token variable with the keys of an STS token to try it"
        )
    }

    try await client.deleteObject(bucket: storage.bucket, key: key)
}

/// Presigns a GET and a HEAD URL valid for 15 minutes, fetches both, then a GET URL with a tampered signature.
func presignAndFetch(client: ObjectStorageClient, bucket: String, key: String) async throws {
    for method in [HTTPMethod.GET, .HEAD] {
        let presigned = try await client.presign(
            bucket: bucket,
            key: key,
            method: method.rawValue,
            expires: .seconds(900)
        )
        print("  \(method) \(presigned.url)")
        let (status, body) = try await fetch(presigned.url, method: method)
        print("    → \(status), \(method == .GET ? "body \(body.debugDescription)" : "no body")")
        if method == .GET {
            let tampered = presigned.url.replacingOccurrences(of: "ignature=", with: "ignature=0")
            print("    tampered signature → \(try await fetch(tampered, method: method).status)")
        }
    }
}

/// Fetches a URL with no credentials at all: everything the server needs is in the URL.
func fetch(_ url: String, method: HTTPMethod) async throws -> (status: HTTPResponseStatus, body: String) {
    var request = HTTPClientRequest(url: url)
    request.method = method
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (response.status, String(buffer: body))
}

/// Your app gets temporary credentials from STS (AssumeRole), usually through its own server. Here: on the
/// embedded server, its keys with a made-up token (it does not check tokens); against a real bucket, the
/// environment's keys when they include a session token.
func temporaryCredentials(_ storage: SampleStorage) async throws -> Credentials? {
    if var credentials = storage.embeddedServerCredentials {
        credentials.securityToken = "sample-security-token"
        credentials.expiration = Date().addingTimeInterval(3600)
        return credentials
    }
    let environment = try? await EnvironmentCredentialsProvider.environment(storage.vendor).credentials(
        logger: Logger(label: "sample")
    )
    return environment?.securityToken == nil ? nil : environment
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// An endpoint that cannot be reached fails an operation within seconds (#21), with the client's defaults: its own
/// transport and its default retry policy. Only 127.0.0.1 is connected to; `.invalid` names (RFC 6761) never
/// resolve, so they fail in the resolver before any packet goes to a server.
struct ClientConnectFailureTests {
    /// A name that does not resolve fails in well under a second alone (the resolver answers at once); a full
    /// suite on 2 cores can keep the shared event loops busy for seconds, so the bound is wider than that, and
    /// still far below the 270 s that AsyncHTTPClient's own connection retries took.
    static let bound = Duration.seconds(20)

    static func client(endpoint: String, addressing: AddressingStyle) throws -> ObjectStorageClient {
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: endpoint),
            region: "us-east-1",
            credentials: .static(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "connect-failure-secret-3b9e")
        )
        configuration.addressing = addressing
        return ObjectStorageClient(configuration: configuration, logger: .scanning)
    }

    @Test(arguments: [AddressingStyle.path, .virtualHosted])
    func anUnresolvableEndpointFailsGetAndPutAtOnce(addressing: AddressingStyle) async throws {
        let client = try Self.client(endpoint: "http://no-such-host.invalid:9000", addressing: addressing)
        let clock = ContinuousClock()
        let host = addressing == .path ? "no-such-host.invalid" : "bucket.no-such-host.invalid"

        var started = clock.now
        let download = await #expect(throws: TransportError.self) {
            _ = try await client.getObject(GetObjectRequest(bucket: "bucket", key: "key"))
        }
        #expect(started.duration(to: clock.now) < Self.bound)
        #expect(download?.code == .hostNotFound)
        #expect(download?.message.contains("cannot resolve the host name '\(host)'") == true)
        #expect(download?.attempts == nil, "a name that does not exist is asked for once")

        started = clock.now
        let upload = await #expect(throws: TransportError.self) {
            _ = try await client.putObject(
                PutObjectRequest(bucket: "bucket", key: "key", body: .bytes(Array("x".utf8)))
            )
        }
        #expect(started.duration(to: clock.now) < Self.bound)
        #expect(upload?.code == .hostNotFound)
        #expect(upload.map { "\($0)" }?.contains(host) == true)
        #expect(upload.map { "\($0)" }?.contains("connect-failure-secret") == false)
    }

    @Test func aRefusingLoopbackEndpointFailsWithinSecondsAfterRetries() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let client = try Self.client(endpoint: "http://127.0.0.1:\(refusing.port)", addressing: .path)
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: TransportError.self) {
            _ = try await client.putObject(
                PutObjectRequest(bucket: "bucket", key: "key", body: .bytes(Array("x".utf8)))
            )
        }
        // Three refused connects and two short backoffs; in a full suite on 2 cores the shared event loops can
        // be busy for seconds, so the bound is wider than the resolver's, and still far below the minutes
        // AsyncHTTPClient's own connection retries took.
        #expect(started.duration(to: clock.now) < .seconds(30))
        #expect(error?.code == .connectFailed)
        #expect(error?.attempts == 3, "refused is transient: the default policy's three attempts")
        #expect(error?.message == "the connection was refused (nothing listens on the port)")
        #expect(error?.host == "127.0.0.1:\(refusing.port)")
    }
}

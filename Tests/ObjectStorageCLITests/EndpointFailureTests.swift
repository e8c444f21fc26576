//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

@testable import ObjectStorageCLI

/// A command whose endpoint cannot be reached ends within seconds, naming the endpoint and the setting that chose it
/// (#21). Only 127.0.0.1 is connected to; `.invalid` names (RFC 6761) fail in the resolver, before any packet.
struct EndpointFailureTests {
    static let credentials = [
        "OSS_ACCESS_KEY_ID": "LTAI5tFixedTestAccessKeyId",
        "OSS_ACCESS_KEY_SECRET": "FixedTestAccessKeySecret0123456789ab",
    ]

    /// Runs `objstore arguments` and checks it failed with status 1 within the generous bound, returning stderr.
    static func failingRun(_ arguments: [String], environment: [String: String]) async throws -> String {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await CLIProcess.run(
            arguments,
            environment: CLIProcess.isolatedEnvironment(environment),
            timeLimit: .seconds(60)
        )
        let elapsed = started.duration(to: clock.now)
        #expect(!result.timedOut)
        // Under a second for a process alone; a full suite starting processes on 2 cores adds seconds.
        #expect(elapsed < .seconds(20), "took \(elapsed)")
        #expect(result.status == 1, "stderr: \(result.standardError)")
        return result.standardError
    }

    @Test func anUnresolvableEndpointOptionIsNamed() async throws {
        let standardError = try await Self.failingRun(
            ["mb", "oss://bucket", "--endpoint", "http://no-such-host.invalid"],
            environment: Self.credentials
        )
        #expect(standardError.contains("Cannot resolve the host name 'bucket.no-such-host.invalid'"))
        #expect(standardError.contains("The endpoint http://no-such-host.invalid was given with --endpoint."))
        #expect(!standardError.contains("hostNotFound"), "no enum case name")
    }

    @Test func anUnresolvableEndpointFromTheEnvironmentNamesTheVariable() async throws {
        var environment = Self.credentials
        environment["OSS_ENDPOINT"] = "http://no-such-host.invalid:9000"
        let standardError = try await Self.failingRun(["mb", "oss://bucket"], environment: environment)
        #expect(standardError.contains("Cannot resolve the host name 'bucket.no-such-host.invalid'"))
        #expect(
            standardError.contains(
                "The endpoint http://no-such-host.invalid:9000 is set by OSS_ENDPOINT; change it or pass --endpoint "
                    + "to use another."
            )
        )
    }

    @Test func aRefusingEndpointFailsAfterRetriesAndIsNamed() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let endpoint = "http://127.0.0.1:\(refusing.port)"
        let standardError = try await Self.failingRun(
            ["cat", "oss://bucket/key", "--endpoint", endpoint],
            environment: Self.credentials
        )
        #expect(
            standardError.contains(
                "The connection was refused (nothing listens on the port) (GET 127.0.0.1:\(refusing.port)/bucket/key, "
                    + "after 3 attempts)."
            )
        )
        #expect(standardError.contains("The endpoint \(endpoint) was given with --endpoint."))
    }

    /// An `https://` endpoint on a plain-HTTP server: a sentence that says so and names the `http://` endpoint, not
    /// BoringSSL's error with the paths of its sources.
    @Test func anHTTPSEndpointOnAPlainHTTPServerSuggestsHTTP() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let https = server.endpoint.replacingOccurrences(of: "http://", with: "https://")
        let standardError = try await Self.failingRun(
            ["ls", "oss://bucket", "--endpoint", https],
            environment: Self.credentials
        )
        #expect(
            standardError.contains(
                "The server does not speak TLS: it answered the TLS handshake in plain text (GET "
            ),
            "\(standardError)"
        )
        #expect(
            standardError.contains("Did you mean \(server.endpoint)? The endpoint \(https) was given with --endpoint."),
            "\(standardError)"
        )
        #expect(!standardError.contains(".cc:"), "no BoringSSL source path: \(standardError)")
    }

    /// An endpoint variable without a scheme is taken as https, with a warning that says how to write either.
    @Test func anEndpointVariableWithoutASchemeIsWarnedAbout() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let hostAndPort = server.endpoint.replacingOccurrences(of: "http://", with: "")
        var environment = Self.credentials
        environment["OSS_ENDPOINT"] = hostAndPort
        let standardError = try await Self.failingRun(["ls", "oss://bucket"], environment: environment)
        #expect(
            standardError.contains(
                "objstore: warning: OSS_ENDPOINT names no scheme: using https://\(hostAndPort); write "
                    + "http://\(hostAndPort) in it if the endpoint speaks plain HTTP, or https://\(hostAndPort) to "
                    + "silence this warning."
            ),
            "\(standardError)"
        )
        #expect(
            standardError.contains(
                "Did you mean http://\(hostAndPort)? The endpoint https://\(hostAndPort) is set by OSS_ENDPOINT "
                    + "(without a scheme: https is assumed); change it or pass --endpoint to use another."
            ),
            "\(standardError)"
        )
    }

    /// The vendor's default is never contacted in a test (it is a real host); the choice and its sentence are
    /// checked in process.
    @Test func theVendorDefaultSaysWhichVariableSetsAnother() throws {
        let defaults = ServiceEnvironment(.oss, variables: ["OSS_REGION": "cn-shanghai"])
        let (choice, region) = try defaults.choose(endpoint: nil, region: nil)
        #expect(region == "cn-shanghai")
        #expect(choice.origin == .vendorDefault(region: "cn-shanghai", variable: "OSS_ENDPOINT"))
        #expect(
            choice.explanation
                == "The endpoint https://oss-cn-shanghai.aliyuncs.com is the default for region cn-shanghai; set "
                + "OSS_ENDPOINT or pass --endpoint to use another."
        )
        let error = TransportError(
            code: .hostNotFound,
            message: "cannot resolve the host name 'b.oss-cn-shanghai.aliyuncs.com' (Name or service not known)"
        )
        #expect(
            RemoteFailure.sentence(error, endpoint: choice)
                == "Cannot resolve the host name 'b.oss-cn-shanghai.aliyuncs.com' (Name or service not known). "
                + choice.explanation
        )
        let notFound = TransportError(code: .redirectRefused, message: "the server answered 301")
        #expect(!RemoteFailure.sentence(notFound, endpoint: choice).contains("OSS_ENDPOINT"))
    }
}

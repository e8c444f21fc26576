//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// Certificate verification against a real TLS server on 127.0.0.1 whose certificate is signed by a throwaway
/// CA generated for the run: refused by default, accepted once the CA is configured, and the host name checked.
///
/// Skipped only when `openssl` is missing and `CI` is not `true`.
@Suite("TLS verification", .enabled(if: TLSTestPKI.isEnabled, "needs the openssl command-line tool"))
struct TLSVerificationTests {
    let logger = Logger.scanning

    /// Sends a GET to `url` and returns the status and the body.
    ///
    /// A shared `HTTPClient` may retry a failed connection (TLS handshake included) until the deadline and only
    /// then report the last failure, so the deadline bounds a failing test; it is not shorter because a loaded
    /// 2-core machine (the whole suite running beside child processes) took more than 3 s for one handshake.
    private func get(_ url: String, through transport: some HTTPTransport) async throws -> (Int, String) {
        let response = try await transport.execute(TransportRequest(url: url), timeout: .seconds(10), logger: logger)
        let body = try await response.body.collect(upTo: 1024)
        return (Int(response.status.code), String(buffer: body))
    }

    /// Runs `body` with a fresh PKI and a server presenting the certificate for 127.0.0.1.
    private func withServer(
        wrongName: Bool = false,
        _ body: (TLSTestPKI, TLSTestServer) async throws -> Void
    ) async throws {
        let pki = try await TLSTestPKI.shared()
        let server = try await TLSTestServer.start(
            certificatePEM: wrongName ? pki.wrongNameCertificatePEM : pki.serverCertificatePEM,
            keyPEM: wrongName ? pki.wrongNameKeyPEM : pki.serverKeyPEM
        )
        do {
            try await body(pki, server)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    private func expectTLSFailure(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ request: () async throws -> Void
    ) async {
        do {
            try await request()
            Issue.record(
                "the request succeeded although the certificate is not trusted",
                sourceLocation: sourceLocation
            )
        } catch let error as TransportError {
            #expect(error.code == .tlsFailed, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a TransportError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFileBodyOverHTTPSIsReadNotSentWithSendfile() async throws {
        let file = try TestFile(size: 2_000_000)
        defer { file.remove() }
        let capture = LogCapture()
        let progress = ProgressLog()
        try await withServer { pki, server in
            try await pki.withCAFile { caPath in
                var configuration = HTTPConfiguration()
                configuration.tls.trustRoots = .pemFile(caPath)
                try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                    let body = TransportRequest.Body.file(
                        path: file.path,
                        offset: 11,
                        length: 1_900_000,
                        chunkSize: 300_000,
                        progress: { progress.add($0) }
                    )
                    let request = TransportRequest(method: .PUT, url: server.url("/upload"), body: body)
                    let response = try await transport.execute(request, timeout: .seconds(30), logger: capture.logger)
                    #expect(response.status == .ok)
                    #expect(response.headers.first(name: "x-received-length") == "1900000")
                    let checksum = file.bytes[11..<1_900_011].reduce(0) { ($0 &* 31) &+ Int($1) }
                    #expect(response.headers.first(name: "x-received-checksum") == "\(checksum)")
                }
            }
        }
        #expect(!capture.text.contains("http.body.sendfile"))
        #expect(progress.counts == [300_000, 300_000, 300_000, 300_000, 300_000, 300_000, 100_000])
    }

    @Test func anUntrustedCertificateIsRefusedByDefault() async throws {
        try await withServer { _, server in
            try await withAsyncHTTPClientTransport { transport in
                await expectTLSFailure { _ = try await get(server.url("/"), through: transport) }
            }
        }
    }

    @Test func anUntrustedCertificateIsRefusedByDefaultOnASharedClient() async throws {
        try await withServer { _, server in
            let transport = AsyncHTTPClientTransport.shared
            await expectTLSFailure { _ = try await get(server.url("/"), through: transport) }
        }
    }

    @Test func theConfiguredCAFileIsTrusted() async throws {
        try await withServer { pki, server in
            try await pki.withCAFile { caPath in
                var configuration = HTTPConfiguration()
                configuration.tls.trustRoots = .pemFile(caPath)
                #expect(configuration.tls.verifiesCertificates)
                try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                    let (status, body) = try await get(server.url("/"), through: transport)
                    #expect(status == 200)
                    #expect(body == TLSTestServer.body)
                }
            }
        }
    }

    @Test func aTrustedCertificateForAnotherHostIsRefused() async throws {
        try await withServer(wrongName: true) { pki, server in
            try await pki.withCAFile { caPath in
                var configuration = HTTPConfiguration()
                configuration.tls.trustRoots = .pemFile(caPath)
                try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                    await expectTLSFailure { _ = try await get(server.url("/"), through: transport) }
                }
            }
        }
    }

    @Test func verificationCanBeTurnedOffExplicitly() async throws {
        try await withServer(wrongName: true) { _, server in
            var configuration = HTTPConfiguration()
            configuration.tls.verifiesCertificates = false
            try await withAsyncHTTPClientTransport(configuration: configuration) { transport in
                let (status, body) = try await get(server.url("/"), through: transport)
                #expect(status == 200)
                #expect(body == TLSTestServer.body)
            }
        }
    }
}

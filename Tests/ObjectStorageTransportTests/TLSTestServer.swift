//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ObjectStorageTestSupport

/// A throwaway certificate authority and server certificates, made with the `openssl` command-line tool in a
/// temporary directory (NIOSSL cannot generate keys or certificates) and kept in memory; the directory is removed
/// as soon as the files are read.
struct TLSTestPKI: Sendable {
    /// The CA's certificate (PEM), what a client is told to trust.
    let caPEM: [UInt8]
    /// The server certificate for `127.0.0.1` and `localhost`, signed by the CA, and its key.
    let serverCertificatePEM: [UInt8]
    let serverKeyPEM: [UInt8]
    /// A certificate signed by the same CA for another name only (`wrong.invalid`), and its key.
    let wrongNameCertificatePEM: [UInt8]
    let wrongNameKeyPEM: [UInt8]

    /// The `openssl` executable on `PATH`, if any.
    static let openssl: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/openssl" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether the TLS tests run: when `openssl` is present, and always on CI (where its absence is a failure).
    static var isEnabled: Bool {
        Self.openssl != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The PKI shared by every test of a run, generated on first use (RSA key generation is slow).
    static func shared() async throws -> TLSTestPKI {
        try await Self.cache.value.get()
    }

    private static let cache = Task<Result<TLSTestPKI, any Error>, Never> {
        do {
            return .success(try await Self.generate())
        } catch {
            return .failure(error)
        }
    }

    /// Generates a CA and two server certificates (one for `127.0.0.1`/`localhost`, one for another name).
    static func generate() async throws -> TLSTestPKI {
        guard let openssl = Self.openssl else {
            throw Failure(description: "the openssl command-line tool is not on PATH (required when CI=true)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectstorage-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.run(
            openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=objectstorage test CA",
                "-keyout", "ca.key", "-out", "ca.pem",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
            in: directory
        )
        try await Self.issue(openssl, name: "server", subjectAltName: "IP:127.0.0.1,DNS:localhost", in: directory)
        try await Self.issue(openssl, name: "wrong", subjectAltName: "DNS:wrong.invalid", in: directory)
        func read(_ name: String) throws -> [UInt8] {
            Array(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        return TLSTestPKI(
            caPEM: try read("ca.pem"),
            serverCertificatePEM: try read("server.pem"),
            serverKeyPEM: try read("server.key"),
            wrongNameCertificatePEM: try read("wrong.pem"),
            wrongNameKeyPEM: try read("wrong.key")
        )
    }

    /// Writes the CA certificate to a new temporary file, runs `body` with its path, and removes the file.
    func withCAFile<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectstorage-ca-\(UUID().uuidString).pem"
        )
        try Data(self.caPEM).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    private static func issue(
        _ openssl: String,
        name: String,
        subjectAltName: String,
        in directory: URL
    ) async throws {
        let extensions = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=\(subjectAltName)

            """
        try extensions.write(to: directory.appendingPathComponent("\(name).ext"), atomically: true, encoding: .utf8)
        try await Self.run(
            openssl,
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name)",
                "-keyout", "\(name).key", "-out", "\(name).csr",
            ],
            in: directory
        )
        try await Self.run(
            openssl,
            [
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "1", "-sha256", "-extfile", "\(name).ext", "-out", "\(name).pem",
            ],
            in: directory
        )
    }

    /// Runs `executable` without blocking a thread of the cooperative pool while it works.
    private static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws {
        let process = try ChildProcess(
            executable: executable,
            arguments: arguments,
            environment: ProcessInfo.processInfo.environment,
            directory: directory.path,
            standardOutput: .discard
        )
        let errors = process.standardError
        let (errorData, status) = try await onOwnThread {
            (errors?.readDataToEndOfFile() ?? Data(), process.waitForExit().status)
        }
        guard status == 0 else {
            let text = String(decoding: errorData, as: UTF8.self)
            throw Failure(description: "openssl \(arguments.first ?? "") failed (\(status)): \(text)")
        }
    }
}

/// An HTTPS/1.1 server on 127.0.0.1 that answers every request with 200 and ``body``, with the length and a
/// checksum of the request body it received as `x-received-length` and `x-received-checksum`.
final class TLSTestServer: Sendable {
    static let body = "hello over verified TLS"

    let channel: any Channel
    let port: Int

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    static func start(certificatePEM: [UInt8], keyPEM: [UInt8]) async throws -> TLSTestServer {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(certificatePEM).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: keyPEM, format: .pem))
        )
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(TLSHelloHandler())
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TLSTestServer(channel: channel)
    }

    func url(_ path: String) -> String {
        "https://127.0.0.1:\(self.port)\(path)"
    }

    func stop() async throws {
        try await self.channel.close()
    }
}

private final class TLSHelloHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var received = ByteBuffer()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head:
            self.received.clear()
            return
        case .body(var chunk):
            self.received.writeBuffer(&chunk)
            return
        case .end:
            break
        }
        let body = ByteBuffer(string: TLSTestServer.body)
        let head = HTTPResponseHead(
            version: .http1_1,
            status: .ok,
            headers: [
                "content-length": "\(body.readableBytes)", "content-type": "text/plain",
                "x-received-length": "\(self.received.readableBytes)",
                "x-received-checksum": "\(self.received.readableBytesView.reduce(0) { ($0 &* 31) &+ Int($1) })",
            ]
        )
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
    }
}

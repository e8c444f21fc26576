//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A throwaway certificate authority and server certificates, made with the `openssl` command-line tool in a
/// temporary directory (NIOSSL cannot generate keys or certificates) and kept in memory; the directory is removed
/// as soon as the files are read.
public struct TLSTestPKI: Sendable {
    /// The CA's certificate (PEM), what a client is told to trust.
    public let caPEM: [UInt8]
    /// The server certificate for `127.0.0.1` and `localhost`, signed by the CA, and its key.
    public let serverCertificatePEM: [UInt8]
    public let serverKeyPEM: [UInt8]
    /// A certificate signed by the same CA for another name only (`wrong.invalid`), and its key.
    public let wrongNameCertificatePEM: [UInt8]
    public let wrongNameKeyPEM: [UInt8]

    /// The `openssl` executable on `PATH`, if any.
    public static let openssl: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/openssl" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether the TLS tests run: when `openssl` is present, and always on CI (where its absence is a failure).
    public static var isEnabled: Bool {
        Self.openssl != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The PKI shared by every test of a run, generated on first use (RSA key generation is slow).
    public static func shared() async throws -> TLSTestPKI {
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
    public static func generate() async throws -> TLSTestPKI {
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
    public func withCAFile<Result>(_ body: (String) async throws -> Result) async throws -> Result {
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

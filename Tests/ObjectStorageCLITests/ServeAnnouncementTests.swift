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

/// What `objstore serve` tells a new user on standard error: `export` lines that, pasted into a shell, point
/// `objstore` at the server (never with a configured secret in the clear), and where the data is: by default
/// a temporary directory, removed on SIGTERM, and never `./objstore-data`.
struct ServeAnnouncementTests {
    /// `objstore serve ARGUMENTS` with both outputs on pipes, read until the export lines are out.
    final class AnnouncingServer {
        let process: ChildProcess
        /// Standard error up to and including the export lines.
        let announcement: String

        private init(process: ChildProcess, announcement: String) {
            self.process = process
            self.announcement = announcement
        }

        static func start(
            _ arguments: [String],
            environment: [String: String] = [:],
            directory: URL? = nil,
            scheme: String = "http"
        ) async throws -> AnnouncingServer {
            let binary = try #require(CLIProcess.binary, "objstore is not built")
            let process = try ChildProcess(
                executable: binary.path,
                arguments: ["serve", "--port", "0", "--log-level", "warning"] + arguments,
                environment: CLIProcess.isolatedEnvironment(environment),
                directory: directory?.path
            )
            let output = try #require(process.standardOutput)
            let error = try #require(process.standardError)
            let listening = try await onOwnThread { CLIProcess.read(output, until: "\n") }
            #expect(listening.hasPrefix("listening on \(scheme)://127.0.0.1:"), "\(listening)")
            let announcement = try await onOwnThread {
                var text = ""
                while !(text.contains("OBS_SECRET_ACCESS_KEY=") && text.hasSuffix("\n")) {
                    let data = error.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                return text
            }
            return AnnouncingServer(process: process, announcement: announcement)
        }

        /// The `export` line that sets `variable`.
        func exportLine(setting variable: String) throws -> String {
            try #require(
                announcement.split(separator: "\n").first { $0.hasPrefix("export \(variable)=") }.map(String.init),
                "no export line sets \(variable): \(announcement)"
            )
        }

        /// SIGTERM, then the exit status.
        func stop() -> Int32 {
            process.stop().status
        }
    }

    /// Runs `objstore ARGUMENTS` in `sh` after `line`, as a user who pasted it would, in an environment with
    /// no credentials or endpoint of its own.
    static func pasted(
        _ line: String,
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> CLIProcess.Result {
        let binary = try #require(CLIProcess.binary)
        return try await CLIProcess.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", line + "\nexec \"$@\"", "sh", binary.path] + arguments,
            environment: CLIProcess.isolatedEnvironment(environment),
            timeLimit: .seconds(60)
        )
    }

    struct Dialect: CustomTestStringConvertible, Sendable {
        var scheme: String
        var endpointVariable: String
        var variables: [String]
        var testDescription: String { scheme }
    }

    static let dialects = [
        Dialect(
            scheme: "s3",
            endpointVariable: "AWS_ENDPOINT_URL",
            variables: ["AWS_REGION=us-east-1", "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY="]
        ),
        Dialect(
            scheme: "oss",
            endpointVariable: "OSS_ENDPOINT",
            variables: ["OSS_REGION=cn-hangzhou", "OSS_ACCESS_KEY_ID=", "OSS_ACCESS_KEY_SECRET="]
        ),
        Dialect(
            scheme: "obs",
            endpointVariable: "OBS_ENDPOINT",
            variables: ["OBS_REGION=cn-north-4", "OBS_ACCESS_KEY_ID=", "OBS_SECRET_ACCESS_KEY="]
        ),
    ]

    @Test("The pasted export line makes mb, cp and ls work", arguments: dialects)
    func exportLineMakesTheCLIWork(_ dialect: Dialect) async throws {
        let server = try await AnnouncingServer.start(["--memory"])
        defer { _ = server.stop() }
        let line = try server.exportLine(setting: dialect.endpointVariable)
        #expect(line.contains("=http://127.0.0.1:"), "\(line)")
        for variable in dialect.variables { #expect(line.contains(" \(variable)"), "\(variable): \(line)") }
        #expect(line.contains(ObjectsLocalServer.accessKeyID) && line.contains(ObjectsLocalServer.secret))

        let scratch = try ObjectsScratch()
        let content = Data("pasted into a shell, \(dialect.scheme)\n".utf8)
        try content.write(to: URL(fileURLWithPath: scratch.path("up.txt")))
        let url = "\(dialect.scheme)://pasted/dir/up.txt"
        for arguments in [
            ["mb", "\(dialect.scheme)://pasted"], ["cp", scratch.path("up.txt"), url],
            ["cp", url, scratch.path("down.txt")],
        ] {
            let result = try await Self.pasted(line, arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let listing = try await Self.pasted(line, ["ls", "--recursive", "\(dialect.scheme)://pasted"])
        #expect(listing.status == 0, "\(listing.standardError)")
        #expect(listing.standardOutput.contains("dir/up.txt"), "\(listing.standardOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("down.txt"))) == content)
        #expect(server.stop() == 0)
    }

    @Test("Each pasted line clears the vendor's session token left from a cloud session")
    func exportLinesClearStaleSessionTokens() async throws {
        let server = try await AnnouncingServer.start(["--memory"])
        defer { _ = server.stop() }
        let stale = [
            "AWS_SESSION_TOKEN": "stale-session-token-aws", "OSS_SESSION_TOKEN": "stale-session-token-oss",
            "OBS_SECURITY_TOKEN": "stale-session-token-obs",
        ]
        for (endpointVariable, tokenVariable) in [
            ("AWS_ENDPOINT_URL", "AWS_SESSION_TOKEN"), ("OSS_ENDPOINT", "OSS_SESSION_TOKEN"),
            ("OBS_ENDPOINT", "OBS_SECURITY_TOKEN"),
        ] {
            let line = try server.exportLine(setting: endpointVariable)
            let shell = try await CLIProcess.run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", line + "\nprintf '%s' \"${\(tokenVariable)-cleared}\""],
                environment: CLIProcess.isolatedEnvironment(stale),
                timeLimit: .seconds(30)
            )
            #expect(shell.status == 0, "\(shell.standardError)")
            #expect(shell.standardOutput == "cleared", "\(tokenVariable) after \(line)")
        }
        #expect(server.stop() == 0)
    }

    @Test("A configured secret is never printed; the lines read it from the environment variable")
    func configuredSecretFromTheEnvironment() async throws {
        let secret = "announce-\(UUID().uuidString)"
        let server = try await AnnouncingServer.start(
            ["--memory", "--access-key-id", "ANNOUNCEDKEY"],
            environment: ["OBJSTORE_SERVE_ACCESS_KEY_SECRET": secret]
        )
        defer { _ = server.stop() }
        #expect(!server.announcement.contains(secret))
        #expect(!server.announcement.contains(ObjectsLocalServer.secret))
        let line = try server.exportLine(setting: "AWS_ENDPOINT_URL")
        #expect(line.contains(#" AWS_SECRET_ACCESS_KEY="$OBJSTORE_SERVE_ACCESS_KEY_SECRET"; "#), "\(line)")
        #expect(line.contains(" AWS_ACCESS_KEY_ID=ANNOUNCEDKEY "), "\(line)")
        let made = try await Self.pasted(
            line,
            ["mb", "s3://configured"],
            environment: ["OBJSTORE_SERVE_ACCESS_KEY_SECRET": secret]
        )
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput == "make_bucket: configured\n")
    }

    @Test("A secret from a relative file path is read back with cat from its absolute path")
    func configuredSecretFromAFile() async throws {
        let scratch = try ObjectsScratch()
        let secret = "announce-file-\(UUID().uuidString)"
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: scratch.path("secret")))
        let server = try await AnnouncingServer.start(
            ["--memory", "--access-key-id", "ANNOUNCEDKEY", "--access-key-secret-file", "secret"],
            directory: scratch.url
        )
        defer { _ = server.stop() }
        #expect(!server.announcement.contains(secret))
        let line = try server.exportLine(setting: "OSS_ENDPOINT")
        #expect(line.contains(#" OSS_ACCESS_KEY_SECRET="$(cat \#(scratch.path("secret")))"; "#), "\(line)")
        // The test's working directory is not the server's, so only the absolute path can work.
        let made = try await Self.pasted(line, ["mb", "oss://configured-file"])
        #expect(made.status == 0, "\(made.standardError)")
    }

    @Test("By default the data is in a new temporary directory, removed on SIGTERM; ./objstore-data is not made")
    func defaultDataDirectoryIsTemporary() async throws {
        let scratch = try ObjectsScratch()
        let temporary = try ObjectsScratch()
        let server = try await AnnouncingServer.start(
            [],
            environment: ["TMPDIR": temporary.url.path],
            directory: scratch.url
        )
        let marker = "objstore: data in "
        let sentence = try #require(
            server.announcement.split(separator: "\n").first { $0.hasPrefix(marker) },
            "\(server.announcement)"
        )
        #expect(sentence.contains("temporary directory removed when the server stops"), "\(sentence)")
        let directory = String(sentence.dropFirst(marker.count).prefix { $0 != "," })
        #expect(directory.hasPrefix(temporary.path("objstore-serve-")), "\(directory)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)

        let line = try server.exportLine(setting: "AWS_ENDPOINT_URL")
        #expect(try await Self.pasted(line, ["mb", "s3://kept-until-exit"]).status == 0)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "the bucket is not on disk")

        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: directory), "\(directory) outlived the server")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("objstore-data")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).isEmpty)
    }

    @Test("--data DIR is named and kept after SIGTERM")
    func givenDataDirectoryIsKept() async throws {
        let scratch = try ObjectsScratch()
        let directory = scratch.path("data")
        let server = try await AnnouncingServer.start(["--data", directory])
        #expect(server.announcement.contains("objstore: data in \(directory)\n"), "\(server.announcement)")
        let line = try server.exportLine(setting: "OBS_ENDPOINT")
        #expect(try await Self.pasted(line, ["mb", "obs://kept"]).status == 0)
        #expect(server.stop() == 0)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("--tls-certificate and --tls-key serve HTTPS only, and the export lines say https")
    func servesHTTPS() async throws {
        guard TLSTestPKI.isEnabled, FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { return }
        let pki = try await TLSTestPKI.shared()
        let scratch = try ObjectsScratch()
        let certificate = scratch.path("server.pem")
        let key = scratch.path("server.key")
        try Data(pki.serverCertificatePEM).write(to: URL(fileURLWithPath: certificate))
        try Data(pki.serverKeyPEM).write(to: URL(fileURLWithPath: key))
        let server = try await AnnouncingServer.start(
            ["--tls-certificate", certificate, "--tls-key", key],
            scheme: "https"
        )
        let line = try server.exportLine(setting: "AWS_ENDPOINT_URL")
        // `export AWS_ENDPOINT_URL='https://127.0.0.1:PORT' AWS_REGION=...`
        let assignment = line.split(separator: " ").dropFirst().first ?? ""
        let endpoint = assignment.dropFirst("AWS_ENDPOINT_URL=".count).trimmingCharacters(in: ["'"])
        #expect(endpoint.hasPrefix("https://127.0.0.1:"), "\(line)")
        try await pki.withCAFile { caFile in
            // Over TLS, trusting the test CA: the server answers an unsigned request as S3 does.
            let secure = try await CLIProcess.run(
                executable: URL(fileURLWithPath: "/usr/bin/curl"),
                arguments: ["-sS", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code}", endpoint + "/"],
                environment: ProcessInfo.processInfo.environment,
                timeLimit: .seconds(20)
            )
            #expect(secure.status == 0, "\(secure.standardError)")
            #expect(secure.standardOutput == "403")
        }
        // Plain HTTP to the same port gets no HTTP answer.
        let plain = try await CLIProcess.run(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            arguments: [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", "http" + endpoint.dropFirst(5) + "/",
            ],
            environment: ProcessInfo.processInfo.environment,
            timeLimit: .seconds(20)
        )
        #expect(plain.standardOutput == "000", "\(plain.standardOutput)")
        #expect(server.stop() == 0)
    }

    @Test("--tls-certificate without --tls-key is refused with a sentence")
    func certificateNeedsKey() async throws {
        let result = try await CLIProcess.run(
            ["serve", "--port", "0", "--tls-certificate", "/nonexistent.pem"],
            environment: CLIProcess.isolatedEnvironment([:])
        )
        #expect(result.status == 64)
        #expect(result.standardError.contains("--tls-certificate and --tls-key go together"), "\(result.standardError)")
    }
}

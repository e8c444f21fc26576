//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorage
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTestSupport
import Synchronization
import Testing

/// Issue 8's suite-wide secret scan (``SecretScanner/shared``, fed by every test's logger, error and
/// checkpoint; `Scripts/test` gives the zero-hits verdict after `swift test`), and proof that the
/// scanner is live: a secret fed through each path is reported.
@Suite("Suite-wide secret scan")
struct SuiteSecretScanTests {
    /// A scanner of its own (a canary must not count against the suite) writing to a temp hits file.
    private static func isolatedScanner() -> (SecretScanner, String) {
        let hitsFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("objstore-secret-hits-\(UUID().uuidString).log").path
        return (SecretScanner(secrets: ScannedSecrets.all, hitsFile: hitsFile), hitsFile)
    }

    @Test("a secret in a log line, at any level and in any spelling, is reported and written down")
    func reportsLogLines() throws {
        let (scanner, hitsFile) = Self.isolatedScanner()
        defer { try? FileManager.default.removeItem(atPath: hitsFile) }
        let withSlashes = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        let withPlus = "CAISFixedSTSToken+with/slash=and+plus/0123456789abcdefABCDEF=="
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        var logger = Logger.scanning(label: "canary", scanner: scanner)
        logger[metadataKey: "attached"] = "nothing secret"
        logger.trace("clean line")
        logger.trace("plain \(TestSecrets.secret)")
        logger.info(
            "percent-encoded",
            metadata: [
                "url": "https://h/o?t=\(withSlashes.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")"
            ]
        )
        logger.error(
            "JSON-escaped",
            metadata: ["body": "{\"t\":\"\(withPlus.replacingOccurrences(of: "/", with: "\\/"))\"}"]
        )

        #expect(scanner.counts.lines == 4)
        #expect(scanner.counts.linesPerLevel[.trace] == 2)
        let expected = [TestSecrets.secret, withSlashes, withPlus].compactMap { ScannedSecrets.all.firstIndex(of: $0) }
        #expect(expected.count == 3)
        #expect(scanner.hits.map(\.secretIndex) == expected)
        #expect(scanner.hits.allSatisfy { $0.origin == "log canary" })
        let written = try String(contentsOfFile: hitsFile, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 3)
        #expect(written.contains("plain <secret #\(expected[0])>"))
        for secret in ScannedSecrets.all {
            #expect(!written.contains(secret), "the hits file must not repeat a secret")
        }
    }

    @Test("a test's own capture still gets its lines at its own level while the scanner gets all")
    func forwardsToCapture() {
        let (scanner, hitsFile) = Self.isolatedScanner()
        defer { try? FileManager.default.removeItem(atPath: hitsFile) }
        let capture = LineCapture()
        var logger = Logger.scanning(label: "capture", alsoTo: capture.handler, scanner: scanner)
        logger.logLevel = .debug
        logger[metadataKey: "os.key"] = "k"
        logger.trace("only scanned")
        logger.debug("both")
        #expect(scanner.counts.lines == 2)
        #expect(capture.lines == ["debug both os.key=k"])
    }

    @Test("an error whose description carries a secret is reported")
    func reportsErrors() {
        struct LeakyError: Error, CustomStringConvertible {
            var description: String { "failed with token \(TestSecrets.sessionToken)" }
        }
        let (scanner, hitsFile) = Self.isolatedScanner()
        defer { try? FileManager.default.removeItem(atPath: hitsFile) }
        scanner.scan(error: LeakyError(), origin: "canary")
        let logger = Logger.scanning(label: "sdk", scanner: scanner)
        logger.debug("operation failed", metadata: ["error.description": "\(LeakyError())"])
        #expect(scanner.counts.errors == 2)
        #expect(scanner.hits.map(\.origin) == ["error canary", "log sdk"])
    }

    @Test("a checkpoint saved by CheckpointStore is read at once and a secret in it is reported")
    func reportsCheckpoints() throws {
        let (scanner, hitsFile) = Self.isolatedScanner()
        defer { try? FileManager.default.removeItem(atPath: hitsFile) }
        let directory = try Scratch()
        let source = directory.file("source.bin")
        try Data("payload".utf8).write(to: URL(fileURLWithPath: source))
        let checkpoint = try UploadCheckpoint(
            identity: UploadCheckpoint.Identity(
                vendor: "s3",
                endpoint: "http://127.0.0.1:9000",
                bucket: "bkt",
                key: "leak-" + TestSecrets.secret,
                sourcePath: source
            ),
            source: FileIdentity.current(path: source),
            partSize: 4,
            uploadId: "upload-1"
        )
        let store = CheckpointStore(logger: .scanning(label: "checkpoint", scanner: scanner))
        try store.save(checkpoint, to: directory.file("source.bin.ucp"))
        #expect(scanner.counts.checkpoints == 1)
        #expect(scanner.hits.map(\.origin) == ["checkpoint " + directory.file("source.bin.ucp")])
    }

    @Test("the CLI's output is scanned, except presign's URL and serve's development key announcement")
    func scansCLIOutput() {
        let (scanner, hitsFile) = Self.isolatedScanner()
        defer { try? FileManager.default.removeItem(atPath: hitsFile) }
        let secret = TestSecrets.secret
        let url = "https://bkt.example/obj?X-Amz-Security-Token=\(TestSecrets.sessionToken)"
        CLIProcess.scan(.init(status: 0, standardOutput: url, standardError: ""), arguments: ["presign"], into: scanner)
        CLIProcess.scan(
            .init(
                status: 0,
                standardOutput: "",
                standardError: "objstore: development key pair (not for production): \(secret)"
            ),
            arguments: ["serve"],
            into: scanner
        )
        #expect(scanner.hits.isEmpty)
        CLIProcess.scan(
            .init(status: 1, standardOutput: "", standardError: "error: \(secret)"),
            arguments: ["ls"],
            into: scanner
        )
        CLIProcess.scan(.init(status: 0, standardOutput: url, standardError: ""), arguments: ["cat"], into: scanner)
        #expect(scanner.counts.outputs == 7)
        #expect(scanner.hits.map(\.origin) == ["objstore ls stderr", "objstore cat stdout"])
    }

    @Test("the suite-wide scanner is wired in and has found nothing so far")
    func suiteWide() async throws {
        let scanner = SecretScanner.shared
        let before = scanner.counts
        Logger.scanning.trace("suite-wide scan liveness line")
        #expect(Logger(label: "bootstrapped").handler is ScanningLogHandler, "LoggingSystem is not bootstrapped")
        // One workload through the shared defaults (client, server and checkpoint loggers): a failure,
        // and a resumable download cut into parts, whose checkpoint is saved after each part.
        let fixture = try await ServerFixture.start()
        let scratch = try Scratch()
        let client = try fixture.client(.s3, credentials: TestSecrets.sessionCredentials)
        await #expect(throws: ServiceError.self) {
            _ = try await client.headObject(bucket: "bkt", key: "missing")
        }
        let options = TransferOptions(partSize: 256, concurrency: 1, enableCheckpoint: true)
        _ = try await client.resumableDownload(bucket: "bkt", key: "obj", to: scratch.file("obj"), options: options)
        await fixture.stop()
        let after = scanner.counts
        #expect(after.lines >= before.lines + 10, "the SDK's and server's lines did not reach the scanner")
        #expect(after.errors > before.errors, "the SDK's failure line did not reach the scanner")
        #expect(after.checkpoints > before.checkpoints, "no checkpoint save reached the scanner")
        #expect(scanner.hits.isEmpty, "secrets found so far: \(scanner.hits)")
    }

    @Test("every distinctive secret literal in Tests/ is on the scanned list")
    func everySecretLiteralIsScanned() throws {
        let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let patterns = try [
            #"\b(?:secretAccessKey|securityToken|accessKeySecret|secret|password):\s*"([^"]*)""#,
            #"let \w*(?:[Ss]ecret|[Tt]oken|[Pp]assword)\w* = "([^"]*)""#,
            #""[A-Z_]*(?:SECRET|TOKEN|PASSWORD)[A-Z_]*"\]?\s*[:=]\s*"([^"]*)""#,
        ].map { pattern in try NSRegularExpression(pattern: pattern) }
        var unlisted: [String] = []
        var checked = 0
        for relative in FileManager.default.subpaths(atPath: testsDirectory.path) ?? []
        where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: testsDirectory.appendingPathComponent(relative), encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for pattern in patterns {
                for match in pattern.matches(in: text, range: range) {
                    guard let valueRange = Range(match.range(at: 1), in: text) else { continue }
                    let value = String(text[valueRange])
                    let isVariableName = value.allSatisfy { $0.isUppercase || $0 == "_" }
                    guard value.count >= 8, !isVariableName, !value.contains("\\("), !value.contains(" ") else {
                        continue
                    }
                    checked += 1
                    if !ScannedSecrets.all.contains(where: { value.contains($0) }) {
                        unlisted.append("\(relative): \(value)")
                    }
                }
            }
        }
        #expect(checked >= 15, "the literal search found too little to mean anything")
        #expect(unlisted.isEmpty, "add these to ScannedSecrets.all: \(unlisted)")
    }
}

/// A handler that keeps rendered lines (`level message key=value…`).
private final class LineCapture: Sendable {
    private let store = Mutex<[String]>([])

    var lines: [String] { store.withLock { $0 } }

    var handler: Handler { Handler(capture: self) }

    struct Handler: LogHandler {
        let capture: LineCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let rendered = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.store.withLock { $0.append("\(event.level) \(event.message) \(rendered)") }
        }
    }
}

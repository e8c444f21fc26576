//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks for the test secrets (``ScannedSecrets``) in every text the suite produces: log lines
/// (through ``ScanningLogHandler``), error descriptions, checkpoint files and the CLI's output.
///
/// `swift test` runs every test target in one process, so ``shared`` sees the whole suite. Each hit
/// is recorded at once: kept in memory (``hits``), printed to standard error and appended to the
/// hits file (`OBJSTORE_SECRET_HITS`, by default `.build/secret-scan/hits.log`) with the secret
/// replaced by its index, so a hit can never pass silently even when no test asks. When the process
/// exits, one summary line (`pid=… lines=… errors=… checkpoints=… outputs=… hits=…`) is appended
/// to the summary file (`OBJSTORE_SECRET_SCAN_SUMMARY`, by default `.build/secret-scan/summary.txt`),
/// which `Scripts/test` reads for its zero-hits verdict. When a variable is unset, its default file is
/// emptied when the scanner starts, so it describes the latest run.
///
/// Creating ``shared`` also bootstraps swift-log's `LoggingSystem` with ``ScanningLogHandler`` (trace
/// level, nothing printed), so a plain `Logger(label:)` made afterwards — a library default such as the
/// local server's — is scanned as well. No test may call `LoggingSystem.bootstrap` itself.
public final class SecretScanner: Sendable {
    /// One occurrence of a secret.
    public struct Hit: Sendable, CustomStringConvertible {
        /// Where the text came from (`log ObjectStorage`, `error …`, `checkpoint <path>`, `objstore stderr`).
        public var origin: String
        /// The secret's index in the scanner's list (the secret itself is never repeated).
        public var secretIndex: Int
        /// The text, with every secret replaced by `<secret #n>`, cut to 400 characters.
        public var excerpt: String

        /// `origin: secret #n in: excerpt`.
        public var description: String { "\(origin): secret #\(secretIndex) in: \(excerpt)" }
    }

    /// How much has been scanned.
    public struct Counts: Sendable, Equatable {
        /// Log lines, all levels.
        public var lines = 0
        /// Log lines per level.
        public var linesPerLevel: [Logger.Level: Int] = [:]
        /// Error descriptions: log lines carrying one (`error.description` metadata or an attached
        /// error) and errors passed to ``SecretScanner/scan(error:origin:)``.
        public var errors = 0
        /// Checkpoint files read right after a save.
        public var checkpoints = 0
        /// Saves whose file was already gone (replaced or removed) when read.
        public var checkpointsMissing = 0
        /// Process outputs (a CLI run's standard error or output).
        public var outputs = 0
        /// Occurrences of a secret.
        public var hits = 0
    }

    private struct State {
        var counts = Counts()
        var hits: [Hit] = []
    }

    /// The message ``ScanningLogHandler`` reacts to by reading the file in `checkpoint.path`: the
    /// trace line `CheckpointStore` logs after each save.
    public static let checkpointSavedMessage = "checkpoint saved"

    /// The process-wide scanner, over ``ScannedSecrets/all``.
    public static let shared: SecretScanner = {
        let environment = ProcessInfo.processInfo.environment
        let directory = packageRoot + "/.build/secret-scan"
        let hitsPath = environment["OBJSTORE_SECRET_HITS"].flatMap { $0.isEmpty ? nil : $0 }
        let summaryPath = environment["OBJSTORE_SECRET_SCAN_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
        if hitsPath == nil || summaryPath == nil {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let scanner = SecretScanner(
            secrets: ScannedSecrets.all,
            hitsFile: hitsPath ?? directory + "/hits.log",
            summaryFile: summaryPath ?? directory + "/summary.txt",
            echoesHits: true
        )
        if hitsPath == nil { _ = FileManager.default.createFile(atPath: directory + "/hits.log", contents: nil) }
        if summaryPath == nil { _ = FileManager.default.createFile(atPath: directory + "/summary.txt", contents: nil) }
        atexit { SecretScanner.shared.writeSummary() }
        LoggingSystem.bootstrap { label in ScanningLogHandler(label: label, scanner: scanner) }
        return scanner
    }()

    /// The secrets, in order (a hit names its index).
    public let secrets: [String]
    /// Where hits are appended, if anywhere.
    public let hitsFile: String?
    /// Where ``writeSummary()`` appends its line, if anywhere.
    public let summaryFile: String?
    /// Whether each hit is also printed to standard error.
    public let echoesHits: Bool
    private let needles: [(index: Int, bytes: [UInt8])]
    private let state = Mutex(State())

    /// Creates a scanner.
    ///
    /// - Parameters:
    ///   - secrets: The values to look for (each also percent-encoded and JSON-escaped).
    ///   - hitsFile: A file each hit is appended to at once, or `nil`.
    ///   - summaryFile: A file ``writeSummary()`` appends to, or `nil`.
    ///   - echoesHits: Whether each hit is also printed to standard error.
    public init(secrets: [String], hitsFile: String? = nil, summaryFile: String? = nil, echoesHits: Bool = false) {
        self.secrets = secrets
        self.hitsFile = hitsFile
        self.summaryFile = summaryFile
        self.echoesHits = echoesHits
        self.needles = secrets.enumerated().flatMap { index, secret in
            ScannedSecrets.spellings(of: secret).map { (index, Array($0.utf8)) }
        }
    }

    /// What has been scanned so far.
    public var counts: Counts { self.state.withLock { $0.counts } }

    /// Every hit so far.
    public var hits: [Hit] { self.state.withLock { $0.hits } }

    /// Scans one rendered log line.
    ///
    /// - Parameters:
    ///   - line: The line: message, metadata, attached error.
    ///   - level: Its level.
    ///   - origin: Where it came from (the logger's label).
    ///   - carriesError: Whether it carries an error's description.
    public func scan(logLine line: String, level: Logger.Level, origin: String, carriesError: Bool) {
        let found = self.find(in: line)
        self.state.withLock { state in
            state.counts.lines += 1
            state.counts.linesPerLevel[level, default: 0] += 1
            if carriesError { state.counts.errors += 1 }
        }
        self.record(found, in: line, origin: "log \(origin)")
    }

    /// Scans an error's descriptions: `description`, `debugDescription` and `localizedDescription`.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - origin: Where it was caught.
    public func scan(error: any Error, origin: String) {
        let text = ["\(error)", String(reflecting: error), error.localizedDescription].joined(separator: "\n")
        let found = self.find(in: text)
        self.state.withLock { $0.counts.errors += 1 }
        self.record(found, in: text, origin: "error \(origin)")
    }

    /// Scans a process's output.
    ///
    /// - Parameters:
    ///   - output: The text.
    ///   - origin: Which process and stream.
    public func scan(output: String, origin: String) {
        let found = self.find(in: output)
        self.state.withLock { $0.counts.outputs += 1 }
        self.record(found, in: output, origin: origin)
    }

    /// Reads the checkpoint just saved at `path` and scans it.
    ///
    /// - Parameter path: The checkpoint file.
    public func scanCheckpoint(at path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            self.state.withLock { $0.counts.checkpointsMissing += 1 }
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        let found = self.find(in: text)
        self.state.withLock { $0.counts.checkpoints += 1 }
        self.record(found, in: text, origin: "checkpoint \(path)")
    }

    /// Appends the summary line to ``summaryFile``.
    public func writeSummary() {
        guard let summaryFile else { return }
        let counts = self.counts
        let levels = Logger.Level.allCases.map { "\($0)=\(counts.linesPerLevel[$0] ?? 0)" }.joined(separator: " ")
        let line =
            "pid=\(getpid()) lines=\(counts.lines) errors=\(counts.errors) checkpoints=\(counts.checkpoints) "
            + "checkpoints_missing=\(counts.checkpointsMissing) outputs=\(counts.outputs) hits=\(counts.hits) "
            + levels + "\n"
        Self.append(line, to: summaryFile)
    }

    /// The indices of the secrets found in `text`.
    func find(in text: String) -> [Int] {
        var text = text
        return text.withUTF8 { haystack -> [Int] in
            var found: [Int] = []
            for needle in self.needles where !found.contains(needle.index) {
                if Self.contains(haystack, needle.bytes) { found.append(needle.index) }
            }
            return found
        }
    }

    /// Whether `needle` occurs in `haystack`: `memchr` for its first byte, `memcmp` for the rest
    /// (C speed even in debug builds, where a byte loop in Swift would dominate the suite's time).
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, needle.count <= haystack.count else {
            return needle.isEmpty
        }
        return needle.withUnsafeBytes { needleBytes -> Bool in
            guard let needleBase = needleBytes.baseAddress else { return false }
            var offset = 0
            let lastStart = haystack.count - needle.count
            while offset <= lastStart {
                guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return false }
                let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                if memcmp(UnsafeRawPointer(base) + position, needleBase, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }

    private func record(_ found: [Int], in text: String, origin: String) {
        guard !found.isEmpty else { return }
        var excerpt = text
        for (index, secret) in self.secrets.enumerated() {
            for spelling in ScannedSecrets.spellings(of: secret) {
                excerpt = excerpt.replacing(spelling, with: "<secret #\(index)>")
            }
        }
        if excerpt.count > 400 { excerpt = String(excerpt.prefix(400)) + "…" }
        excerpt = excerpt.replacing("\n", with: "\\n")
        let hits = found.map { Hit(origin: origin, secretIndex: $0, excerpt: excerpt) }
        self.state.withLock { state in
            state.hits += hits
            state.counts.hits += hits.count
        }
        for hit in hits {
            if self.echoesHits { FileHandle.standardError.write(Data("SECRET SCAN HIT \(hit)\n".utf8)) }
            if let hitsFile { Self.append("\(hit)\n", to: hitsFile) }
        }
    }

    private static let fileLock = Mutex(())

    private static func append(_ line: String, to path: String) {
        fileLock.withLock { _ in
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                FileHandle.standardError.write(Data("secret scan: cannot write \(path) (errno \(errno))\n".utf8))
                return
            }
            defer { close(descriptor) }
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// The package's root directory (this file is `Tests/ObjectStorageTestSupport/SecretScanner.swift`).
    static let packageRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()
}

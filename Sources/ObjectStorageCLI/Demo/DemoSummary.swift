//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What the demo did and verified: printed as a table, and with `--json` as one JSON object on
/// standard output (keys sorted, stable for scripts and tests).
struct DemoSummary: Encodable, Sendable {
    /// A transfer paused part way and resumed: `uploadFile` or `resumableDownload`.
    struct Transfer: Encodable, Sendable {
        /// The part size the transfer used, in bytes (the checkpoint's, when resumed).
        var partSize: Int64
        /// How many parts the object has.
        var parts: Int
        /// How many parts were in flight at once.
        var concurrency: Int
        /// Whether the first attempt was paused (cancelled) part way.
        var paused: Bool
        /// The bytes reported when the first attempt was paused; absent when it finished first.
        var pausedAtBytes: Int64?
        /// Parts the resumed call took from the checkpoint (an upload's are confirmed by ListParts).
        var partsReused: Int
        /// Bytes the resumed call took from the checkpoint.
        var bytesReused: Int64
        /// Parts the resumed call moved: `partsReused + partsTransferred == parts`.
        var partsTransferred: Int
        /// Bytes the resumed call moved: `bytesReused + bytesTransferred` is the object's size.
        var bytesTransferred: Int64
        /// How often the transfer started over because the object changed under it.
        var restarts: Int
        /// The resumed call's duration, in seconds.
        var seconds: Double
        /// ``bytesTransferred`` per second of the resumed call, in MB (10^6 bytes).
        var megabytesPerSecond: Double
        /// What the whole object was checked with, as ``ObjectStorage/TransferResult/Verification`` describes
        /// it: `crc64 <value>`, `crc64nvme <base64>`, `md5 <hex>`, `multipart-etag …` or `none (<reason>)`.
        var verification: String
        /// Whether the whole object's CRC-64 matched the service's.
        var crc64Verified: Bool
        /// Whether every request carried a `Content-MD5` the service checked.
        var md5Verified: Bool
        /// The object's ETag, as the service reported it.
        var etag: String?
    }

    /// One signature scheme's presigned URLs, fetched with plain HTTP.
    struct PresignedCheck: Encodable, Sendable {
        var scheme: String
        /// The ranged GET's status (206 expected).
        var getStatus: UInt
        /// Whether the ranged GET returned the file's first bytes.
        var getBytesMatch: Bool
        var headStatus: UInt
        var headContentLength: Int64?
        /// The status of the GET URL with one signature character changed (403 expected).
        var tamperedStatus: UInt
        var tamperedCode: String?
        var passed: Bool
    }

    /// The SHA-256 of the generated file and of the downloaded one.
    struct Hashes: Encodable, Sendable {
        var source: String
        var downloaded: String
        var equal: Bool
    }

    /// Whether every check passed.
    var ok = false
    var vendor: String
    var endpoint: String?
    var embeddedServer: Bool
    var bucket: String
    var key: String
    var sizeBytes: Int64
    /// The temporary directory that held the files, checkpoints and server data.
    var workDirectory: String
    /// Whether ``workDirectory`` was removed at the end.
    var workDirectoryRemoved = false
    /// What could not be removed (empty when the demo left nothing behind).
    var leftovers: [String] = []
    var upload: Transfer?
    var presigned: [PresignedCheck] = []
    var download: Transfer?
    var sha256: Hashes?
    /// What was checked end to end: `CRC-64`, `Content-MD5`, `SHA-256`, `presigned URLs`.
    var verified: [String] = []
    /// The whole demo's duration.
    var seconds: Double = 0

    /// Whether the transfers and URLs did what the demo claims.
    var passed: Bool {
        guard upload != nil, download != nil, let sha256 else { return false }
        return sha256.equal && !presigned.isEmpty && presigned.allSatisfy(\.passed)
    }

    /// What the checks covered, for ``verified``.
    var coverage: [String] {
        var names: [String] = []
        if upload?.crc64Verified == true || download?.crc64Verified == true { names.append("CRC-64") }
        if upload?.md5Verified == true { names.append("Content-MD5") }
        if sha256?.equal == true { names.append("SHA-256") }
        if !presigned.isEmpty, presigned.allSatisfy(\.passed) { names.append("presigned URLs") }
        return names
    }

    /// Prints the closing table.
    func printTable(on console: DemoConsole) {
        console.heading("Summary")
        var rows = [["", "size", "parts", "reused", "time", "rate", "verified"]]
        if let upload {
            var checks: [String] = []
            if upload.crc64Verified { checks.append("CRC-64") }
            if upload.md5Verified { checks.append("Content-MD5") }
            rows.append([
                "upload", ProgressBar.size(sizeBytes), "\(upload.parts) x \(ProgressBar.size(upload.partSize))",
                "\(upload.partsReused) parts", Self.format(seconds: upload.seconds),
                Self.format(rate: upload.megabytesPerSecond), checks.isEmpty ? "-" : checks.joined(separator: ", "),
            ])
        }
        if let download {
            rows.append([
                "download", ProgressBar.size(sizeBytes), "\(download.parts) x \(ProgressBar.size(download.partSize))",
                ProgressBar.size(download.bytesReused), Self.format(seconds: download.seconds),
                Self.format(rate: download.megabytesPerSecond), download.crc64Verified ? "CRC-64" : "-",
            ])
        }
        if !presigned.isEmpty {
            let passed = presigned.filter(\.passed).count
            rows.append([
                "presigned URLs", "\(presigned.count) schemes", "GET, HEAD", "-", "-", "-",
                "\(passed) of \(presigned.count) pass (tampered: 403)",
            ])
        }
        if let sha256 {
            rows.append([
                "end to end", ProgressBar.size(sizeBytes), "-", "-", Self.format(seconds: seconds), "-",
                sha256.equal ? "SHA-256 source = downloaded" : "SHA-256 DIFFERS",
            ])
        }
        console.table(rows)
        console.say("  time and rate: the resumed call, over the bytes it moved (reused parts not counted)")
        #if DEBUG
        console.say("  this objstore is a debug build (as Scripts/demo makes it); a release build moves bytes faster")
        #endif
        if let sha256 {
            console.say("")
            console.say("  SHA-256 source      \(sha256.source)")
            console.say("  SHA-256 downloaded  \(sha256.downloaded)")
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return ((Double(seconds) + Double(attoseconds) / 1e18) * 1000).rounded() / 1000
    }

    static func rate(bytes: Int64, seconds: Double) -> Double {
        seconds > 0 ? (Double(bytes) / seconds / 1e6 * 10).rounded() / 10 : 0
    }

    private static func format(seconds: Double) -> String { String(format: "%.2f s", seconds) }

    private static func format(rate: Double) -> String { rate > 0 ? String(format: "%.1f MB/s", rate) : "-" }
}

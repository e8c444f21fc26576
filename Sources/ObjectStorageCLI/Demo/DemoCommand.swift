//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Dispatch
import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `objstore demo`: the SDK end to end in one command, with no cloud account. On the embedded local
/// server (or a configured endpoint) it creates a bucket, uploads a generated 64 MiB file with
/// `uploadFile` (paused part way and resumed from its checkpoint), presigns GET and HEAD URLs in every
/// signature scheme and fetches them with plain HTTP (a tampered one is refused), downloads the object
/// with `resumableDownload` (paused and resumed too), compares SHA-256s and prints a summary. It
/// removes everything it created, also after a failure or Ctrl-C.
struct DemoCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the SDK end to end on the embedded local server (no cloud account needed).",
        discussion: """
            Starts the embedded object server (temporary data directory, ephemeral port) unless an endpoint \
            is configured with --endpoint or OSS_ENDPOINT, OBS_ENDPOINT or AWS_ENDPOINT_URL (credentials then \
            come from the environment or profile files, as for every command). Everything the demo creates \
            (files, checkpoints, server data, the object and the bucket) is removed at the end, also after \
            a failure or Ctrl-C.
            """
    )

    @Option(help: "The vendor whose dialect the transfers speak: oss (CRC-64 verified end to end), obs or s3.")
    var vendor: StorageVendor = .oss

    @Option(help: "The size of the generated file, e.g. 64M or 1G (default: 64M, at least 32M).")
    var size: ByteCount?

    @Option(help: "With a configured endpoint: use this existing bucket instead of creating and deleting one.")
    var bucket: String?

    @Flag(help: "Write the summary as one JSON object on standard output; the narration goes to standard error.")
    var json = false

    @OptionGroup(title: "Endpoint Options (default: the embedded server)")
    var remote: RemoteOptions

    private var sizeBytes: Int64 { size?.bytes ?? 64 << 20 }

    func validate() throws {
        guard (32 << 20...16 << 30).contains(sizeBytes) else {
            throw ValidationError("--size must be between 32M and 16G")
        }
    }

    func run() async throws {
        let console = DemoConsole(toStandardError: json)
        let summary = try await Self.interruptible { [self] in try await self.walkThrough(console: console) }
        if json { try JSONOutput.print(summary) }
        guard summary.ok else {
            throw CLIError(status: .failure, message: "demo: some checks failed (see the summary)")
        }
    }

    /// Runs `work` in a task that SIGINT and SIGTERM cancel; the walk-through cleans up and rethrows.
    private static func interruptible(
        _ work: @escaping @Sendable () async throws -> DemoSummary
    ) async throws(CLIError) -> DemoSummary {
        let task = Task { try await work() }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        do {
            return try await task.value
        } catch {
            if task.isCancelled {
                throw CLIError(status: .interrupted, message: "demo: interrupted (see the cleanup line above)")
            }
            throw RemoteFailure.cliError(error)
        }
    }

    /// The whole demo; whatever happens, removes what it created before returning or throwing.
    private func walkThrough(console: DemoConsole) async throws -> DemoSummary {
        let start = ContinuousClock.now
        let vendor = self.vendor
        let embedded = !DemoSite.hasConfiguredEndpoint(
            vendor: vendor,
            options: remote,
            environment: ProcessInfo.processInfo.environment
        )
        if embedded {
            let flags = [
                ("--region", remote.service.region != nil), ("--profile", remote.credentials.profile != nil),
                ("--no-sign-request", remote.noSignRequest), ("--bucket", bucket != nil),
            ]
            if let flag = flags.first(where: \.1)?.0 {
                throw CLIError.usage("demo: \(flag) applies to a configured endpoint (--endpoint) only")
            }
        }
        let run = String(format: "%08x", UInt32.random(in: .min ... .max))
        let bucket = self.bucket ?? "objstore-demo-\(run)"
        let key = embedded ? "demo/sample data.bin" : "objstore-demo-\(run)/sample data.bin"
        let workspace = try DemoWorkspace.create()
        var summary = DemoSummary(
            vendor: vendor.description,
            embeddedServer: embedded,
            bucket: bucket,
            key: key,
            sizeBytes: sizeBytes,
            workDirectory: workspace.path
        )
        var site: DemoSite?
        var createdBucket = false
        var failure: (any Error)?
        do {
            let opened =
                embedded
                ? try await DemoSite.embedded(
                    vendor: vendor,
                    signature: remote.service.signature,
                    dataDirectory: workspace.serverData,
                    logger: remote.logger
                )
                : try await DemoSite.configured(vendor: vendor, options: remote)
            site = opened
            summary.endpoint = opened.endpoint
            let transfers = DemoTransfers(
                site: opened,
                bucket: bucket,
                key: key,
                workspace: workspace,
                size: sizeBytes,
                console: console
            )
            try await steps(transfers, createdBucket: &createdBucket, summary: &summary)
        } catch {
            failure = error
        }
        var (removed, leftovers): ([String], [String]) = ([], [])
        if let site {
            (removed, leftovers) = await cleanUp(
                site,
                bucket: bucket,
                key: key,
                workspace: workspace,
                createdBucket: createdBucket
            )
        }
        summary.workDirectoryRemoved = workspace.remove()
        if summary.workDirectoryRemoved {
            removed.append("removed \(workspace.path)")
        } else {
            leftovers.append("the directory \(workspace.path)")
        }
        summary.leftovers = leftovers
        summary.seconds = DemoSummary.seconds(since: start)
        summary.verified = summary.coverage
        summary.ok = failure == nil && summary.passed && leftovers.isEmpty
        console.heading("Cleanup: " + removed.joined(separator: ", "))
        for leftover in leftovers { console.say("  NOT REMOVED: \(leftover)") }
        if let failure { throw failure }
        summary.printTable(on: console)
        console.say("")
        console.say(
            summary.ok
                ? String(format: "All checks passed in %.1f s.", summary.seconds)
                : "Some checks FAILED: see the summary above."
        )
        return summary
    }

    /// The visible steps: bucket, file, upload, presigned URLs, download, SHA-256.
    private func steps(
        _ transfers: DemoTransfers,
        createdBucket: inout Bool,
        summary: inout DemoSummary
    ) async throws {
        let (site, console, workspace) = (transfers.site, transfers.console, transfers.workspace)
        console.say("objstore demo: uploadFile, presigned URLs and resumableDownload, end to end (\(site.vendor))")
        if site.server != nil {
            console.say("Embedded object server on \(site.endpoint), data in \(workspace.serverData)")
        } else {
            console.say("Endpoint \(site.endpoint)")
        }

        console.heading("1. Bucket and file")
        if bucket == nil {
            try await site.client.createBucket(bucket: transfers.bucket)
            createdBucket = true
            console.say("  created bucket \(transfers.bucket)")
        } else {
            console.say("  using bucket \(transfers.bucket)")
        }
        let sourceHash = try workspace.writeSourceFile(size: sizeBytes)
        console.say(
            "  wrote \(ProgressBar.size(sizeBytes)) of deterministic pseudo-random bytes to \(workspace.sourceFile)"
        )
        console.say("  SHA-256 \(sourceHash)")

        console.heading("2. Upload to \(site.vendor)://\(transfers.bucket)/\(transfers.key)")
        summary.upload = try await transfers.upload()

        console.heading("3. Presigned URLs, fetched with a plain HTTP client (no SDK, no credentials)")
        let presigned = try await DemoPresign.check(
            site: site,
            bucket: transfers.bucket,
            key: transfers.key,
            size: sizeBytes,
            console: console
        )
        summary.presigned = presigned.checks
        var rows = [["scheme", "GET bytes=0-\(DemoPresign.rangeLength - 1)", "HEAD", "tampered GET"]]
        for check in presigned.checks {
            rows.append([
                check.scheme,
                "\(check.getStatus) \(check.getBytesMatch ? "bytes match" : "BYTES DIFFER")",
                "\(check.headStatus) Content-Length \(check.headContentLength.map(String.init) ?? "?")",
                "\(check.tamperedStatus) \(check.tamperedCode ?? "")",
            ])
        }
        console.table(rows)
        if let example = presigned.example { console.say("  for example: \(example)") }

        console.heading("4. Download")
        summary.download = try await transfers.download()

        console.heading("5. Verify")
        let downloadedHash = try workspace.sha256(of: workspace.downloadedFile)
        summary.sha256 = DemoSummary.Hashes(
            source: sourceHash,
            downloaded: downloadedHash,
            equal: sourceHash == downloadedHash
        )
        let verdict = sourceHash == downloadedHash ? "equal" : "DIFFERENT"
        console.say("  SHA-256 of the source and of the downloaded file are \(verdict)")
    }

    /// Removes the object, any paused multipart upload and the bucket (if the demo created it), then
    /// stops the embedded server. Runs in its own task so that Ctrl-C does not cancel the cleanup.
    ///
    /// - Returns: What was removed, and what could not be (for a configured endpoint, what the user
    ///   should remove by hand).
    private func cleanUp(
        _ site: DemoSite,
        bucket: String,
        key: String,
        workspace: DemoWorkspace,
        createdBucket: Bool
    ) async -> (removed: [String], leftovers: [String]) {
        let source = workspace.sourceFile
        let client = site.client
        let pendingUpload = FileManager.default.fileExists(atPath: workspace.sourceFile + ".ucp")
        var (removed, leftovers) = await Task {
            var removed: [String] = []
            var leftovers: [String] = []
            if pendingUpload {
                do {
                    try await client.abandonUploadFile(from: source, options: DemoTransfers.options)
                    removed.append("aborted the paused upload")
                } catch {
                    leftovers.append("a multipart upload of \(key) in \(bucket) (\(RemoteFailure.cliError(error)))")
                }
            }
            do {
                try await client.deleteObject(bucket: bucket, key: key)
                removed.append("deleted the object")
            } catch {
                leftovers.append("the object \(key) in \(bucket) (\(RemoteFailure.cliError(error)))")
            }
            if createdBucket {
                do {
                    try await client.deleteBucket(bucket: bucket)
                    removed.append("deleted the bucket")
                } catch {
                    leftovers.append("the bucket \(bucket) (\(RemoteFailure.cliError(error)))")
                }
            }
            return (removed, leftovers)
        }.value
        if let server = site.server {
            await server.shutdown()
            removed.append("stopped the server")
            // Everything the server stored is in the workspace, which is removed next.
            leftovers = []
        }
        return (removed, leftovers)
    }
}

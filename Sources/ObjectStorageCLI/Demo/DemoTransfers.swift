//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer

/// The demo's two resumable transfers, each paused part way (its task cancelled) and resumed from
/// its checkpoint.
struct DemoTransfers: Sendable {
    /// The part size of both transfers: 5 MiB, the upload default and S3's minimum.
    static let partSize: Int64 = 5 << 20
    /// Parts in flight at once, in both directions.
    static let concurrency = 4

    var site: DemoSite
    var bucket: String
    var key: String
    var workspace: DemoWorkspace
    var size: Int64
    var console: DemoConsole

    /// The options of both transfers: checkpoint on, 5 MiB parts, 4 at a time, and Content-MD5 on
    /// every uploaded part.
    static var options: TransferOptions {
        var options = TransferOptions(partSize: partSize, concurrency: concurrency, enableCheckpoint: true)
        options.enableMD5Check = true
        return options
    }

    /// Where both transfers pause: past 30 % of the file, and past `concurrency` parts' worth of bytes.
    /// Progress counts bytes as they are sent or received, so more than the parts in flight can hold
    /// means that at least one part is complete and recorded in the checkpoint.
    var pauseThreshold: Int64 {
        max(size * 3 / 10, Int64(Self.concurrency) * Self.partSize + 1)
    }

    /// `uploadFile`, paused part way, then resumed.
    func upload() async throws -> DemoSummary.Transfer {
        console.say(
            "uploadFile: \(ProgressBar.size(Self.partSize)) parts, \(Self.concurrency) at a time, "
                + "checkpoint and Content-MD5 on"
        )
        let run = try await pausedThenResumed(
            "upload",
            slowing: .uploadPart,
            pauseNote: " (as Ctrl-C does); "
                + "checkpoint kept: \(URL(fileURLWithPath: workspace.sourceFile).lastPathComponent).ucp"
        ) { bar, progress in
            try await self.site.client.uploadFile(
                from: self.workspace.sourceFile,
                bucket: self.bucket,
                key: self.key,
                options: Self.options,
                logger: bar.logger,
                progress: progress
            )
        }
        let figures = Self.figures(run)
        if run.resumed {
            console.say(
                "  resumed from the checkpoint: \(figures.partsReused) of \(figures.parts) parts reused, "
                    + "\(figures.partsTransferred) uploaded"
                    + (figures.crc64Verified ? "; the whole object's CRC-64 matches the service's" : "")
            )
        }
        return figures
    }

    /// `resumableDownload`, paused part way, then resumed.
    func download() async throws -> DemoSummary.Transfer {
        console.say(
            "resumableDownload: \(ProgressBar.size(Self.partSize)) ranged GETs with If-Match, "
                + "\(Self.concurrency) at a time, checkpoint on"
        )
        let run = try await pausedThenResumed(
            "download",
            slowing: .getObject,
            pauseNote: "; checkpoint kept: \(URL(fileURLWithPath: workspace.downloadedFile).lastPathComponent).dcp"
        ) { bar, progress in
            try await self.site.client.resumableDownload(
                bucket: self.bucket,
                key: self.key,
                to: self.workspace.downloadedFile,
                options: Self.options,
                logger: bar.logger,
                progress: progress
            )
        }
        let result = run.result
        if run.resumed {
            console.say(
                "  resumed from the checkpoint: \(ProgressBar.size(result.bytesReused)) kept, "
                    + "\(ProgressBar.size(result.bytesTransferred)) fetched; verified: \(result.verification)"
            )
        }
        return Self.figures(run)
    }

    /// A transfer that ``pausedThenResumed(_:slowing:pauseNote:_:)`` ran.
    private struct PausedRun {
        /// The result of the run that finished.
        var result: TransferResult
        /// Where the first run paused; `nil` when it finished before the pause point.
        var pausedAt: Int64?
        /// The resumed run's duration; 0 when there was none.
        var seconds: Double
        /// Whether the transfer was paused and resumed (`false` when the first run finished).
        var resumed: Bool
    }

    /// Runs `transfer` with the service slowed down on `slowed` and a progress handler that cancels it past
    /// ``pauseThreshold``, then, unless it finished first, runs it again at full speed, which resumes from the
    /// checkpoint; says on the console where it paused (`by cancelling the task` followed by `pauseNote`).
    /// `transfer` is given the progress bar of its run, and the progress handler to report to.
    private func pausedThenResumed(
        _ noun: String,
        slowing slowed: ServiceOperation,
        pauseNote: String,
        _ transfer: @escaping @Sendable (ProgressBar, @escaping TransferProgressHandler) async throws -> TransferResult
    ) async throws -> PausedRun {
        site.slowDown(slowed, bucket: bucket, key: key)
        let pause = DemoPause(threshold: pauseThreshold)
        let firstBar = ProgressBar(label: noun, indent: "  ")
        let first = try await pause.run { try await transfer(firstBar, Self.handler(firstBar, pause)) }
        site.fullSpeed()
        if let first {
            console.say("  the \(noun) finished before the pause point; nothing to resume")
            return PausedRun(result: first, pausedAt: nil, seconds: 0, resumed: false)
        }
        firstBar.interrupt()
        console.say("  paused at \(Self.describe(pause.pausedAt, of: size)) by cancelling the task\(pauseNote)")
        let bar = ProgressBar(label: noun, indent: "  ")
        let start = ContinuousClock.now
        let result = try await transfer(bar, bar.handler)
        let seconds = DemoSummary.seconds(since: start)
        bar.finish(bar.figures(result, showsVerification: false))
        return PausedRun(result: result, pausedAt: pause.pausedAt, seconds: seconds, resumed: true)
    }

    /// The summary's record of a run.
    private static func figures(_ run: PausedRun) -> DemoSummary.Transfer {
        let result = run.result
        return DemoSummary.Transfer(
            partSize: result.partSize,
            parts: result.partCount,
            concurrency: concurrency,
            paused: run.pausedAt != nil,
            pausedAtBytes: run.pausedAt,
            partsReused: result.partsReused,
            bytesReused: result.bytesReused,
            partsTransferred: result.partsTransferred,
            bytesTransferred: result.bytesTransferred,
            restarts: result.restarts,
            seconds: run.seconds,
            megabytesPerSecond: DemoSummary.rate(bytes: result.bytesTransferred, seconds: run.seconds),
            verification: result.verification.description,
            crc64Verified: isCRC64Verified(result),
            md5Verified: result.contentMD5Verified,
            etag: result.etag
        )
    }

    /// Whether the whole object's CRC-64 matched the service's: OSS's and OBS's CRC-64/XZ, or S3's CRC-64/NVME.
    private static func isCRC64Verified(_ result: TransferResult) -> Bool {
        switch result.verification {
        case .crc64, .crc64NVME: return true
        case .md5, .multipartETag, .none: return false
        }
    }

    private static func handler(_ bar: ProgressBar, _ pause: DemoPause) -> TransferProgressHandler {
        { progress in
            bar.update(progress)
            pause.observe(progress)
        }
    }

    /// `20.0 MiB (31%)`.
    private static func describe(_ bytes: Int64?, of size: Int64) -> String {
        let bytes = bytes ?? 0
        return "\(ProgressBar.size(bytes)) (\(size > 0 ? bytes * 100 / size : 0)%)"
    }
}

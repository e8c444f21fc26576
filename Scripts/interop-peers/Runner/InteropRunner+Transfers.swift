//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engine modes of `memory`, for the benchmark scripts (`Scripts/bench-download`, `Scripts/bench-upload`):
///
/// ```
/// ObjectStorageInteropRunner memory download BUCKET KEY FILE [--part-size N] [--concurrency N] [--no-checkpoint]
/// ObjectStorageInteropRunner memory upload BUCKET KEY FILE [--part-size N] [--concurrency N] [--no-checkpoint]
/// ```
/// Each runs one `resumableDownload` or `uploadFile` (checkpoint on, the engine's defaults unless told), with a
/// progress closure that only counts its calls (so reporting costs what an application's would), and prints one
/// line: bytes, seconds, MB/s and the number of progress reports.
extension InteropRunner {
    struct TransferOptions {
        var partSize: Int64?
        var concurrency: Int?
        var checkpoint = true

        init(_ arguments: ArraySlice<String>) throws {
            var rest = arguments
            while let flag = rest.popFirst() {
                switch flag {
                case "--no-checkpoint":
                    self.checkpoint = false
                case "--part-size":
                    guard let value = rest.popFirst().flatMap({ Int64($0) }) else {
                        throw CheckFailure("--part-size needs a byte count")
                    }
                    self.partSize = value
                case "--concurrency":
                    guard let value = rest.popFirst().flatMap({ Int($0) }) else {
                        throw CheckFailure("--concurrency needs a number")
                    }
                    self.concurrency = value
                default:
                    throw CheckFailure("unknown option \(flag)")
                }
            }
        }
    }

    static func download(
        client: ObjectStorageClient,
        bucket: String,
        key: String,
        file: String,
        options: TransferOptions
    ) async throws {
        var download = ResumableDownloadOptions()
        if let partSize = options.partSize { download.partSize = partSize }
        if let concurrency = options.concurrency { download.concurrency = concurrency }
        download.enableCheckpoint = options.checkpoint
        let reports = ReportCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await client.resumableDownload(
            bucket: bucket,
            key: key,
            to: file,
            options: download,
            progress: { _ in reports.increment() }
        )
        Self.report(
            "download (\(result.verification))",
            bytes: result.objectSize,
            elapsed: clock.now - start,
            reports: reports.value
        )
    }

    static func upload(
        client: ObjectStorageClient,
        bucket: String,
        key: String,
        file: String,
        options: TransferOptions
    ) async throws {
        var request = UploadFileRequest(bucket: bucket, key: key, filePath: file)
        if let partSize = options.partSize { request.partSize = partSize }
        if let concurrency = options.concurrency { request.concurrency = concurrency }
        request.enableCheckpoint = options.checkpoint
        var info = stat()
        guard stat(file, &info) == 0 else { throw CheckFailure("cannot stat \(file)") }
        let reports = ReportCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await client.uploadFile(request, progress: { _ in reports.increment() })
        Self.report(
            "upload (\(result.partsUploaded) parts of \(result.partSize) bytes)",
            bytes: Int64(info.st_size),
            elapsed: clock.now - start,
            reports: reports.value
        )
    }

    static func report(_ operation: String, bytes: Int64, elapsed: Duration, reports: Int) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(bytes) / seconds / 1e6 : 0
        print("\(operation): \(bytes) bytes in \(seconds) s (\(Int(rate)) MB/s), \(reports) progress reports")
    }
}

/// Counts progress reports from the transfer's tasks.
final class ReportCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { self.count.add(1, ordering: .relaxed) }

    var value: Int { self.count.load(ordering: .relaxed) }
}

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
///     [--limit-rate BYTES_PER_SECOND]
/// ObjectStorageInteropRunner memory upload BUCKET KEY FILE [--part-size N] [--concurrency N] [--no-checkpoint]
///     [--limit-rate BYTES_PER_SECOND]
/// ```
/// Each runs one `resumableDownload` or `uploadFile` (checkpoint on, the engines' other defaults unless told), with a
/// progress closure that only counts its calls (so reporting costs what an application's would), and prints one
/// line: bytes, seconds, MB/s and the number of progress reports.
extension InteropRunner {
    struct EngineArguments {
        var partSize: Int64?
        var concurrency: Int?
        var checkpoint = true
        var limitRate: Int64?

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
                case "--limit-rate":
                    guard let value = rest.popFirst().flatMap({ Int64($0) }) else {
                        throw CheckFailure("--limit-rate needs bytes per second")
                    }
                    self.limitRate = value
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

        /// The SDK's options: the same for both directions.
        var transferOptions: TransferOptions {
            var options = TransferOptions(enableCheckpoint: self.checkpoint)
            if let partSize { options.partSize = partSize }
            if let concurrency { options.concurrency = concurrency }
            return options
        }

        /// Runs `body` with `client`, or, with `--limit-rate`, with a client of its own whose HTTP client has that
        /// bandwidth limit (the limit is the client's: one per transfer here).
        func limiting<Result>(
            _ client: ObjectStorageClient,
            _ body: (ObjectStorageClient) async throws -> Result
        ) async throws -> Result {
            guard let limitRate else { return try await body(client) }
            return try await withObjectStorageClient(
                configuration: client.configuration,
                http: HTTPConfiguration(bandwidthLimit: limitRate),
                body
            )
        }
    }

    static func download(
        client: ObjectStorageClient,
        bucket: String,
        key: String,
        file: String,
        options: EngineArguments
    ) async throws {
        let reports = ReportCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await options.limiting(client) { client in
            try await client.resumableDownload(
                bucket: bucket,
                key: key,
                to: file,
                options: options.transferOptions,
                progress: { _ in reports.increment() }
            )
        }
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
        options: EngineArguments
    ) async throws {
        var info = stat()
        guard stat(file, &info) == 0 else { throw CheckFailure("cannot stat \(file)") }
        let reports = ReportCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await options.limiting(client) { client in
            try await client.uploadFile(
                from: file,
                bucket: bucket,
                key: key,
                options: options.transferOptions,
                progress: { _ in reports.increment() }
            )
        }
        Self.report(
            "upload (\(result.partsTransferred) parts of \(result.partSize) bytes)",
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

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The shared-limit mode of `memory`, for `Scripts/bench-limit-rate`:
///
/// ```
/// ObjectStorageInteropRunner memory shared-limit upload|download BUCKET FILE COUNT BYTES_PER_SECOND
/// ```
/// Runs COUNT transfers at once through one client whose transport is limited to BYTES_PER_SECOND in each
/// direction: uploads of FILE to `shared-0`, `shared-1`, … or downloads of those keys to `FILE.0`, `FILE.1`, …;
/// then prints one line: the bytes of all of them, the seconds from the first start to the last end, and MB/s.
extension InteropRunner {
    static func sharedLimit(_ arguments: [String], settings: Settings) async throws {
        guard arguments.count == 5, ["upload", "download"].contains(arguments[0]),
            let count = Int(arguments[3]), (1...64).contains(count), let rate = Int64(arguments[4]), rate > 0
        else {
            throw CheckFailure("usage: memory shared-limit upload|download BUCKET FILE COUNT BYTES_PER_SECOND")
        }
        let (direction, bucket, file) = (arguments[0], arguments[1], arguments[2])
        var info = stat()
        guard stat(file, &info) == 0 else { throw CheckFailure("cannot stat \(file)") }
        let http = HTTPConfiguration(bandwidthLimit: rate)
        try await withObjectStorageClient(configuration: try settings.configuration(), http: http) { client in
            let clock = ContinuousClock()
            let start = clock.now
            let bytes = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let key = "shared-\(index)"
                        let result =
                            direction == "upload"
                            ? try await client.uploadFile(from: file, bucket: bucket, key: key)
                            : try await client.resumableDownload(bucket: bucket, key: key, to: "\(file).\(index)")
                        return result.objectSize
                    }
                }
                return try await group.reduce(0, +)
            }
            Self.report("\(count) \(direction)s sharing one limit", bytes: bytes, elapsed: clock.now - start)
        }
    }
}

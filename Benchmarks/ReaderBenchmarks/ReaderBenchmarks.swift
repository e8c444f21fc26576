//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// One measurement of the seekable reader (Scripts/bench-reader runs it pinned to a core, in rounds, beside its
// peers), against an S3 endpoint with the keys in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. Prints one JSON line:
// the mode, the seconds, the GETs sent and the bytes read.
//
//   ReaderBenchmarks parquet ENDPOINT BUCKET KEY        the last 8 bytes, the footer, three column chunks
//   ReaderBenchmarks parquet-naive ENDPOINT BUCKET KEY  the same reads, each an open-ended GET cut short
//   ReaderBenchmarks sequential ENDPOINT BUCKET KEY     the whole object through chunks(from: 0)
//   ReaderBenchmarks random ENDPOINT BUCKET KEY N C     N reads of 64 KiB at random offsets, C at a time
//   ReaderBenchmarks resumable ENDPOINT BUCKET KEY DIR  resumableDownload to DIR/download.bin (tmpfs: the rate
//                                                       without a disk), deleted afterwards
//   ReaderBenchmarks upload-stream ENDPOINT BUCKET KEY MIB  a proxied body of MIB MiB (64 KiB buffers) through
//                                                       uploadStream (length unknown)
//   ReaderBenchmarks put-stream ENDPOINT BUCKET KEY MIB  the same body as one streamed PutObject of known length
//   ReaderBenchmarks upload-file ENDPOINT BUCKET KEY MIB DIR  the same bytes written to DIR first (untimed), then
//                                                       uploadFile: the multipart upload uploadStream makes, from a file

import Foundation
import ObjectStorage

@main
struct ReaderBenchmarks {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst().map { $0 }
        guard arguments.count >= 4 else {
            FileHandle.standardError.write(
                Data("usage: ReaderBenchmarks MODE ENDPOINT BUCKET KEY [READS CONCURRENCY]\n".utf8)
            )
            exit(64)
        }
        let (mode, bucket, key) = (arguments[0], arguments[2], arguments[3])
        let configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: arguments[1]),
            region: "us-east-1",
            credentials: .environment(.s3)
        )
        var http = HTTPConfiguration()
        http.maximumConnectionsPerHost = 32
        // BENCH_CA_FILE: the CA of an HTTPS server with a certificate of its own (Scripts/bench-upload-stream TLS=1).
        if let caFile = ProcessInfo.processInfo.environment["BENCH_CA_FILE"] { http.tls.trustRoots = .pemFile(caFile) }
        try await withObjectStorageClient(configuration: configuration, http: http) { client in
            let uploads = ["upload-stream", "put-stream", "upload-file"].contains(mode)
            if uploads { _ = try? await client.createBucket(bucket: bucket) }
            var staged: String?
            if mode == "upload-file", arguments.count >= 6, let mebibytes = Int64(arguments[4]) {
                staged = arguments[5] + "/upload-file.bin"
                try await ProxiedBody(size: mebibytes << 20).write(to: arguments[5] + "/upload-file.bin")
            }
            defer { if let staged { try? FileManager.default.removeItem(atPath: staged) } }
            let start = ContinuousClock.now
            var requests = 0
            var bytes: Int64 = 0
            switch mode {
            case "parquet":
                let reader = try await client.openObject(bucket: bucket, key: key)
                for (offset, count) in Self.parquetReads(size: reader.size) {
                    bytes += Int64(try await reader.read(at: offset, count: count).readableBytes)
                }
                requests = reader.requestCount
            case "parquet-naive":
                // As a reader that opens an open-ended GET per seek does: HEAD for the size, then per read a GET
                // from the offset to the end, read until the bytes needed arrived, then dropped.
                let size = try await client.headObject(bucket: bucket, key: key).contentLength ?? 0
                requests = 1
                for (offset, count) in Self.parquetReads(size: size) {
                    var request = GetObjectRequest(bucket: bucket, key: key)
                    request.range = .from(offset)
                    let response = try await client.getObject(request)
                    requests += 1
                    var got = 0
                    for try await chunk in response.body {
                        got += chunk.readableBytes
                        if got >= count { break }
                    }
                    bytes += Int64(min(got, count))
                }
            case "sequential":
                let reader = try await client.openObject(bucket: bucket, key: key)
                bytes += Int64(min(reader.size, Int64(64 * 1024)))  // the tail, read at open
                for try await chunk in reader.chunks(from: 0) {
                    bytes += Int64(chunk.readableBytes)
                }
                requests = reader.requestCount
            case "resumable":
                guard arguments.count >= 5 else { throw CancellationError() }
                let destination = arguments[4] + "/download.bin"
                defer { try? FileManager.default.removeItem(atPath: destination) }
                let result = try await client.resumableDownload(bucket: bucket, key: key, to: destination)
                bytes = result.bytesTransferred
                let part = TransferOptions().partSize
                requests = Int((result.objectSize + part - 1) / part)  // a GET per part
            case "upload-stream", "put-stream":
                guard arguments.count >= 5, let mebibytes = Int64(arguments[4]) else { throw CancellationError() }
                bytes = try await Self.proxiedUpload(
                    client,
                    streamed: mode == "put-stream",
                    bucket: bucket,
                    key: key,
                    size: mebibytes << 20
                )
                requests = 1
            case "upload-file":
                guard let staged else { throw CancellationError() }
                bytes = try await client.uploadFile(from: staged, bucket: bucket, key: key, options: Self.uploadOptions)
                    .objectSize
                requests = 1
            case "random":
                guard arguments.count >= 6, let reads = Int(arguments[4]), let concurrency = Int(arguments[5]) else {
                    throw CancellationError()
                }
                let reader = try await client.openObject(bucket: bucket, key: key)
                let span = max(reader.size - 65_536, 1)
                bytes = try await withThrowingTaskGroup(of: Int64.self) { group in
                    for worker in 0..<concurrency {
                        group.addTask {
                            var generator = SystemRandomNumberGenerator()
                            var total: Int64 = 0
                            for _ in stride(from: worker, to: reads, by: concurrency) {
                                let offset = Int64.random(in: 0..<span, using: &generator)
                                total += Int64(try await reader.read(at: offset, count: 65_536).readableBytes)
                            }
                            return total
                        }
                    }
                    var total: Int64 = 0
                    for try await part in group { total += part }
                    return total
                }
                requests = reader.requestCount
            default:
                throw CancellationError()
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            if uploads {
                // Outside the timing: the service stored every byte (it checked each part's checksum or signature).
                let stored = try await client.headObject(bucket: bucket, key: key).contentLength
                guard stored == bytes else { throw ProxiedBody.ShortObject(stored: stored, sent: bytes) }
            }
            print("{\"mode\":\"\(mode)\",\"seconds\":\(seconds),\"requests\":\(requests),\"bytes\":\(bytes)}")
        }
    }

    /// A Parquet reader's first reads: the 8-byte trailer (footer length and magic), a 48 KiB footer, then three
    /// 1 MiB column chunks spread over the file.
    static func parquetReads(size: Int64) -> [(Int64, Int)] {
        let footer: Int64 = 48 * 1024
        let chunk = 1024 * 1024
        return [
            (size - 8, 8),
            (size - 8 - footer, Int(footer)),
            (size / 8, chunk),
            (size / 2, chunk),
            (size * 3 / 4, chunk),
        ]
    }
}

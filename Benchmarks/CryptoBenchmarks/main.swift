//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageCRC
import Foundation
import ObjectStorageSigning

// Throughput figures for the signing layer, one core (every loop is single-threaded).
//   presigns/s for OSS V1, OSS V4 and S3 SigV4
//   CRC-64/XZ GB/s for each implementation
//   MD5 and SHA-256 MB/s, streaming 1 MiB chunks over 1 GiB, beside `openssl speed -evp` (16384-byte column)
//
// Usage: crypto-benchmarks [--skip-openssl] [--only presign|crc|digest]

let arguments = CommandLine.arguments.dropFirst()
let skipOpenSSL = arguments.contains("--skip-openssl")
let only = arguments.firstIndex(of: "--only").flatMap { index in
    arguments.index(after: index) < arguments.endIndex ? arguments[arguments.index(after: index)] : nil
}
func wants(_ section: String) -> Bool { only == nil || only == section }

print("swift-object-storage crypto benchmarks (release build, one thread; rates per CPU second, as openssl speed)")
if let model = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    .split(separator: "\n").first(where: { $0.hasPrefix("model name") })
{
    print("CPU: \(model.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?")")
}
print("")

if wants("presign") {
    runPresignBenchmarks()
}
if wants("crc") {
    runCRCBenchmarks()
}
if wants("digest") {
    runDigestBenchmarks(compareWithOpenSSL: !skipOpenSSL)
}
print("\n(checksum of results, ignore: \(sink))")

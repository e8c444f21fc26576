//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// MD5 and SHA-256 streaming 1 MiB chunks over 1 GiB, each beside `openssl speed -evp`.
func runDigestBenchmarks(compareWithOpenSSL: Bool) {
    print("Digests  (streaming 1 MiB chunks, 1 GiB per round; target: MD5 within 5% of openssl speed)")
    let chunk = benchmarkBytes(count: 1 << 20, seed: 3)
    let md5 = streamingRate(Hashing.MD5.self, chunk)
    let sha256 = streamingRate(Hashing.SHA256.self, chunk)
    let sha1 = streamingRate(Hashing.SHA1.self, chunk)
    let rows = [("Hashing.MD5", md5, "md5"), ("Hashing.SHA256", sha256, "sha256"), ("Hashing.SHA1", sha1, "sha1")]
    for (label, ours, evpName) in rows {
        var remark = ""
        if compareWithOpenSSL, let theirs = opensslSpeed(algorithm: evpName, seconds: 3) {
            remark =
                "openssl speed -evp \(evpName): \(Int(theirs.rounded())) MB/s, ours/openssl = "
                + String(Int((ours / 1e6 / theirs * 100).rounded())) + "%"
        }
        report("  \(label)", ours / 1e6, "MB/s", remark)
    }
    print("")
}

private func streamingRate<H: HashAlgorithm>(_ type: H.Type, _ chunk: [UInt8]) -> Double {
    bestRate(rounds: 2) {
        var hasher = H()
        chunk.withUnsafeBytes { buffer in
            for _ in 0..<1024 { hasher.update(bufferPointer: buffer) }
        }
        sink &+= UInt64(hasher.finalize()[0])
        return 1024 * chunk.count
    }
}

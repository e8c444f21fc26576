//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// Presigned GET URLs per second for each scheme, with a fixed request, credentials and time; then
/// header-signed GET requests per second (`RequestSigner.sign`, which shares the canonicalization).
func runPresignBenchmarks() {
    print("Presign  (GET, virtual-hosted, 900 s; targets: OSS V4 >= 300k/s, OSS V1 >= 600k/s)")
    let credentials = Credentials(
        accessKeyID: "LTAI5tBenchmarkAccessKeyID",
        secretAccessKey: "BenchmarkSecretAccessKey0123456789abcdef"
    )
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let cases: [(String, SignatureVersion, String, Endpoint)] = [
        ("OSS V1", .ossV1, "cn-hangzhou", .oss(region: "cn-hangzhou")),
        ("OSS V4", .ossV4, "cn-hangzhou", .oss(region: "cn-hangzhou")),
        ("S3 SigV4", .sigV4, "us-east-1", .s3(region: "us-east-1")),
        ("OBS", .obs, "cn-north-4", .obs(region: "cn-north-4")),
    ]
    for (label, version, region, endpoint) in cases {
        let signer = RequestSigner(version: version, region: region)
        let request = SigningRequest(
            method: "GET",
            endpoint: endpoint,
            bucket: "examplebucket",
            key: "reports/2024/Q1 summary-0001.pdf"
        )
        do {
            let rate = try bestRate {
                var total = 0
                for _ in 0..<1000 {
                    let presigned = try signer.presign(
                        request,
                        credentials: credentials,
                        expires: .seconds(900),
                        at: date
                    )
                    total &+= presigned.url.utf8.count
                }
                sink &+= UInt64(total)
                return 1000
            }
            report("  presign \(label)", rate, "presigns/s")
        } catch {
            print("  presign \(label): failed: \(error)")
        }
    }
    for (label, version, region, endpoint) in cases {
        let signer = RequestSigner(version: version, region: region)
        let request = SigningRequest(
            method: "GET",
            endpoint: endpoint,
            bucket: "examplebucket",
            key: "reports/2024/Q1 summary-0001.pdf"
        )
        do {
            let rate = try bestRate {
                var total = 0
                for _ in 0..<1000 {
                    let signed = try signer.sign(request, credentials: credentials, at: date)
                    total &+= signed.headers.count &+ signed.url.utf8.count
                }
                sink &+= UInt64(total)
                return 1000
            }
            report("  sign (headers) \(label)", rate, "signs/s")
        } catch {
            print("  sign (headers) \(label): failed: \(error)")
        }
    }
    print("")
}

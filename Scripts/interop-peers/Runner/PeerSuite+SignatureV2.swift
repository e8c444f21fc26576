//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

extension PeerSuite {
    /// AWS signature V2, header-signed and presigned: PUT, GET (whole and ranged), HEAD and a listing pass;
    /// a wrong secret and a tampered presigned URL are refused with 403.
    func signatureV2() async throws {
        let client = ObjectStorageClient(configuration: try self.settings.configuration(signatureVersion: .awsV2))
        let bytes = Pattern.bytes(count: 50_000, seed: 15)
        let key = "v2/signed.bin"
        _ = try await client.putObject(PutObjectRequest(bucket: self.bucket, key: key, body: .bytes(bytes)))
        let whole = try await client.getObject(GetObjectRequest(bucket: self.bucket, key: key))
        try require(try await whole.body.collect(upTo: 1 << 20).bytes == bytes, "V2 GET returned other bytes")
        var ranged = GetObjectRequest(bucket: self.bucket, key: key)
        ranged.range = .bytes(100...199)
        let part = try await client.getObject(ranged)
        try require(
            try await part.body.collect(upTo: 1 << 20).bytes == Array(bytes[100...199]),
            "V2 ranged GET returned other bytes"
        )
        let head = try await client.headObject(bucket: self.bucket, key: key)
        try require(head.contentLength == Int64(bytes.count), "V2 HEAD length \(head.contentLength ?? -1)")
        var listed: [String] = []
        for try await page in client.listObjects(bucket: self.bucket, prefix: "v2/") {
            listed += page.contents.map(\.key)
        }
        try require(listed == [key], "V2 listing returned \(listed)")

        let presigned = try await client.presign(bucket: self.bucket, key: key, method: "GET", expires: .seconds(300))
        let (status, body) = try await Self.fetch(presigned.url)
        try require(status == 200 && body == bytes, "V2 presigned GET answered \(status) with \(body.count) bytes")
        let (tamperedStatus, _) = try await Self.fetch(Self.tamperSignature(presigned.url))
        try require(tamperedStatus == 403, "tampered V2 presigned GET answered \(tamperedStatus), not 403")

        let wrong = ObjectStorageClient(
            configuration: try self.settings.configuration(
                secret: (self.settings.secretKey ?? "") + "x",
                signatureVersion: .awsV2
            )
        )
        try await requireThrows(ServiceError.self, "V2 GET with a wrong secret") {
            _ = try await wrong.getObject(GetObjectRequest(bucket: self.bucket, key: key))
        } where: {
            $0.statusCode == 403
        }
        try await client.deleteObject(bucket: self.bucket, key: key)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import ObjectStorage
import ObjectStorageSigning

extension PeerSuite {
    /// A presigned GET fetched with plain HTTP returns the object; a tampered signature and another method are 403.
    func presignedGet() async throws {
        let bytes = Pattern.bytes(count: 10_000, seed: 7)
        try await self.put("presigned.bin", bytes)
        let presigned = try await self.client.presign(
            bucket: self.bucket,
            key: "presigned.bin",
            method: "GET",
            expires: .seconds(300)
        )
        let (status, body) = try await Self.fetch(presigned.url)
        try require(status == 200, "presigned GET answered \(status): \(String(decoding: body, as: UTF8.self))")
        try require(body == bytes, "presigned GET returned other bytes")
        let tampered = Self.tamperSignature(presigned.url)
        let (tamperedStatus, _) = try await Self.fetch(tampered)
        try require(tamperedStatus == 403, "tampered presigned GET answered \(tamperedStatus), not 403")
        let (headStatus, _) = try await Self.fetch(presigned.url, method: .PUT)
        try require(headStatus == 403, "presigned GET URL used for PUT answered \(headStatus), not 403")
        let otherKey = presigned.url.replacingFirst("presigned.bin", with: "presigned.bim")
        let (otherStatus, _) = try await Self.fetch(otherKey)
        try require(otherStatus == 403, "presigned URL for another key answered \(otherStatus), not 403")
    }

    /// A client with the right key but a wrong secret is refused with 403 SignatureDoesNotMatch/AccessDenied.
    func wrongSecret() async throws {
        let secret = (self.settings.secretKey ?? "") + "x"
        let client = ObjectStorageClient(configuration: try self.settings.configuration(secret: secret))
        let error = try await requireThrows(ServiceError.self, "PUT with a wrong secret") {
            _ = try await client.putObject(
                PutObjectRequest(bucket: self.bucket, key: "denied.bin", body: .bytes([1, 2, 3]))
            )
        } where: {
            $0.statusCode == 403
        }
        try require(
            error.code == .signatureDoesNotMatch || error.code == .accessDenied,
            "wrong secret refused with code \(error.code)"
        )
        try await requireThrows(ServiceError.self, "GET with a wrong secret") {
            _ = try await client.getObject(GetObjectRequest(bucket: self.bucket, key: "file.bin"))
        } where: {
            $0.statusCode == 403
        }
        try await requireThrows(ServiceError.self, "the denied PUT must not have stored the object") {
            _ = try await self.client.headObject(bucket: self.bucket, key: "denied.bin")
        } where: {
            $0.statusCode == 404
        }
    }

    /// An access key the server does not know is refused with 403.
    func unknownAccessKey() async throws {
        let client = ObjectStorageClient(
            configuration: try self.settings.configuration(accessKey: "AKIAUNKNOWNINTEROP00", secret: "not-a-secret")
        )
        let error = try await requireThrows(ServiceError.self, "list with an unknown access key") {
            for try await _ in client.listObjects(bucket: self.bucket) {}
        } where: {
            $0.statusCode == 403
        }
        let accepted: [ServiceError.Code] = [.invalidAccessKeyID, .accessDenied, .signatureDoesNotMatch]
        try require(accepted.contains(error.code), "unknown key refused with code \(error.code)")
    }

    static func fetch(_ url: String, method: HTTPMethod = .GET) async throws -> (Int, [UInt8]) {
        let (status, _, body) = try await Self.send(url, method: method)
        return (status, body)
    }

    /// Sends a plain HTTP request (no signing) and returns the status, headers and body.
    static func send(
        _ url: String,
        method: HTTPMethod,
        body: [UInt8]? = nil
    ) async throws -> (Int, HTTPHeaders, [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), response.headers, answer.bytes)
    }

    /// The URL with the last character of its signature (SigV4 `X-Amz-Signature`, V2 `Signature`) changed.
    static func tamperSignature(_ url: String) -> String {
        guard let marker = url.firstRange(of: "X-Amz-Signature=") ?? url.firstRange(of: "Signature=") else {
            return url + "x"
        }
        var signature = Array(url[marker.upperBound...].prefix { $0 != "&" })
        guard let last = signature.last else { return url + "x" }
        signature[signature.count - 1] = last == "0" ? "1" : "0"
        let end = url.index(marker.upperBound, offsetBy: signature.count)
        return String(url[..<marker.upperBound]) + String(signature) + String(url[end...])
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = self.firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

extension PeerSuite {
    /// Ranged GETs: closed, open-ended and suffix ranges return the right bytes; where the peer is strict,
    /// the answer is 206 with `Content-Range`, and a range past the end is 416.
    func rangedGet(key: String, size: Int, upload: Bool = true) async throws {
        let seed = upload ? 3 : 0
        let bytes = Pattern.bytes(count: size, seed: seed)
        if upload { try await self.put(key, bytes) }
        let cases: [(ByteRange, ClosedRange<Int>)] = [
            (.bytes(1000...1999), 1000...1999),
            (.bytes(0...0), 0...0),
            (.from(Int64(size - 10)), (size - 10)...(size - 1)),
            (.suffix(500), (size - 500)...(size - 1)),
            (.bytes(Int64(size - 5)...Int64(size + 100)), (size - 5)...(size - 1)),
        ]
        for (range, expected) in cases {
            let (response, body) = try await self.get(key) { $0.range = range }
            try require(body == Array(bytes[expected]), "\(range): got \(body.count) bytes, not bytes \(expected)")
            if self.peer.answersRangesWith206 {
                let contentRange = "bytes \(expected.lowerBound)-\(expected.upperBound)/\(size)"
                try require(
                    response.attributes.contentRange == contentRange,
                    "\(range): Content-Range \(response.attributes.contentRange ?? "nil") != \(contentRange)"
                )
            }
        }
        if self.peer.answersUnsatisfiableRangesWith416 {
            try await requireThrows(ServiceError.self, "range past the end") {
                _ = try await self.get(key) { $0.range = .from(Int64(size + 10)) }
            } where: {
                $0.statusCode == 416 && $0.code == .invalidRange
            }
        }
    }

    /// Conditional GETs with the ETag HEAD reports: If-Match matching → 200 and the bytes; where honoured,
    /// If-Match other → 412 and If-None-Match same → 304; a ranged GET with If-Match (a resumer's request).
    func conditionalGet(key: String, upload: Bool = true) async throws {
        let bytes: [UInt8]
        if upload {
            bytes = Pattern.bytes(count: 64 * 1024, seed: 4)
            try await self.put(key, bytes)
        } else {
            bytes = Pattern.bytes(count: self.settings.fixtureSize ?? 0)
        }
        let head = try await self.client.headObject(bucket: self.bucket, key: key)
        let etag = try head.etag.orFail("HEAD returned no ETag")
        let (_, whole) = try await self.get(key) { $0.ifMatch = etag }
        try require(whole == bytes, "If-Match \(etag) (matching) did not return the object")
        let (_, tail) = try await self.get(key) {
            $0.ifMatch = etag
            $0.range = .from(100)
        }
        try require(tail == Array(bytes[100...]), "ranged GET with If-Match returned other bytes")
        guard self.peer.honoursConditionals else { return }
        try await requireThrows(ServiceError.self, "If-Match with another ETag") {
            _ = try await self.get(key) { $0.ifMatch = "\"0123456789abcdef0123456789abcdef\"" }
        } where: {
            $0.statusCode == 412 && $0.code == .preconditionFailed
        }
        try await requireThrows(ServiceError.self, "ranged If-Match with another ETag") {
            _ = try await self.get(key) {
                $0.ifMatch = "\"0123456789abcdef0123456789abcdef\""
                $0.range = .from(100)
            }
        } where: {
            $0.statusCode == 412
        }
        try await requireThrows(ServiceError.self, "If-None-Match with the current ETag") {
            _ = try await self.get(key) { $0.ifNoneMatch = etag }
        } where: {
            $0.statusCode == 304 && $0.code == .notModified
        }
        let (_, fresh) = try await self.get(key) { $0.ifNoneMatch = "\"0123456789abcdef0123456789abcdef\"" }
        try require(fresh == bytes, "If-None-Match with another ETag did not return the object")
    }

    /// An anonymous client reads a public object whole and its headers.
    func anonymousGet(key: String, size: Int) async throws {
        try require(size > 0, "INTEROP_SIZE is not set")
        let bytes = Pattern.bytes(count: size)
        let (response, body) = try await self.get(key)
        try require(body == bytes, "GET returned \(body.count) bytes that differ from the fixture (\(size))")
        let head = try await self.client.headObject(bucket: self.bucket, key: key)
        try require(head.contentLength == Int64(size), "HEAD length \(head.contentLength ?? -1)")
        let etag = try head.etag.orFail("HEAD returned no ETag")
        try require(response.attributes.etag == etag, "GET ETag \(response.attributes.etag ?? "nil") != HEAD \(etag)")
    }

    func missingKey() async throws {
        try await requireThrows(ServiceError.self, "GET of a missing key") {
            _ = try await self.get("no/such/key.bin")
        } where: {
            $0.statusCode == 404 && $0.code == .noSuchKey
        }
    }
}

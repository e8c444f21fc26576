//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The integrity headers of a configuration document (`PUT ?cors`): `Content-MD5`, and S3's `x-amz-checksum-*`
/// (which boto3 sends instead), checked against the bytes received.
enum DocumentIntegrity {
    /// Checks every integrity header the request sent.
    ///
    /// - Parameter required: Whether the operation needs one (S3: `Content-MD5` or a checksum; OBS: `Content-MD5`).
    /// - Throws: 400 `InvalidRequest` when a required header is missing; `InvalidDigest` or `BadDigest` for a
    ///   `Content-MD5` that is not one or differs; 400 `BadDigest` for a checksum that differs; 501 for a checksum
    ///   algorithm this server does not compute.
    static func check(_ bytes: [UInt8], context: RequestHandler.Context, required: Bool) throws(ServerError) {
        let request = context.request
        let checksums = request.headers.filter { $0.lowercasedName.hasPrefix("x-amz-checksum-") }
            .filter { $0.lowercasedName != "x-amz-checksum-algorithm" && context.dialect.kind == .s3 }
        if let contentMD5 = request.header("content-md5") {
            try Self.checkContentMD5(contentMD5, against: Hashing.MD5.hash(bytes))
        } else if required && (context.dialect.kind == .obs || checksums.isEmpty) {
            throw ServerError.invalidRequest(
                "Missing required header for this request: Content-MD5"
                    + (context.dialect.kind == .s3 ? " OR x-amz-checksum-*" : "")
            )
        }
        for header in checksums {
            let algorithm = String(header.lowercasedName.dropFirst("x-amz-checksum-".count))
            let computed: [UInt8]
            switch algorithm {
            case "crc32": computed = Self.bigEndian(Self.crc32(bytes, polynomial: 0xEDB8_8320))
            case "crc32c": computed = Self.bigEndian(Self.crc32(bytes, polynomial: 0x82F6_3B78))
            case "crc64nvme": computed = Self.bigEndian(CRC64.checksum(bytes, polynomial: .nvme))
            case "sha256": computed = Hashing.SHA256.hash(bytes)
            default: throw ServerError.notImplemented("the x-amz-checksum-\(algorithm) of a configuration document")
            }
            guard ByteEncoding.bytes(fromBase64: header.value.trimmingWhitespace()) == computed else {
                throw ServerError(
                    status: 400,
                    code: "BadDigest",
                    message: "The \(algorithm.uppercased()) you specified did not match the calculated checksum."
                )
            }
        }
    }

    /// Checks a `Content-MD5` header against the MD5 of the bytes received (a document's or an object's).
    ///
    /// - Throws: `InvalidDigest` for a value that is not 16 bytes of base64, `BadDigest` when it differs.
    static func checkContentMD5(_ header: String, against md5: [UInt8]) throws(ServerError) {
        guard let expected = ByteEncoding.bytes(fromBase64: header.trimmingWhitespace()), expected.count == 16 else {
            throw ServerError.invalidDigest
        }
        guard expected == md5 else {
            throw ServerError.badDigest(expected: header, calculated: ByteEncoding.base64(md5))
        }
    }

    /// A reflected CRC-32 (IEEE's polynomial for CRC-32, Castagnoli's for CRC-32C), bit by bit: documents are small.
    static func crc32(_ bytes: [UInt8], polynomial: UInt32) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

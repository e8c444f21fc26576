//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// The CRC-64/XZ (ECMA-182) that OSS, and OBS for an upload that sent one, report about an object or part.
enum Integrity {
    /// OSS's CRC-64 of what it received, on every answer about an object.
    static let crc64Header = "x-oss-hash-crc64ecma"

    /// The answer headers that carry a service's CRC-64/XZ of the whole object or part: OSS's own; OBS's as its
    /// upload sent it (``SentChecksum``), and `x-obs-hash-crc64ecma`, the name OBS's Java SDK reads.
    static let crc64Headers = [crc64Header, OBSChecksumHeader.crc64, "x-obs-hash-crc64ecma"]

    /// The CRC-64/XZ an answer reports (``crc64Headers``), if any.
    static func reportedCRC64(in headers: HTTPHeaders) -> UInt64? {
        crc64Headers.lazy.compactMap { headers.first(name: $0) }.first.flatMap(decimalCRC64)
    }

    /// A CRC-64 written in decimal, as OSS and OBS write it (spaces ignored); `nil` when it is not one.
    static func decimalCRC64(_ text: String) -> UInt64? {
        UInt64(text.filter { $0 != " " })
    }

    /// Compares a transferred CRC with the service's header value.
    static func check(
        computed: UInt64,
        reported: String?,
        operation: String
    ) throws(ObjectStorageError) {
        guard let reported, let expected = decimalCRC64(reported) else { return }
        guard expected == computed else {
            throw .integrityMismatch(
                checksum: "CRC-64/XZ",
                expected: String(expected),
                actual: String(computed),
                operation: operation
            )
        }
    }
}

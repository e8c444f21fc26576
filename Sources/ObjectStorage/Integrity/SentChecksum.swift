//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

/// A CRC-64 of an upload's bytes that the request carries for the service to check against them and keep, so that
/// a later download can verify the object whatever its part boundaries:
/// - S3's CRC-64/NVME, `x-amz-checksum-crc64nvme`, the base64 of its eight big-endian bytes (``S3Checksum``);
/// - OBS's CRC-64/XZ, `x-obs-checksum-crc64ecma`, in decimal, which OBS reports back on the answer and on every
///   GET or HEAD of the object.
///
/// OSS needs none: it reports its own CRC-64 of whatever it received (`x-oss-hash-crc64ecma`).
struct SentChecksum: Sendable, Hashable {
    /// Which service's checksum.
    enum Kind: Sendable, Hashable {
        case s3CRC64NVME
        case obsCRC64

        /// The checksum an upload to `vendor` sends; `nil` for OSS.
        static func of(_ vendor: StorageVendor) -> Kind? {
            switch vendor {
            case .s3: return .s3CRC64NVME
            case .obs: return .obsCRC64
            default: return nil
            }
        }

        /// The CRC's polynomial.
        var polynomial: CRC64.Polynomial {
            switch self {
            case .s3CRC64NVME: return .nvme
            case .obsCRC64: return .xz
            }
        }

        /// The request and answer header that carries it.
        var header: String {
            switch self {
            case .s3CRC64NVME: return S3ChecksumHeader.crc64nvme
            case .obsCRC64: return OBSChecksumHeader.crc64
            }
        }

        /// The value as the header writes it.
        func text(_ value: UInt64) -> String {
            switch self {
            case .s3CRC64NVME: return CRC64.base64(value)
            case .obsCRC64: return String(value)
            }
        }

        /// The value an answer reports, if it reports one in this form.
        func reported(in headers: HTTPHeaders) -> UInt64? {
            switch self {
            case .s3CRC64NVME: return S3Checksum.fullObjectValue(in: headers)
            case .obsCRC64: return headers.first(name: self.header).flatMap(Integrity.decimalCRC64)
            }
        }

        /// What a download or upload verified with a value of this kind.
        func verification(_ value: UInt64) -> TransferResult.Verification {
            switch self {
            case .s3CRC64NVME: return .crc64NVME(value)
            case .obsCRC64: return .crc64(value)
            }
        }
    }

    var kind: Kind
    var value: UInt64

    /// Adds the header to `operation`.
    func add(to operation: inout OperationRequest) {
        operation.header(self.kind.header, self.kind.text(self.value))
    }

    /// Checks that an answer to the request that sent this checksum reports the same value, if it reports one (a
    /// service without the checksum reports none and checks nothing).
    ///
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when the answer reports another value.
    func check(_ headers: HTTPHeaders, operation: String) throws(ObjectStorageError) {
        try self.check(reported: self.kind.reported(in: headers), operation: operation)
    }

    /// Checks that the value an answer reports, if any, is this one.
    ///
    /// - Throws: ``ObjectStorageError/Code/integrityMismatch`` when it reports another value.
    func check(reported: UInt64?, operation: String) throws(ObjectStorageError) {
        guard let reported, reported != self.value else { return }
        throw .integrityMismatch(
            checksum: self.kind == .s3CRC64NVME ? "CRC-64/NVME" : "CRC-64/XZ",
            expected: self.kind.text(reported),
            actual: self.kind.text(self.value),
            operation: operation
        )
    }
}

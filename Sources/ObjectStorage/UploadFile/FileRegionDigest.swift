//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The MD5 and CRC-64 of a region of a file, read once in fixed-size chunks (never the whole region
/// in memory).
struct FileRegionDigest: Sendable {
    /// The chunk size of the read pass: 1 MiB.
    static let chunkSize = 1024 * 1024

    /// The base64 MD5 (for `Content-MD5`), when it was asked for.
    var md5Base64: String?
    /// The CRC-64 of the region, with the polynomial asked for.
    var crc64: UInt64

    /// Reads `range` of the file at `path`.
    ///
    /// - Parameters:
    ///   - md5: Whether to compute the MD5 too.
    ///   - polynomial: The CRC-64's: OSS's CRC-64/XZ by default, or S3's CRC-64/NVME.
    /// - Throws: ``ObjectStorageError/Code/fileSystem`` when the file cannot be opened or is shorter
    ///   than the range; `CancellationError` when the task is cancelled between chunks.
    static func compute(
        path: String,
        range: Range<Int64>,
        md5 computesMD5: Bool = true,
        polynomial: CRC64.Polynomial = .xz
    ) throws -> FileRegionDigest {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ObjectStorageError.fileSystem("open", path: path, errno: errno) }
        defer { close(descriptor) }
        var md5 = computesMD5 ? Hashing.MD5() : nil
        var crc = CRC64(polynomial)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            try Task.checkCancellation()
            let wanted = Int(min(Int64(chunkSize), range.upperBound - offset))
            let count = pread(descriptor, buffer.baseAddress, wanted, off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                throw ObjectStorageError.fileSystem("read", path: path, errno: errno)
            }
            guard count > 0 else {
                throw ObjectStorageError(
                    code: .fileSystem,
                    message: "'\(path)' ended at \(offset) bytes while reading up to \(range.upperBound) (it shrank)"
                )
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            md5?.update(bufferPointer: chunk)
            crc.update(bufferPointer: chunk)
            offset += Int64(count)
        }
        return FileRegionDigest(md5Base64: md5.map { ByteEncoding.base64($0.finalize()) }, crc64: crc.value)
    }
}

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

extension DownloadCheckpoint {
    /// Re-reads every completed part from the temp file and forgets the parts whose CRC64 no longer
    /// matches the recorded one (bytes damaged on disk, or a part marked before its bytes were
    /// durable), so they are fetched again. Reads in 256 KiB chunks; memory stays constant.
    ///
    /// A resumed download runs it before fetching anything (it costs one read of the bytes already downloaded):
    /// checkpoints are saved without syncing the temp file first, so after a power loss a recorded part may
    /// hold zeros (the file, preallocated and synced when created, keeps its size). The final
    /// ``combinedCRC64()`` check would catch the same damage, but only
    /// after the whole download.
    ///
    /// - Returns: The indexes of the parts that were forgotten, ascending.
    /// - Throws: ``CheckpointError`` `.fileSystem` when the temp file cannot be opened or read.
    @discardableResult
    package mutating func verifyCompletedParts() throws(CheckpointError) -> [Int] {
        let descriptor: Int32
        switch POSIXFile.open(tempFilePath, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
        case .success(let value): descriptor = value
        case .failure(let error): throw .fileSystem("open", path: tempFilePath, errno: error.value)
        }
        defer { POSIXFile.closeQuietly(descriptor) }
        let layout = self.layout
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var damaged = [Int]()
        for part in completedParts {
            let range = layout.localRange(ofPart: part.index)
            var crc = CRC64(object.crc64Polynomial)
            var offset = range.lowerBound
            while offset < range.upperBound {
                let wanted = Int(min(Int64(buffer.count), range.upperBound - offset))
                let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .fileSystem("pread", path: tempFilePath, errno: errno)
                }
                if count == 0 { break }  // shorter than expected: the CRC64 will not match
                crc.update(buffer[0..<count])
                offset += Int64(count)
            }
            if offset != range.upperBound || crc.value != part.crc64 { damaged.append(part.index) }
        }
        for index in damaged { markPartMissing(index) }
        return damaged
    }

    /// Whether the file at `path` holds exactly the finished download this checkpoint describes: every
    /// part is recorded done, the file has ``expectedTempFileSize`` bytes and each part's bytes match
    /// the recorded CRC-64 (so the whole file's CRC-64 is ``combinedCRC64()``).
    ///
    /// A run killed after renaming the temp file over the destination but before removing the
    /// checkpoint leaves exactly this state; the next run can finish without fetching anything.
    ///
    /// - Parameter path: The file to check (the download's destination).
    /// - Returns: `true` when the file is the complete download; `false` when it is missing, another
    ///   size or other bytes, or when parts are still missing.
    package func isCompleteDownload(at path: String) -> Bool {
        guard isComplete else { return false }
        switch POSIXFile.linkStatus(path) {
        case .success(let info) where info.isRegularFile && info.size == expectedTempFileSize: break
        default: return false
        }
        var copy = self
        copy.tempFilePath = path
        guard let damaged = try? copy.verifyCompletedParts() else { return false }
        return damaged.isEmpty
    }
}

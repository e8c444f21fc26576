//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The demo's private temporary directory: the source file, the downloaded file, both checkpoints and
/// the embedded server's data all live here, so removing it leaves nothing behind.
struct DemoWorkspace: Sendable {
    /// The directory, created with mode 0700 under `TMPDIR`.
    let path: String

    /// The file uploaded by the demo.
    var sourceFile: String { path + "/sample data.bin" }
    /// The file the download writes (its `.part` temp file and `.dcp` checkpoint sit beside it).
    var downloadedFile: String { path + "/downloaded.bin" }
    /// The embedded server's data directory.
    var serverData: String { path + "/server-data" }

    /// Creates a fresh, uniquely named directory.
    static func create() throws(CLIError) -> DemoWorkspace {
        var template = Array((NSTemporaryDirectory() + "/objstore-demo-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard created else {
            throw CLIError(
                status: .failure,
                message: "demo: cannot create a temporary directory in \(NSTemporaryDirectory())"
            )
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return DemoWorkspace(path: URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// Deletes the directory and everything in it.
    ///
    /// - Returns: Whether the directory is gone.
    @discardableResult
    func remove() -> Bool {
        try? FileManager.default.removeItem(atPath: path)
        return !FileManager.default.fileExists(atPath: path)
    }

    /// Writes `size` bytes of ``DemoData`` to ``sourceFile`` in 1 MiB chunks (never all in memory).
    ///
    /// - Returns: The SHA-256 of the bytes written, in hex.
    func writeSourceFile(size: Int64) throws(CLIError) -> String {
        guard FileManager.default.createFile(atPath: sourceFile, contents: nil),
            let handle = FileHandle(forWritingAtPath: sourceFile)
        else {
            throw CLIError(status: .failure, message: "demo: cannot create '\(sourceFile)'")
        }
        defer { try? handle.close() }
        var data = DemoData()
        var hasher = Hashing.SHA256()
        var chunk = [UInt8](repeating: 0, count: DemoData.chunkSize)
        var remaining = size
        do {
            while remaining > 0 {
                let count = Int(min(Int64(DemoData.chunkSize), remaining))
                if count < chunk.count { chunk = [UInt8](repeating: 0, count: count) }
                data.fill(&chunk)
                hasher.update(chunk)
                try handle.write(contentsOf: chunk)
                remaining -= Int64(count)
            }
            try handle.synchronize()
        } catch {
            throw CLIError(
                status: .failure,
                message: "demo: cannot write '\(sourceFile)': \(error.localizedDescription)"
            )
        }
        return ByteEncoding.hex(hasher.finalize())
    }

    /// The SHA-256 of a file in the workspace, streamed in chunks.
    func sha256(of file: String) throws(CLIError) -> String {
        do {
            return try FileDigest.sha256Hex(ofFileAt: file)
        } catch {
            throw CLIError(status: .failure, message: "demo: cannot read '\(file)' to hash it")
        }
    }
}

/// The content of the demo's file: a SplitMix64 stream from a fixed seed, so every run uploads the same
/// pseudo-random (incompressible) bytes, and any prefix can be regenerated to check a ranged GET.
struct DemoData {
    /// The write size; a multiple of 8, so chunked output equals one continuous stream.
    static let chunkSize = 1 << 20

    private var state: UInt64 = 0x6F62_6A73_746F_7265  // "objstore"

    /// The first `count` bytes of the stream.
    static func prefix(_ count: Int) -> [UInt8] {
        var data = DemoData()
        var bytes = [UInt8](repeating: 0, count: count)
        data.fill(&bytes)
        return bytes
    }

    /// Overwrites `buffer` with the next `buffer.count` bytes (whole 8-byte words; a shorter tail
    /// takes the first bytes of one more word).
    mutating func fill(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                raw.storeBytes(of: next().littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            if offset < raw.count {
                let word = next().littleEndian
                withUnsafeBytes(of: word) { bytes in
                    for index in offset..<raw.count { raw[index] = bytes[index - offset] }
                }
            }
        }
    }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Test files for the samples to upload.
public enum SampleFiles {
    /// Creates `path` with `size` bytes of deterministic, incompressible content, unless it already has
    /// that size.
    ///
    /// - Parameters:
    ///   - path: The file to create.
    ///   - size: Its size in bytes.
    /// - Throws: A file-system error.
    public static func make(_ path: String, size: Int) throws {
        let existing = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        if existing == size { return }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            for index in stride(from: 0, to: count, by: 8) {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                withUnsafeBytes(of: state.littleEndian) { word in
                    for offset in 0..<min(8, count - index) { chunk[index + offset] = word[offset] }
                }
            }
            try handle.write(contentsOf: chunk[..<count])
            remaining -= count
        }
    }
}

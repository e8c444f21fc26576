//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// Streams a local file through a digest without loading it whole.
enum FileDigest {
    static func sha256Hex(ofFileAt path: String) throws(CLIError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .invalidInput("--body-file: cannot open '\(path)'")
        }
        defer { try? handle.close() }
        var hasher = Hashing.SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(chunk)
            }
        } catch {
            throw .invalidInput("--body-file: cannot read '\(path)': \(error.localizedDescription)")
        }
        return ByteEncoding.hex(hasher.finalize())
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Names a directory job's files after a text (a job's description, an object's name): a file name of fixed length
/// and safe characters, the same for the same text on every run.
package enum JobFileName {
    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes, as 16 lowercase hexadecimal digits.
    package static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Runs `openssl speed -evp ALGORITHM -seconds N` and returns its 16384-byte figure in MB/s
/// (openssl prints thousands of bytes per second), or `nil` when openssl is missing or the output
/// has no such column.
func opensslSpeed(algorithm: String, seconds: Int) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl", "speed", "-evp", algorithm, "-seconds", String(seconds)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    guard let header = lines.first(where: { $0.hasPrefix("type") }) else { return nil }
    let columns = header.split(separator: " ", omittingEmptySubsequences: true)
    // "type 16 bytes 64 bytes ... 16384 bytes": the column index counts figures, not words.
    guard let position = columns.firstIndex(of: "16384") else { return nil }
    let figureIndex = (position - 1) / 2
    guard let row = lines.last(where: { $0.lowercased().hasPrefix(algorithm.lowercased()) }) else { return nil }
    let fields = row.split(separator: " ", omittingEmptySubsequences: true).dropFirst()
    guard figureIndex < fields.count else { return nil }
    let field = fields[fields.startIndex + figureIndex]
    guard field.hasSuffix("k"), let thousands = Double(field.dropLast()) else { return nil }
    return thousands * 1000 / 1e6
}

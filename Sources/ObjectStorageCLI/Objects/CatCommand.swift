//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import NIOCore
import ObjectStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `objstore cat URL`: streams an object to standard output.
struct CatCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Write an object's bytes to standard output as they arrive."
    )

    @OptionGroup var object: ObjectArgument

    @Option(help: "Bytes FIRST-LAST (both included), FIRST- (to the end) or, as --range=-COUNT, the last COUNT.")
    var range: String?

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try object.location()
        let byteRange = try range.map(Self.parseRange)
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            var request = GetObjectRequest(bucket: location.bucket, key: location.key ?? "")
            request.range = byteRange
            request.versionID = object.versionID
            let response = try await client.getObject(request)
            for try await chunk in response.body {
                try StandardOutput.send(chunk)
            }
        }
    }

    /// Parses `a-b`, `a-` or `-n` (decimal digits only).
    ///
    /// - Throws: ``CLIError`` `.usage` naming `--range` for anything else, a value past `Int64`, or `b < a`.
    static func parseRange(_ text: String) throws(CLIError) -> ByteRange {
        let invalid = CLIError.usage("--range: '\(text)' is not FIRST-LAST, FIRST- or -COUNT")
        guard let dash = text.firstIndex(of: "-") else { throw invalid }
        let first = text[..<dash]
        let last = text[text.index(after: dash)...]
        // Digits only: Int64 alone would take `+5-9` or `5-+9`.
        guard (first + last).utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { throw invalid }
        switch (Int64(first), Int64(last)) {
        case (let first?, let last?) where first >= 0 && last >= first:
            return .bytes(first...last)
        case (let first?, nil) where first >= 0 && last.isEmpty:
            return .from(first)
        case (nil, let count?) where first.isEmpty && count > 0:
            return .suffix(count)
        default:
            throw invalid
        }
    }
}

/// Unbuffered writes to file descriptor 1.
enum StandardOutput {
    static func send(_ buffer: ByteBuffer) throws(CLIError) {
        let failure: Int32 = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if failure != 0 {
            throw CLIError(status: .failure, message: "standard output: write failed (errno \(failure))")
        }
    }
}

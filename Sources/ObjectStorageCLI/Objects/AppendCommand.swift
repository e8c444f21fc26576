//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import NIOCore
import ObjectStorage

/// `objstore append FILE URL`: appends a file, or standard input, to an OSS or OBS object at its length.
struct AppendCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append a file ('-' for standard input) to an OSS or OBS object, creating it when absent.",
        discussion: """
            The bytes go after the object's current bytes (its length, read with a HEAD), or at --position, which \
            the service refuses with the length it expected when the object ends elsewhere. An answer lost after \
            the bytes were sent is settled by reading the object back (its length and CRC-64, or the appended \
            range): an append is never written twice, and one that another writer overtook fails. Standard input \
            is appended 8 MiB at a time. Prints the next position: the object's length. S3 has no append.
            """
    )

    /// The most bytes one append of standard input sends.
    static let standardInputChunk = 8 << 20
    /// The most bytes one append of a file sends: the services' limit of an appendable object.
    static let fileChunk: Int64 = 5 << 30

    @Argument(help: "The file to append, or '-' for standard input.")
    var file: String

    @Argument(help: "oss://BUCKET/KEY or obs://BUCKET/KEY")
    var url: String

    @Option(help: "Where the object ends (its length); 0 creates it. Without it, a HEAD learns the length.")
    var position: Int64?

    @OptionGroup var remote: RemoteOptions

    func validate() throws {
        if let position, position < 0 { throw ValidationError("--position is a length, not \(position)") }
    }

    func run() async throws {
        let location = try RemoteLocation.object(url)
        let size = try file == "-" ? nil : Self.regularFileSize(file)
        try await ClientFactory(options: remote).run(on: location.vendor) { [file, position] client in
            let key = location.key ?? ""
            var writer: AppendWriter
            if let position {
                writer = AppendWriter(client: client, bucket: location.bucket, key: key, position: position)
            } else {
                writer = try await client.appendWriter(bucket: location.bucket, key: key)
            }
            if let size {
                var offset: Int64 = 0
                repeat {
                    let length = min(Self.fileChunk, size - offset)
                    try await writer.append(.file(path: file, offset: offset, length: length))
                    offset += length
                } while offset < size
            } else {
                var pending = ByteBuffer()
                for try await buffer in StandardInputBytes() {
                    pending.writeImmutableBuffer(buffer)
                    if pending.readableBytes >= Self.standardInputChunk {
                        try await writer.append(.bytes(pending))
                        pending.clear()
                    }
                }
                if pending.readableBytes > 0 || writer.position == 0 { try await writer.append(.bytes(pending)) }
            }
            printLine(String(writer.position))
        }
    }

    /// The size of the regular file at `path`.
    ///
    /// - Throws: ``CLIError`` (invalid input) when there is none.
    static func regularFileSize(_ path: String) throws(CLIError) -> Int64 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? (attributes[.size] as? Int).map(Int64.init)
        else { throw .invalidInput("append: '\(path)' is not a file") }
        return size
    }
}

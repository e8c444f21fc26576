//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore sync SRC DST`: makes a prefix match a directory, or a directory match a prefix.
struct SyncCommand: AsyncParsableCommand, DirectoryTransferCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Make a prefix match a directory or another prefix, or a directory match a prefix.",
        discussion: """
            sync DIR URL/ uploads the files that are new, of another size, or modified after the object; \
            sync URL/ DIR downloads the objects that are new, of another size, or modified after the file \
            (downloaded files get the object's modification time); sync URL/ URL/ copies between two \
            prefixes, server-side within one service. --delete then removes from the \
            destination what the source does not have, only once every transfer succeeded. Names are \
            compared as bytes (no Unicode normalization). Symbolic links are skipped unless \
            --follow-symlinks. A manifest records each finished object, so rerunning the same command \
            after Ctrl-C or a crash skips what is done and resumes large files. Exit status: 0 when \
            everything made it, 1 when an object failed, 2 when names were skipped. With --no-clobber the \
            service refuses to overwrite (no HEAD per file): an object whose key exists is reported as skipped \
            and counted as kept, which leaves the exit status 0.
            """
    )

    @Argument(help: "A local directory or oss://BUCKET/PREFIX, obs://BUCKET/PREFIX, s3://BUCKET/PREFIX")
    var source: String

    @Argument(help: "A remote prefix or a local directory (created if missing)")
    var destination: String

    @Flag(help: "Delete from the destination what the source does not have.")
    var delete = false

    @Flag(help: "Compare sizes only, not modification times.")
    var sizeOnly = false

    @Flag(
        help: """
            Compare contents: the file's MD5 against the object's ETag where the ETag is one (objects uploaded \
            in one request); objects uploaded in parts are compared by size and time.
            """
    )
    var checksum = false

    func validate() throws {
        if sizeOnly && checksum { throw ValidationError("--size-only and --checksum cannot be used together") }
    }

    @Option(help: "The Content-Type of uploaded objects (default: set by the service).")
    var contentType: String?

    @OptionGroup(title: "Directory Options") var directoryFlags: DirectoryFlags

    @OptionGroup(title: "Transfer Options") var transfer: TransferFlags

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func run() async throws {
        try await self.runDirectoryTransfer(
            "sync",
            mode: .sync(
                comparison: sizeOnly ? .sizeOnly : (checksum ? .checksum : .sizeAndModificationTime),
                delete: delete
            )
        )
    }
}

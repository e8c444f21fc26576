//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A command that runs a ``DirectoryTransfer`` (`cp --recursive`, `sync`): the arguments and option groups the
/// transfer reads, which such a command declares.
protocol DirectoryTransferCommand {
    /// A local directory or a remote prefix.
    var source: String { get }
    /// A remote prefix or a local directory.
    var destination: String { get }
    /// `--content-type`, for uploads.
    var contentType: String? { get }
    var directoryFlags: DirectoryFlags { get }
    var transfer: TransferFlags { get }
    var output: OutputFlags { get }
    var remote: RemoteOptions { get }
}

extension DirectoryTransferCommand {
    /// Runs the directory job the command's arguments and options describe.
    ///
    /// - Parameters:
    ///   - command: The command's name, for messages (`cp`, `sync`).
    ///   - mode: Copy everything, or sync.
    func runDirectoryTransfer(_ command: String, mode: DirectoryTransfer.Mode) async throws {
        try await DirectoryTransfer(
            command: command,
            mode: mode,
            source: source,
            destination: destination,
            contentType: contentType,
            flags: directoryFlags,
            transfer: transfer,
            output: output,
            remote: remote
        ).run()
    }
}

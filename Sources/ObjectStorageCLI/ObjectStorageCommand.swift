//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation

@main
struct ObjectStorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objstore",
        abstract:
            "Presign, sign and transfer objects on Alibaba Cloud OSS, Huawei Cloud OBS and S3-compatible storage.",
        version: "objstore 0.1.0-dev (unreleased)",
        subcommands: [
            ListCommand.self, StatCommand.self, CatCommand.self, CopyCommand.self, SyncCommand.self, RemoveCommand.self,
            MakeBucketCommand.self, RemoveBucketCommand.self, PresignCommand.self, PresignPostCommand.self,
            SignCommand.self, ApiCommand.self, TagCommand.self, VersioningCommand.self, RevertCommand.self,
            CORSCommand.self,
            LifecycleCommand.self,
            AppendCommand.self,
            SymlinkCommand.self,
            RestoreCommand.self,
            PolicyCommand.self,
            EncryptionCommand.self,
            ACLCommand.self,
            WhoamiCommand.self,
            ServeCommand.self, DemoCommand.self,
        ]
    )

    /// Runs the command and maps failures to the documented exit statuses: 64 usage, 65 invalid
    /// input, 77 no credentials, 1 other failures (2 when the object is not found). Never a stack trace.
    static func main() async {
        do {
            try Self.checkArgumentsAreUTF8()
            try Self.checkSubcommandIsKnown(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            printError("objstore: \(error.message)")
            exit(withError: ExitCode(error.status.rawValue))
        } catch {
            exit(withError: error)
        }
    }
}

extension ObjectStorageCommand {
    /// Refuses an argument that is not valid UTF-8 (exit 65): Swift would decode it with U+FFFD in
    /// place of the bad bytes, and a key or path built from it would name something else.
    static func checkArgumentsAreUTF8() throws(CLIError) {
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            throw .invalidInput("argument \(index) is not valid UTF-8; keys and paths must be UTF-8")
        }
    }
}

extension ObjectStorageCommand {
    /// Refuses a first argument that names no subcommand (exit 64) with a sentence that says so, where
    /// the argument parser would report the whole line as "N unexpected arguments".
    static func checkSubcommandIsKnown(_ arguments: [String]) throws(CLIError) {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return }
        throw .usage(
            "unknown command '\(first)'. The commands are "
                + names.dropLast().joined(separator: ", ") + "; 'objstore --help' describes them."
        )
    }
}

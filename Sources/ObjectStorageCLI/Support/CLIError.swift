//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A failure the CLI reports with a message and a sysexits(3)-style exit status.
struct CLIError: Error, CustomStringConvertible {
    /// Exit statuses shared by every subcommand.
    enum Status: Int32 {
        case failure = 1
        case notFound = 2
        case usage = 64
        case invalidInput = 65
        case noCredentials = 77
        case interrupted = 130
    }

    var status: Status
    var message: String

    var description: String { message }

    static func usage(_ message: String) -> CLIError { CLIError(status: .usage, message: message) }
    static func invalidInput(_ message: String) -> CLIError { CLIError(status: .invalidInput, message: message) }
    static func noCredentials(_ message: String) -> CLIError { CLIError(status: .noCredentials, message: message) }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

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

    /// A failure to load credentials: 77 when none are found or they are half set, 65 otherwise (a
    /// malformed credentials file).
    static func loadingCredentials(_ error: any Error) -> CLIError {
        guard let error = error as? CredentialsError else { return .invalidInput(sentence("\(error)")) }
        let missing = error.code == .notFound || error.code == .incomplete
        return CLIError(status: missing ? .noCredentials : .invalidInput, message: sentence(error.message))
    }

    /// `text` as a sentence: its first letter capitalized and a final period added where it has no
    /// closing punctuation (`invalid object key 'a': it is empty` → `Invalid object key 'a': it is empty.`).
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        var result = first.uppercased() + text.dropFirst()
        if let last = result.last, !".!?)".contains(last) { result += "." }
        return result
    }
}

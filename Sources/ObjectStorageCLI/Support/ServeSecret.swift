//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The secret `objstore serve` accepts for `--access-key-id`: read from a file or the environment, never
/// from the command line (arguments are visible to every user in `ps` and `/proc/PID/cmdline`).
enum ServeSecret {
    /// The environment variable read when no file is given.
    static let environmentVariable = "OBJSTORE_SERVE_ACCESS_KEY_SECRET"

    /// Reads the secret.
    ///
    /// - Parameters:
    ///   - file: A file holding the secret; trailing CR/LF characters are dropped (as `echo` writes one).
    ///   - environment: The process environment, read when `file` is `nil`.
    /// - Returns: The secret, never empty.
    /// - Throws: ``CLIError`` with status 77 when neither source holds a secret, or 65 when the file cannot
    ///   be read or is empty. The message names the source, never the secret.
    static func load(file: String?, environment: [String: String]) throws(CLIError) -> String {
        if let file {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw .invalidInput("cannot read --access-key-secret-file \(file)")
            }
            var text = String(decoding: data, as: UTF8.self)
            while let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
            guard !text.isEmpty else { throw .invalidInput("--access-key-secret-file \(file) is empty") }
            return text
        }
        guard let secret = environment[environmentVariable], !secret.isEmpty else {
            throw .noCredentials(
                "--access-key-id needs its secret in --access-key-secret-file or \(environmentVariable)"
            )
        }
        return secret
    }
}

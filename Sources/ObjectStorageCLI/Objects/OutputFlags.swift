//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// How much a command that changes things (`cp`, `rm`, `mb`, `rb`) prints, in the aws-cli idiom.
struct OutputFlags: ParsableArguments, Sendable {
    @Flag(
        name: .shortAndLong,
        help: "Print nothing but errors: no progress, no per-object lines, no summary, no warnings."
    )
    var quiet = false

    @Flag(help: "Print only warnings and errors: no progress, no per-object lines, no summary.")
    var onlyShowErrors = false

    /// The level the flags select.
    var level: OutputLevel {
        if quiet { return .errors }
        return onlyShowErrors ? .warnings : .normal
    }

    /// Prints a line that reports what was done (`upload: a to oss://b/a`), unless told to be silent.
    func report(_ line: String) {
        if level == .normal { printLine(line) }
    }
}

/// What a command prints besides its errors, which are always printed.
enum OutputLevel: Sendable, Equatable {
    /// Progress, per-object lines, summaries, notices and warnings.
    case normal
    /// Warnings only.
    case warnings
    /// Nothing.
    case errors
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's description of an `errno` value, for error messages.
package enum SystemErrorText {
    /// The text `strerror` gives for `code`, e.g. "No space left on device" for `ENOSPC`.
    ///
    /// - Parameter code: An `errno` value.
    /// - Returns: The description, or "error N" when the system has none.
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The description followed by the number, e.g. "No space left on device (errno 28)".
    ///
    /// - Parameter code: An `errno` value.
    /// - Returns: The text for a message.
    package static func withNumber(_ code: Int32) -> String {
        "\(describe(code)) (errno \(code))"
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A URL's authority as logs and messages show it: `host[:port]`, never the user info.
package enum URLAuthority {
    /// `host[:port]` of a URL, without user info.
    ///
    /// - Parameter url: An absolute URL, or one without a scheme.
    /// - Returns: The host and port, as the URL writes them.
    package static func host(of url: String) -> String {
        String(split(url).host)
    }

    /// The URL's `host[:port]` (without user info) and what follows the authority (path, query, fragment).
    ///
    /// - Parameter url: An absolute URL, or one without a scheme.
    /// - Returns: The host and port, and the rest of the URL after them.
    static func split(_ url: String) -> (host: Substring, afterAuthority: Substring) {
        var rest = Substring(url)
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        return (authority, rest[authorityEnd...])
    }
}

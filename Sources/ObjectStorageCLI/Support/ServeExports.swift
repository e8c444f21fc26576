//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning

/// The `export` lines `objstore serve` prints so that a shell's `objstore` (and the vendors' own tools) use
/// the running server: one line per dialect, each setting exactly the variables the CLI reads for that URL
/// scheme (``ServiceEnvironment/endpointVariable``, the region variable and the credentials variables of
/// the standard credentials chain), then unsets the vendor's session token variable: a token left from a cloud
/// session would otherwise be sent with the development key. The three lines touch distinct variables, so all
/// three can be pasted at once.
struct ServeExports {
    /// How a line gives the secret.
    enum Secret {
        /// The secret itself: only ever the well-known development secret.
        case development(String)
        /// A shell expansion that reads the secret where the server read it (a file or a variable), so
        /// that the secret is never printed.
        case expansion(String)
    }

    /// The server's address as a URL, `http://HOST:PORT`.
    var endpoint: String
    /// Each vendor's region, in the order of the lines: S3, OSS, OBS.
    var regions: [(vendor: StorageVendor, region: String)]
    /// The accepted access key id.
    var accessKeyID: String
    /// The accepted secret, or where to read it.
    var secret: Secret

    /// The endpoint a client on this machine uses to reach a server bound to `host`: the loopback
    /// address for a wildcard bind, an IPv6 address in brackets.
    ///
    /// - Parameters:
    ///   - host: `--host`.
    ///   - port: The bound port.
    /// - Returns: `http://HOST:PORT`.
    static func endpoint(host: String, port: Int, scheme: String = "http") -> String {
        switch host {
        case "0.0.0.0", "": return "\(scheme)://127.0.0.1:\(port)"
        case "::", "[::]": return "\(scheme)://[::1]:\(port)"
        default:
            return host.contains(":") && !host.hasPrefix("[")
                ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
        }
    }

    /// The shell expansion for a secret read from `file`: `"$(cat 'FILE')"`; like serve, command
    /// substitution drops the trailing newlines.
    ///
    /// - Parameter file: The secret file, as an absolute path.
    /// - Returns: The expansion.
    static func fileExpansion(_ file: String) -> String { "\"$(cat \(shellQuoted(file)))\"" }

    /// The expansion for a secret read from `variable`: `"$VARIABLE"`.
    ///
    /// - Parameter variable: The variable's name.
    /// - Returns: The expansion.
    static func variableExpansion(_ variable: String) -> String { "\"$\(variable)\"" }

    /// One `export` line per dialect, S3 first, then OSS and OBS.
    var lines: [String] {
        self.regions.map { line($0.vendor, region: $0.region) }
    }

    private func line(_ vendor: StorageVendor, region: String) -> String {
        let regionVariable = vendor.regionVariables.first ?? "AWS_REGION"
        let secretText: String
        switch secret {
        case .development(let value): secretText = Self.shellQuoted(value)
        case .expansion(let expansion): secretText = expansion
        }
        return "export \(vendor.endpointVariable)=\(Self.shellQuoted(endpoint)) "
            + "\(regionVariable)=\(Self.shellQuoted(region)) "
            + "\(vendor.accessKeyIDVariable)=\(Self.shellQuoted(accessKeyID)) "
            + "\(vendor.secretAccessKeyVariable)=\(secretText); unset \(vendor.securityTokenVariable)"
    }

    /// `text` as one shell word for sh, bash and zsh: as is when it holds only characters none of them
    /// treats specially (not `[`, which zsh globs), else in single quotes (a quote inside written as `'\''`).
    static func shellQuoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_./:@%+=,".unicodeScalars.contains(scalar))
            }
        if plain { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Validation of remote URL arguments for the object commands.
enum RemoteLocation {
    /// A remote URL that may name a bucket, a prefix or an object.
    static func any(_ text: String) throws(CLIError) -> ObjectURL {
        guard let location = try ObjectURL(parsing: text) else {
            throw .usage("URL: '\(text)' is not oss://BUCKET[/KEY], obs://BUCKET[/KEY] or s3://BUCKET[/KEY]")
        }
        return location
    }

    /// A remote URL that names an object. `recursiveHint` ends the message for a URL that names a bucket, when
    /// the command takes `--recursive`.
    static func object(_ text: String, recursiveHint: String? = nil) throws(CLIError) -> ObjectURL {
        let location = try any(text)
        guard location.key != nil else {
            throw .usage("URL: '\(text)' names a bucket, not an object" + (recursiveHint.map { "; \($0)" } ?? ""))
        }
        return location
    }

    /// A remote URL that names a bucket and nothing else.
    static func bucket(_ text: String) throws(CLIError) -> ObjectURL {
        let location = try any(text)
        guard location.key == nil else {
            throw .usage("URL: '\(text)' names an object; expected \(location.vendor)://BUCKET")
        }
        return location
    }

    /// The URL as printed: `oss://bucket/key`.
    static func text(_ location: ObjectURL) -> String {
        "\(location.vendor)://\(location.bucket)/\(location.key ?? "")"
    }

    /// The last `/`-separated component of a key or path (the key itself when it has none).
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

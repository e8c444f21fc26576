//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Validation of positional URL arguments.
enum RemoteArgument {
    /// A remote URL that must name an object.
    static func object(_ text: String) throws(CLIError) -> ObjectURL {
        guard let location = try ObjectURL(parsing: text) else {
            throw .usage("URL: '\(text)' is not oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY")
        }
        guard location.key != nil else {
            throw .usage("URL: '\(text)' names a bucket but no object key")
        }
        return location
    }
}

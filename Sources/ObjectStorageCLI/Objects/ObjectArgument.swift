//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// The one object a command acts on (`cat`, `stat`, `presign`, `sign`): its URL, checked to name an object.
struct ObjectArgument: ParsableArguments, Sendable {
    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY")
    var url: String

    @Option(help: "A version of the object (`ls --versions` lists them); the current one when not given.")
    var versionID: String?

    /// The object the URL names.
    ///
    /// - Throws: ``CLIError`` `.usage` for a URL that is not a remote one or names a bucket only.
    func location() throws(CLIError) -> ObjectURL {
        try RemoteLocation.object(url)
    }
}

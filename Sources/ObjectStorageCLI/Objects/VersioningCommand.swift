//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage

/// `objstore versioning URL [enable|suspend]`: a bucket's versioning state.
struct VersioningCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "versioning",
        abstract: "Show a bucket's versioning (Enabled, Suspended or Off), or enable or suspend it.",
        discussion: """
            A bucket that was never versioned prints Off, and cannot go back to Off once enabled. \
            'objstore ls --versions URL' lists the versions; 'objstore rb --force URL' removes them with the bucket.
            """
    )

    enum Change: String, ExpressibleByArgument, CaseIterable, Sendable {
        case enable, suspend
    }

    @Argument(help: "oss://BUCKET, obs://BUCKET or s3://BUCKET")
    var url: String

    @Argument(help: "enable or suspend; none prints the state.")
    var change: Change?

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let location = try RemoteLocation.bucket(url)
        let change = self.change
        try await ClientFactory(options: remote).run(on: location.vendor) { client in
            switch change {
            case .enable: try await client.putBucketVersioning(bucket: location.bucket, .enabled)
            case .suspend: try await client.putBucketVersioning(bucket: location.bucket, .suspended)
            case nil: printLine(try await client.getBucketVersioning(bucket: location.bucket)?.rawValue ?? "Off")
            }
        }
    }
}

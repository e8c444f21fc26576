//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// Where the service is and how requests to it are addressed and signed: the flags shared by the commands that
/// talk to a service (``RemoteOptions``) and those that only sign for one (``SigningTargetOptions``).
struct ServiceOptions: ParsableArguments, Sendable {
    @Option(
        help: """
            The endpoint URL (default: OSS_ENDPOINT, OBS_ENDPOINT or AWS_ENDPOINT_URL, else the vendor's \
            public endpoint for the region).
            """
    )
    var endpoint: String?

    @Option(help: "The region (default: OSS_REGION, OBS_REGION or AWS_REGION, the endpoint's, or the vendor's).")
    var region: String?

    @Option(help: "Signature: v1 or v4 for oss; obs, v2 or v4 for obs; sigv4 or v2 for s3.")
    var signature: String?

    @Flag(help: "Use path-style addressing (default for IP addresses and localhost).")
    var pathStyle = false
}

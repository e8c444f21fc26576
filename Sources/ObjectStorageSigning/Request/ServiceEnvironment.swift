//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A vendor's endpoint and region as the environment names them, else as the vendor's conventions do: the one
/// reading shared by `ObjectStorageClient.Configuration.environment(_:variables:)` and `objstore`.
///
/// | Vendor | Endpoint | Region | Default region |
/// |---|---|---|---|
/// | OSS | `OSS_ENDPOINT` | `OSS_REGION` | `cn-hangzhou` |
/// | OBS | `OBS_ENDPOINT` | `OBS_REGION` | `cn-north-4` |
/// | S3 | `AWS_ENDPOINT_URL` | `AWS_REGION`, then `AWS_DEFAULT_REGION` | `us-east-1` |
///
/// An empty variable counts as unset. An endpoint without a scheme gets `https://`.
package struct ServiceEnvironment: Sendable {
    package var vendor: StorageVendor
    package var variables: [String: String]

    /// - Parameters:
    ///   - vendor: The vendor whose variables to read.
    ///   - variables: The variables to read; `nil` reads the process environment.
    package init(_ vendor: StorageVendor, variables: [String: String]? = nil) {
        self.vendor = vendor
        self.variables = variables ?? ProcessInfo.processInfo.environment
    }

    /// The region from the environment, if any.
    package var environmentRegion: String? {
        self.vendor.regionVariables.lazy.compactMap { self.variables[$0] }.first { !$0.isEmpty }
    }

    /// The endpoint the environment names, if any.
    package var configuredEndpoint: String? {
        self.variables[self.vendor.endpointVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The endpoint and signing region: `endpoint` and `region` when given, then the environment, then the
    /// vendor's conventions.
    ///
    /// - Parameters:
    ///   - endpoint: An endpoint URL that wins over the environment, if any.
    ///   - region: A region that wins over the environment, if any.
    /// - Returns: The endpoint with where it came from, and the region to sign for.
    /// - Throws: ``SigningError`` when the endpoint, given or from the environment, is not a URL.
    package func choose(endpoint: String?, region: String?) throws(SigningError) -> (EndpointChoice, String) {
        let choice: EndpointChoice
        if let endpoint {
            choice = EndpointChoice(endpoint: try Endpoint(url: endpoint), origin: .caller)
        } else if let configured = self.configuredEndpoint {
            let hasScheme = configured.contains("://")
            choice = EndpointChoice(
                endpoint: try Endpoint(url: hasScheme ? configured : "https://" + configured),
                origin: .environment(variable: self.vendor.endpointVariable),
                assumesHTTPS: !hasScheme
            )
        } else {
            let region = region ?? self.environmentRegion ?? self.vendor.defaultRegion
            choice = EndpointChoice(
                endpoint: self.vendor.endpoint(region: region),
                origin: .vendorDefault(region: region, variable: self.vendor.endpointVariable)
            )
        }
        return (choice, region ?? self.region(for: choice.endpoint))
    }

    /// The region for signing: the environment's, else the one a vendor endpoint host names
    /// (`oss-cn-hangzhou.aliyuncs.com`, `obs.cn-north-4.myhuaweicloud.com`, `s3.us-west-2.amazonaws.com`),
    /// else the vendor default.
    package func region(for endpoint: Endpoint) -> String {
        if let region = self.environmentRegion { return region }
        let labels = endpoint.host.split(separator: ".").map(String.init)
        switch self.vendor.kind {
        case .oss:
            if let first = labels.first, first.hasPrefix("oss-"), endpoint.host.hasSuffix(".aliyuncs.com") {
                let region = first.dropFirst(4)
                return String(region.hasSuffix("-internal") ? region.dropLast("-internal".count) : region)
            }
        case .obs:
            if labels.count > 2, labels[0] == "obs", endpoint.host.hasSuffix(".myhuaweicloud.com") {
                return labels[1]
            }
        case .s3:
            if labels.count > 3, labels[0] == "s3", endpoint.host.hasSuffix(".amazonaws.com") {
                return labels[1]
            }
        }
        return self.vendor.defaultRegion
    }
}

/// The endpoint chosen for a service and where it came from, so that a failure to reach it can say which setting
/// to change.
package struct EndpointChoice: Sendable, Equatable {
    /// Where the endpoint came from.
    package enum Origin: Sendable, Equatable {
        /// The caller named it (`--endpoint` in `objstore`).
        case caller
        /// An environment variable such as `OSS_ENDPOINT`.
        case environment(variable: String)
        /// The vendor's public endpoint for a region, because neither the caller nor `variable` named one.
        case vendorDefault(region: String, variable: String)
    }

    /// The endpoint (scheme, host and port; it never holds user information).
    package var endpoint: Endpoint
    /// Where it came from.
    package var origin: Origin
    /// Whether the setting named a host without a scheme, taken as `https://` (as the vendors' SDKs take it).
    package var assumesHTTPS: Bool

    package init(endpoint: Endpoint, origin: Origin, assumesHTTPS: Bool = false) {
        self.endpoint = endpoint
        self.origin = origin
        self.assumesHTTPS = assumesHTTPS
    }
}

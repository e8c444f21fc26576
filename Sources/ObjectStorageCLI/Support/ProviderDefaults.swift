//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Endpoint and region defaults per vendor, from the environment or the vendor's conventions.
struct ProviderDefaults {
    var provider: StorageProvider
    var environment: [String: String]

    /// The environment variables that name the region, in the order they are read (never empty).
    var regionVariables: [String] {
        switch provider {
        case .oss: ["OSS_REGION"]
        case .obs: ["OBS_REGION"]
        default: ["AWS_REGION", "AWS_DEFAULT_REGION"]
        }
    }

    /// The region from the environment, if any.
    var environmentRegion: String? {
        regionVariables.lazy.compactMap { self.environment[$0] }.first { !$0.isEmpty }
    }

    var fallbackRegion: String {
        switch provider {
        case .oss: "cn-hangzhou"
        case .obs: "cn-north-4"
        default: "us-east-1"
        }
    }

    /// The environment variable that names the vendor's endpoint.
    var endpointVariable: String {
        switch provider {
        case .oss: "OSS_ENDPOINT"
        case .obs: "OBS_ENDPOINT"
        default: "AWS_ENDPOINT_URL"
        }
    }

    /// The endpoint the environment names, if any.
    var configuredEndpoint: String? {
        environment[endpointVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The endpoint and signing region for the `--endpoint` and `--region` options: an option wins,
    /// then the environment, then the vendor's conventions.
    ///
    /// - Parameters:
    ///   - option: `--endpoint`, if given.
    ///   - region: `--region`, if given.
    /// - Returns: The endpoint, and the region to sign for.
    /// - Throws: ``CLIError`` `.usage` when the endpoint, given or from the environment, is not a URL.
    func resolve(endpoint option: String?, region: String?) throws(CLIError) -> (Endpoint, String) {
        let (choice, signingRegion) = try self.choose(endpoint: option, region: region)
        return (choice.endpoint, signingRegion)
    }

    /// The endpoint as ``resolve(endpoint:region:)`` picks it, with where it came from, and the signing region.
    ///
    /// - Parameters:
    ///   - option: `--endpoint`, if given.
    ///   - region: `--region`, if given.
    /// - Returns: The endpoint and its origin, and the region to sign for.
    /// - Throws: ``CLIError`` `.usage` when the endpoint, given or from the environment, is not a URL.
    func choose(endpoint option: String?, region: String?) throws(CLIError) -> (EndpointChoice, String) {
        let choice: EndpointChoice
        do {
            if let option {
                choice = EndpointChoice(endpoint: try Endpoint(url: option), origin: .option)
            } else {
                choice = try self.endpointChoice(region: region)
            }
        } catch {
            throw .usage("--endpoint: \(error)")
        }
        return (choice, region ?? self.region(for: choice.endpoint))
    }

    /// The endpoint named by the environment, else the vendor's public endpoint for the region.
    func endpoint(region: String?) throws -> Endpoint {
        try self.endpointChoice(region: region).endpoint
    }

    /// The endpoint named by the environment, else the vendor's public endpoint for the region, with its origin.
    private func endpointChoice(region: String?) throws -> EndpointChoice {
        if let configured = configuredEndpoint {
            let withScheme = configured.contains("://") ? configured : "https://" + configured
            return EndpointChoice(
                endpoint: try Endpoint(url: withScheme),
                origin: .environment(variable: endpointVariable)
            )
        }
        let region = region ?? environmentRegion ?? fallbackRegion
        let endpoint: Endpoint
        switch provider {
        case .oss: endpoint = .oss(region: region)
        case .obs: endpoint = .obs(region: region)
        default: endpoint = .s3(region: region)
        }
        return EndpointChoice(endpoint: endpoint, origin: .vendorDefault(region: region, variable: endpointVariable))
    }

    /// The region for signing: the environment's, else the one a vendor endpoint host names
    /// (`oss-cn-hangzhou.aliyuncs.com`, `obs.cn-north-4.myhuaweicloud.com`, `s3.us-west-2.amazonaws.com`),
    /// else the vendor default.
    func region(for endpoint: Endpoint) -> String {
        if let region = environmentRegion { return region }
        let labels = endpoint.host.split(separator: ".").map(String.init)
        switch provider {
        case .oss:
            if let first = labels.first, first.hasPrefix("oss-"), endpoint.host.hasSuffix(".aliyuncs.com") {
                return String(first.dropFirst(4)).replacingInternalSuffix()
            }
        case .obs:
            if labels.count > 2, labels[0] == "obs", endpoint.host.hasSuffix(".myhuaweicloud.com") {
                return labels[1]
            }
        default:
            if labels.count > 3, labels[0] == "s3", endpoint.host.hasSuffix(".amazonaws.com") {
                return labels[1]
            }
        }
        return fallbackRegion
    }
}

/// The endpoint a command talks to and where it came from, so that a failure to reach it says which setting to
/// change (#21: a missing `OSS_ENDPOINT` meant minutes of silence, then a DNS error naming no setting).
struct EndpointChoice: Sendable, Equatable {
    /// Where the endpoint came from.
    enum Origin: Sendable, Equatable {
        /// `--endpoint`.
        case option
        /// An environment variable such as `OSS_ENDPOINT`.
        case environment(variable: String)
        /// The vendor's public endpoint for a region, because neither `--endpoint` nor `variable` was set.
        case vendorDefault(region: String, variable: String)
    }

    /// The endpoint (scheme, host and port; it never holds user information).
    var endpoint: Endpoint
    /// Where it came from.
    var origin: Origin

    /// One sentence naming the endpoint and the setting that chose it, e.g. "The endpoint
    /// https://oss-cn-hangzhou.aliyuncs.com is the default for region cn-hangzhou; set OSS_ENDPOINT or pass
    /// --endpoint to use another."
    var explanation: String {
        switch origin {
        case .option:
            return "The endpoint \(endpoint) was given with --endpoint."
        case .environment(let variable):
            return "The endpoint \(endpoint) is set by \(variable); change it or pass --endpoint to use another."
        case .vendorDefault(let region, let variable):
            return "The endpoint \(endpoint) is the default for region \(region); set \(variable) or pass --endpoint "
                + "to use another."
        }
    }
}

extension String {
    /// `cn-hangzhou-internal` → `cn-hangzhou`: OSS's VPC endpoints sign with the plain region.
    fileprivate func replacingInternalSuffix() -> String {
        hasSuffix("-internal") ? String(dropLast("-internal".count)) : self
    }
}

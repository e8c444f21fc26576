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
        let endpoint: Endpoint
        do {
            endpoint = try option.map { try Endpoint(url: $0) } ?? self.endpoint(region: region)
        } catch {
            throw .usage("--endpoint: \(error)")
        }
        return (endpoint, region ?? self.region(for: endpoint))
    }

    /// The endpoint named by the environment, else the vendor's public endpoint for the region.
    func endpoint(region: String?) throws -> Endpoint {
        if let configured = configuredEndpoint {
            let withScheme = configured.contains("://") ? configured : "https://" + configured
            return try Endpoint(url: withScheme)
        }
        let region = region ?? environmentRegion ?? fallbackRegion
        switch provider {
        case .oss: return .oss(region: region)
        case .obs: return .obs(region: region)
        default: return .s3(region: region)
        }
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

extension String {
    /// `cn-hangzhou-internal` → `cn-hangzhou`: OSS's VPC endpoints sign with the plain region.
    fileprivate func replacingInternalSuffix() -> String {
        hasSuffix("-internal") ? String(dropLast("-internal".count)) : self
    }
}

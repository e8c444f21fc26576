//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

extension EndpointChoice {
    /// One sentence naming the endpoint and the setting that chose it, e.g. "The endpoint
    /// https://oss-cn-hangzhou.aliyuncs.com is the default for region cn-hangzhou; set OSS_ENDPOINT or pass
    /// --endpoint to use another." (#21: a missing `OSS_ENDPOINT` meant minutes of silence, then a DNS error naming
    /// no setting.)
    var explanation: String {
        switch origin {
        case .caller:
            return "The endpoint \(endpoint) was given with --endpoint."
        case .environment(let variable):
            let assumption = assumesHTTPS ? " (without a scheme: https is assumed)" : ""
            return "The endpoint \(endpoint) is set by \(variable)\(assumption); change it or pass --endpoint to use "
                + "another."
        case .vendorDefault(let region, let variable):
            return "The endpoint \(endpoint) is the default for region \(region); set \(variable) or pass --endpoint "
                + "to use another."
        }
    }
}

extension EndpointChoice {
    /// The warning for a setting that names a host without a scheme, or `nil` when it names one.
    var missingSchemeWarning: String? {
        guard assumesHTTPS, case .environment(let variable) = origin else { return nil }
        var plain = endpoint
        plain.scheme = "http"
        return "objstore: warning: \(variable) names no scheme: using \(endpoint); write \(plain) in it if the "
            + "endpoint speaks plain HTTP, or \(endpoint) to silence this warning."
    }
}

extension ServiceEnvironment {
    /// The endpoint and signing region for the `--endpoint` and `--region` options: an option wins, then the
    /// environment, then the vendor's conventions.
    ///
    /// - Throws: ``CLIError`` `.usage` when the endpoint, given or from the environment, is not a URL.
    func resolve(endpoint option: String?, region: String?) throws(CLIError) -> (EndpointChoice, String) {
        do {
            return try self.choose(endpoint: option, region: region)
        } catch {
            throw .usage("--endpoint: \(error)")
        }
    }
}

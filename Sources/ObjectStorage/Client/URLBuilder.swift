//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// Builds the URL of an unsigned (anonymous) request the same way the signers do.
enum URLBuilder {
    static func url(for request: SigningRequest) -> String {
        var url = request.endpoint.scheme + "://"
        url += request.endpoint.hostHeader(bucket: request.bucket, addressing: request.addressing)
        url += "/"
        if request.addressing == .path, let bucket = request.bucket, !bucket.isEmpty {
            url += PercentEncoding.encode(bucket, style: .path) + "/"
        }
        url += PercentEncoding.encode(request.key ?? "", style: .path)
        var separator = "?"
        for parameter in request.query {
            url += separator + PercentEncoding.encode(parameter.name, style: .component)
            if let value = parameter.value {
                url += "=" + PercentEncoding.encode(value, style: .component)
            }
            separator = "&"
        }
        return url
    }
}

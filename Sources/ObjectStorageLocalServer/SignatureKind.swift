//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// How a request is signed, recognised from the `Authorization` scheme or the presign query.
enum SignatureKind: Sendable, Equatable {
    case none
    case ossV1Header
    case ossV1Query
    case ossV4Header
    case ossV4Query
    case obsHeader
    case obsQuery
    case awsV2Header
    case awsV2Query
    case awsV4Header
    case awsV4Query

    init(_ request: IncomingRequest) {
        if let authorization = request.header("authorization")?.trimmingWhitespace() {
            if authorization.hasPrefix("OSS4-HMAC-SHA256 ") {
                self = .ossV4Header
            } else if authorization.hasPrefix("OSS ") {
                self = .ossV1Header
            } else if authorization.hasPrefix("OBS ") {
                self = .obsHeader
            } else if authorization.hasPrefix("AWS4-HMAC-SHA256 ") {
                self = .awsV4Header
            } else if authorization.hasPrefix("AWS ") {
                self = .awsV2Header
            } else {
                self = .none
            }
            return
        }
        if request.queryValue("x-oss-signature-version") != nil {
            self = .ossV4Query
        } else if request.hasQuery("OSSAccessKeyId") {
            self = .ossV1Query
        } else if request.hasQuery("X-Amz-Algorithm") {
            self = .awsV4Query
        } else if request.hasQuery("AWSAccessKeyId") {
            self = .awsV2Query
        } else if request.hasQuery("AccessKeyId") {
            self = .obsQuery
        } else {
            self = .none
        }
    }

    /// The dialect the scheme implies, or `nil` for an unsigned request.
    var dialect: StorageVendor? {
        switch self {
        case .none: nil
        case .ossV1Header, .ossV1Query, .ossV4Header, .ossV4Query: .oss
        case .obsHeader, .obsQuery: .obs
        case .awsV2Header, .awsV2Query, .awsV4Header, .awsV4Query: .s3
        }
    }

    var isPresigned: Bool {
        switch self {
        case .ossV1Query, .ossV4Query, .obsQuery, .awsV2Query, .awsV4Query: true
        default: false
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOHTTP1
import ObjectStorageSigning

extension ServiceError {
    /// Parses a non-2xx answer: the vendor's `<Error>` document when there is one, the status
    /// otherwise (HEAD answers and 304 have no body).
    init(status: Int, headers: HTTPHeaders, body: [UInt8], isBucketRequest: Bool) {
        var document: XMLNode?
        if !body.isEmpty, let root = try? XMLNode.parse(body), root.name == "Error" {
            document = root
        }
        self.init(
            statusCode: status,
            code: Code(rawValue: document?["Code"] ?? Self.code(forStatus: status, isBucketRequest: isBucketRequest)),
            message: document?["Message"] ?? Self.message(forStatus: status, isBucketRequest: isBucketRequest)
        )
        self.requestID =
            document?["RequestId"] ?? headers.first(name: "x-oss-request-id")
            ?? headers.first(name: "x-obs-request-id") ?? headers.first(name: "x-amz-request-id")
        self.hostID =
            document?["HostId"] ?? headers.first(name: "x-amz-id-2") ?? headers.first(name: "x-obs-id-2")
        self.ec = document?["EC"] ?? headers.first(name: "x-oss-ec")
        self.stringToSign = document?["StringToSign"]
        self.serverDate = headers.first(name: "Date").flatMap(HTTPDates.parse)
        self.retryAfter = headers.first(name: "Retry-After")
        self.nextAppendPosition = ["x-oss-", "x-obs-", "x-amz-"].lazy
            .compactMap { headers.first(name: $0 + "next-append-position") }.first
            .flatMap { Int64($0.filter { $0 != " " }) }
        var details: [String: String] = [:]
        for child in document?.children ?? [] where child.children.isEmpty {
            switch child.name {
            case "Code", "Message", "RequestId", "HostId", "EC", "StringToSign", "StringToSignBytes",
                "SignatureProvided", "CanonicalRequestBytes":
                continue
            default:
                details[child.name] = child.text
            }
        }
        self.details = details
    }

    /// A body that is an `<Error>` document (CopyObject and CompleteMultipartUpload may fail with a 200).
    static func embedded(in body: [UInt8], headers: HTTPHeaders) -> ServiceError? {
        guard let root = try? XMLNode.parse(body), root.name == "Error" else { return nil }
        return ServiceError(status: 200, headers: headers, body: body, isBucketRequest: false)
    }

    private static func code(forStatus status: Int, isBucketRequest: Bool) -> String {
        switch status {
        case 304: return Code.notModified.rawValue
        case 400: return "BadRequest"
        case 403: return Code.forbidden.rawValue
        case 404: return isBucketRequest ? Code.noSuchBucket.rawValue : Code.noSuchKey.rawValue
        case 405: return "MethodNotAllowed"
        case 409: return "Conflict"
        case 412: return Code.preconditionFailed.rawValue
        case 416: return Code.invalidRange.rawValue
        case 429: return "TooManyRequests"
        case 500: return Code.internalError.rawValue
        case 503: return "ServiceUnavailable"
        default: return "HTTP\(status)"
        }
    }

    /// What an answer without an error document (a HEAD's) means, by the request.
    private static func message(forStatus status: Int, isBucketRequest: Bool) -> String {
        switch status {
        case 404 where isBucketRequest: "The bucket does not exist."
        case 404: "The object does not exist, or its bucket does not (the answer has no body to say which)."
        case 403: "Access denied; the answer has no body to say why (the credentials, a policy, or the clock)."
        default: HTTPResponseStatus(statusCode: status).reasonPhrase
        }
    }
}

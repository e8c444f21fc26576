//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

/// One entry of Fixtures/vectors/signing-vectors.json (see Fixtures/README.md).
struct SigningVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Time: Decodable, Sendable { var unix: Int64 }
    struct Expires: Decodable, Sendable {
        var mode: String
        var value: Int64?
    }
    struct Expected: Decodable, Sendable {
        var url: String?
        var authorization: String?
        var requestURL: String?
        var requestHeaders: [String: String]?
        var signedHeaders: [String: String]?
        var actualSignedRequestHeaders: [String: String]?
        var error: String?
        var signature: String?
        var stringToSign: String?
        var xOSSExpires: String?

        enum CodingKeys: String, CodingKey {
            case url, authorization, error, signature
            case requestURL = "request_url"
            case requestHeaders = "request_headers"
            case signedHeaders = "signed_headers"
            case actualSignedRequestHeaders = "actual_signed_request_headers"
            case stringToSign = "string_to_sign"
            case xOSSExpires = "x-oss-expires"
        }
    }
    struct Reproduction: Decodable, Sendable {
        var matchesPublished: Bool?
        var authorizationWithGeneratorKeys: String?

        enum CodingKeys: String, CodingKey {
            case matchesPublished = "matches_published"
            case authorizationWithGeneratorKeys = "authorization_with_generator_keys"
        }
    }

    var id: String
    var origin: String
    var provider: String
    var signature: String
    var kind: String
    var method: String
    var bucket: String?
    var key: String?
    var region: String?
    var endpoint: String
    var addressing: String
    var time: Time?
    var expires: Expires?
    var headers: [String: String]
    var query: [String: String]
    var accessKeyID: String
    var accessKeySecret: String
    var securityToken: String?
    var additionalHeaders: [String]?
    var expected: Expected
    var debug: [String: String]?
    var sdkReproduction: Reproduction?

    enum CodingKeys: String, CodingKey {
        case id, origin, provider, signature, kind, method, bucket, key, region, endpoint, addressing, time
        case expires, headers, query, expected, debug
        case accessKeyID = "access_key_id"
        case accessKeySecret = "access_key_secret"
        case securityToken = "security_token"
        case additionalHeaders = "additional_headers"
        case sdkReproduction = "sdk_reproduction"
    }

    var testDescription: String { self.id }

    struct File: Decodable {
        var count: Int
        var vectors: [SigningVector]
    }

    static let fileURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vectors/signing-vectors.json")

    static let file: File = {
        do {
            return try JSONDecoder().decode(File.self, from: Data(contentsOf: fileURL))
        } catch {
            fatalError("cannot load \(fileURL.path): \(error)")
        }
    }()

    static var all: [SigningVector] { file.vectors }

    // MARK: Inputs

    var version: SignatureVersion {
        switch self.signature {
        case "v1": return .ossV1
        case "v4" where self.provider == "oss": return .ossV4
        case "v4", "sigv4": return .sigV4  // OBS "v4" is SigV4
        case "obs": return .obs
        default: return .awsV2
        }
    }

    /// Query parameters sorted by name; `""` means valueless (the file's convention).
    var queryParameters: [QueryParameter] {
        self.query.sorted { $0.key < $1.key }.map {
            QueryParameter(name: $0.key, value: $0.value.isEmpty ? nil : $0.value)
        }
    }

    var headerFields: [HTTPHeader] {
        self.headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
    }

    var credentials: Credentials {
        Credentials(
            accessKeyID: self.accessKeyID,
            secretAccessKey: self.accessKeySecret,
            securityToken: self.securityToken
        )
    }

    func request() throws -> SigningRequest {
        SigningRequest(
            method: self.method,
            endpoint: try Endpoint(url: self.endpoint),
            addressing: self.addressing == "path" ? .path : .virtualHosted,
            bucket: self.bucket,
            key: self.key,
            query: self.queryParameters,
            headers: self.headerFields
        )
    }
}

/// A URL taken apart for comparison: percent-decoding with Foundation (independent of the code
/// under test), query as a sorted multiset because the SDKs order parameters differently.
struct ComparableURL: Equatable, CustomStringConvertible {
    var origin: String
    var path: String
    var query: [String]

    init(_ url: String) {
        let schemeEnd = url.range(of: "://")!
        let afterScheme = url[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        self.origin = String(url[..<pathStart])
        let rest = afterScheme[pathStart...]
        let queryStart = rest.firstIndex(of: "?")
        let rawPath = queryStart.map { rest[..<$0] } ?? rest
        self.path = String(rawPath).removingPercentEncoding ?? "<malformed>"
        var pairs: [String] = []
        if let queryStart {
            for pair in rest[rest.index(after: queryStart)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? "<malformed>"
                // `name` and `name=` both mean an empty value when comparing (OBS writes `alpha=`).
                let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "<malformed>") : ""
                pairs.append("\(name)=\(value)")
            }
        }
        self.query = pairs.sorted()
        if self.path.isEmpty { self.path = "/" }
    }

    func value(of name: String) -> String? {
        self.query.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    var description: String { "\(self.origin)\(self.path)?\(self.query.joined(separator: "&"))" }
}

/// Headers as a case-insensitive dictionary.
func lowercasedDictionary(_ headers: [HTTPHeader]) -> [String: String] {
    Dictionary(headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
}

func lowercasedDictionary(_ headers: [String: String]) -> [String: String] {
    Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
}

/// The fields of an `OSS4-HMAC-SHA256` / `AWS4-HMAC-SHA256` Authorization value, whatever the
/// separator layout (`, ` or `,`) and field order.
func authorizationFields(_ value: String) -> [String: String] {
    guard let space = value.firstIndex(of: " ") else { return ["": value] }
    var fields = ["algorithm": String(value[..<space])]
    for part in value[value.index(after: space)...].split(separator: ",") {
        let trimmed = part.trimmingCharacters(in: .whitespaces)
        let pieces = trimmed.split(separator: "=", maxSplits: 1)
        fields[String(pieces[0])] = pieces.count > 1 ? String(pieces[1]) : ""
    }
    return fields
}

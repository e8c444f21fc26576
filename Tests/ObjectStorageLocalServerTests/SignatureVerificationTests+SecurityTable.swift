//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageLocalServer
import ObjectStorageSigning
import Testing

/// The security table: for every scheme and both ways of signing, each attack is refused with the vendor's
/// status and code, while the same request unaltered is accepted (so the refusal is due to the attack).
extension SignatureVerificationTests {
    enum Style: String, Sendable {
        case header
        case presigned
    }

    enum Attack: String, Sendable, CaseIterable {
        case wrongSecret = "wrong secret"
        case unknownKey = "unknown key"
        case tamperedPath = "tampered path"
        case tamperedQuery = "tampered query"
        case tamperedSignedHeader = "tampered signed header"
        case wrongMethod = "wrong method"
        case expired = "expired URL"
        /// Header-signed: a request replayed after the 15-minute skew window. Presigned (the V4 schemes,
        /// which carry a signing time): a URL dated beyond the window in the future.
        case outsideSkewWindow = "outside the clock-skew window"
    }

    struct SecurityCase: CustomTestStringConvertible, Sendable {
        var scheme: String
        var signer: RequestSigner
        var style: Style
        var attack: Attack
        var status: Int
        var code: String
        var testDescription: String { "\(scheme) \(style.rawValue): \(attack.rawValue)" }
    }

    /// Every (scheme, style, attack) that applies. An expired URL only exists for presigned requests; OSS V1,
    /// OBS and AWS V2 presigned URLs carry an absolute expiry and no signing time, so no skew window applies.
    static let securityTable: [SecurityCase] = schemes.flatMap { scheme, signer in
        [Style.header, .presigned].flatMap { style in
            Attack.allCases.compactMap { attack -> SecurityCase? in
                let code: String
                switch attack {
                case .wrongSecret, .tamperedPath, .tamperedQuery, .tamperedSignedHeader, .wrongMethod:
                    code = "SignatureDoesNotMatch"
                case .unknownKey: code = "InvalidAccessKeyId"
                case .expired:
                    guard style == .presigned else { return nil }
                    code = "AccessDenied"
                case .outsideSkewWindow:
                    if style == .header {
                        code = "RequestTimeTooSkewed"
                    } else {
                        guard scheme == "oss-v4" || scheme == "sigv4" else { return nil }
                        code = "AccessDenied"
                    }
                }
                return SecurityCase(
                    scheme: scheme,
                    signer: signer,
                    style: style,
                    attack: attack,
                    status: 403,
                    code: code
                )
            }
        }
    }

    /// A request as sent: method, path with query, headers.
    struct Wire {
        var method: String
        var path: String
        var headers: [(String, String)] = []
        var body: [UInt8] = []
    }

    @Test(arguments: securityTable)
    func refusesEveryAttack(_ row: SecurityCase) async throws {
        try await withSignedServer(row.signer) { signed in
            let content = Array("security table".utf8)
            let put = try await signed.send(try signed.request("PUT", bucket: "bkt", key: "k"), body: content)
            #expect(put.status == 200, "\(put.text)")
            let (legitimate, attacked) = try Self.requests(for: row, signed: signed, content: content)
            let accepted = try await signed.client.send(
                legitimate.method,
                legitimate.path,
                headers: legitimate.headers,
                body: legitimate.body
            )
            #expect((200..<300).contains(accepted.status), "unaltered request refused: \(accepted.text)")
            let refused = try await signed.client.send(
                attacked.method,
                attacked.path,
                headers: attacked.headers,
                body: attacked.body
            )
            #expect(refused.status == row.status, "\(refused.text)")
            #expect(refused.element("Code") == row.code, "\(refused.text)")
            if row.attack == .expired {
                #expect(refused.element("Message") == "Request has expired")
            }
            let after = try await signed.send(try signed.request("GET", bucket: "bkt", key: "k"))
            #expect(after.body == content, "the attack changed the object")
        }
    }

    /// The unaltered request and the attacked one for a row.
    static func requests(for row: SecurityCase, signed: Signed, content: [UInt8]) throws -> (Wire, Wire) {
        let metaName =
            row.scheme.hasPrefix("oss") ? "x-oss-meta-a" : row.scheme == "obs" ? "x-obs-meta-a" : "x-amz-meta-a"
        let typeQuery = [QueryParameter(name: "response-content-type", value: "text/plain")]
        let now = Date()
        switch row.style {
        case .header:
            func wire(_ request: SignedRequest, body: [UInt8] = []) -> Wire {
                let headers = request.headers.filter { $0.name.lowercased() != "host" }.map { ($0.name, $0.value) }
                let path = String(request.url.dropFirst("http://127.0.0.1:\(signed.port)".count))
                return Wire(method: request.method, path: path, headers: headers, body: body)
            }
            let get = wire(try signed.request("GET", bucket: "bkt", key: "k"))
            switch row.attack {
            case .wrongSecret:
                return (get, wire(try signed.request("GET", bucket: "bkt", key: "k", credentials: wrongSecret)))
            case .unknownKey:
                return (get, wire(try signed.request("GET", bucket: "bkt", key: "k", credentials: unknownKey)))
            case .tamperedPath:
                var attacked = get
                attacked.path = "/bkt/other"
                return (get, attacked)
            case .tamperedQuery:
                let legitimate = wire(try signed.request("GET", bucket: "bkt", key: "k", query: typeQuery))
                var attacked = legitimate
                attacked.path = try replacing("text%2Fplain", with: "text%2Fhtml", in: legitimate.path)
                return (legitimate, attacked)
            case .tamperedSignedHeader:
                let legitimate = wire(
                    try signed.request(
                        "PUT",
                        bucket: "bkt",
                        key: "k",
                        headers: [HTTPHeader(name: metaName, value: "1")]
                    ),
                    body: content
                )
                var attacked = legitimate
                attacked.headers = legitimate.headers.map { $0.0.lowercased() == metaName ? ($0.0, "2") : $0 }
                return (legitimate, attacked)
            case .wrongMethod:
                var attacked = get
                attacked.method = "DELETE"
                return (get, attacked)
            case .outsideSkewWindow:
                let replayed = now.addingTimeInterval(-16 * 60)
                let withinWindow = now.addingTimeInterval(-14 * 60)
                return (
                    wire(try signed.request("GET", bucket: "bkt", key: "k", at: withinWindow)),
                    wire(try signed.request("GET", bucket: "bkt", key: "k", at: replayed))
                )
            case .expired:
                throw UnexpectedRow()
            }
        case .presigned:
            let get = Wire(method: "GET", path: try signed.presigned("GET", bucket: "bkt", key: "k"))
            switch row.attack {
            case .wrongSecret:
                return (
                    get,
                    Wire(
                        method: "GET",
                        path: try signed.presigned("GET", bucket: "bkt", key: "k", credentials: wrongSecret)
                    )
                )
            case .unknownKey:
                return (
                    get,
                    Wire(
                        method: "GET",
                        path: try signed.presigned("GET", bucket: "bkt", key: "k", credentials: unknownKey)
                    )
                )
            case .tamperedPath:
                return (get, Wire(method: "GET", path: try replacing("/bkt/k?", with: "/bkt/other?", in: get.path)))
            case .tamperedQuery:
                let legitimate = Wire(
                    method: "GET",
                    path: try signed.presigned("GET", bucket: "bkt", key: "k", query: typeQuery)
                )
                let attacked = Wire(
                    method: "GET",
                    path: try replacing("text%2Fplain", with: "text%2Fhtml", in: legitimate.path)
                )
                return (legitimate, attacked)
            case .tamperedSignedHeader:
                let path = try signed.presigned(
                    "PUT",
                    bucket: "bkt",
                    key: "k",
                    headers: [HTTPHeader(name: metaName, value: "1")]
                )
                return (
                    Wire(method: "PUT", path: path, headers: [(metaName, "1")], body: content),
                    Wire(method: "PUT", path: path, headers: [(metaName, "2")], body: content)
                )
            case .wrongMethod:
                return (get, Wire(method: "DELETE", path: get.path))
            case .expired:
                let expired = try signed.presigned(
                    "GET",
                    bucket: "bkt",
                    key: "k",
                    expires: .seconds(60),
                    at: now.addingTimeInterval(-3600)
                )
                return (get, Wire(method: "GET", path: expired))
            case .outsideSkewWindow:
                let early = try signed.presigned(
                    "GET",
                    bucket: "bkt",
                    key: "k",
                    expires: .seconds(7200),
                    at: now.addingTimeInterval(16 * 60)
                )
                let withinWindow = try signed.presigned(
                    "GET",
                    bucket: "bkt",
                    key: "k",
                    expires: .seconds(7200),
                    at: now.addingTimeInterval(14 * 60)
                )
                return (Wire(method: "GET", path: withinWindow), Wire(method: "GET", path: early))
            }
        }
    }

    struct UnexpectedRow: Error {}

    /// `text` with its one occurrence of `target` replaced; fails if `target` is absent.
    static func replacing(_ target: String, with replacement: String, in text: String) throws -> String {
        let range = try #require(text.range(of: target), "\(target) not in \(text)")
        return text.replacingCharacters(in: range, with: replacement)
    }
}

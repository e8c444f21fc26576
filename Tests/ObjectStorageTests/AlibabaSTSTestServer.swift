//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import ObjectStorageTestSupport
import Synchronization

/// A fake Alibaba Cloud STS (API version 2015-04-01) on 127.0.0.1, checking what Alibaba's documents say the
/// service checks.
///
/// - `GET /?Action=AssumeRole&…`: `Format=JSON`, `Version=2015-04-01`, `SignatureMethod=HMAC-SHA1`,
///   `SignatureVersion=1.0`, a `SignatureNonce` not seen before, a `Timestamp` within 15 minutes of now, a known
///   `AccessKeyId`, the role, a session name, a duration of 900...43200 s, and a `Signature` recomputed with the
///   key's secret. The signature is accepted in either of the two encodings Alibaba's own code produces: the
///   documented one (space `%20`, ``AlibabaRPCSignature``, ours) and the `quote_plus` one of the Python
///   credentials library (space `+`, then `%2B` in the string to sign); the two differ only for a value with a
///   space, and ``Seen/signatureEncoding`` records which one matched.
/// - `GET /?Action=AssumeRoleWithOIDC&…`: unsigned; the role, `OIDCProviderArn`, a session name, a `Timestamp`,
///   and `OIDCToken` equal to the expected token (an expired one gets `AuthenticationFail.OIDCToken.Expired`,
///   another `AuthenticationFail.OIDCToken.Invalid`).
///
/// A valid request gets what ``Behaviour`` says: the documented JSON with the next configured ``Grant``, an
/// error document with a code and status, or no answer at all. An invalid one gets the documented error document
/// (`{"RequestId", "HostId", "Code", "Message", "Recommend"}`) with status 400 or 404.
final class AlibabaSTSTestServer: Sendable {
    /// What a valid request gets.
    enum Behaviour: Sendable {
        /// The documented JSON with the next grant.
        case succeed
        /// An error document.
        case refuse(status: Int, code: String, message: String)
        /// Nothing: the connection stays open and silent.
        case hang
    }

    /// Credentials the fake hands out.
    struct Grant: Sendable {
        var accessKeyID: String
        var secret: String
        var securityToken: String
        /// Whole seconds, as STS writes it (`2015-04-09T11:52:19Z`).
        var expiration: Date
        /// When set, the fake writes an expiration this many seconds after it answers instead of ``expiration``, so
        /// that a short lifetime does not shrink on a loaded machine between making the grant and serving it.
        var lifetimeFromAnswer: TimeInterval?
    }

    /// Which encoding the `Signature` of an AssumeRole was computed with.
    enum SignatureEncoding: Sendable, Equatable {
        /// Space `%20`: Alibaba's documents, its core SDK, ours.
        case documented
        /// Space `+`: `quote_plus`, Alibaba's Python credentials library.
        case quotePlus
    }

    /// A request as the fake understood it.
    struct Seen: Sendable {
        /// The decoded query parameters.
        var parameters: [String: String]
        /// The method, e.g. `GET`.
        var method: String
        /// The encoding the signature matched, for a signed request that matched.
        var signatureEncoding: SignatureEncoding?
        /// The status answered (`nil` when the fake did not answer).
        var status: Int?

        var action: String? { self.parameters["Action"] }
    }

    static let roleARN = "acs:ram::1234567890123456:role/objstore-uploader"
    static let oidcProviderARN = "acs:ram::1234567890123456:oidc-provider/ack-rrsa-c0ffee"
    static let assumedRoleID = "344584339364951186"
    /// The access key that may sign AssumeRole, and its secret.
    static let sourceAccessKeyID = "LTAI5tAlibabaSTSSource"
    static let sourceSecret = "alists-source-secret-6a1f"

    /// The `n`th grant's secret and security token (distinctive, and on ``ScannedSecrets/all`` by their prefix).
    static func grant(_ number: Int, expiresIn seconds: TimeInterval = 3600) -> Grant {
        Grant(
            accessKeyID: "STS.NUv\(number)AlibabaTestKey",
            secret: "alists-issued-secret-\(number)-9b3c",
            securityToken: "alists-security-token-\(number)-CAIS+/=x",
            expiration: Self.wholeSeconds(from: Date(), plus: seconds)
        )
    }

    /// The `n`th grant, expiring `seconds` after the fake serves it.
    static func grant(_ number: Int, expiringAfterAnswer seconds: TimeInterval) -> Grant {
        var grant = Self.grant(number, expiresIn: seconds)
        grant.lifetimeFromAnswer = seconds
        return grant
    }

    private static func wholeSeconds(from date: Date, plus seconds: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 + seconds).rounded(.down))
    }

    private struct State {
        var behaviour = Behaviour.succeed
        var grants: [Grant] = [AlibabaSTSTestServer.grant(1)]
        var granted = 0
        var expectedToken: String?
        var expiredTokens: Set<String> = []
        var nonces: Set<String> = []
        var seen: [Seen] = []
    }

    private let server: RawHTTPServer
    private let state: Mutex<State>

    private init(server: RawHTTPServer) {
        self.server = server
        self.state = Mutex(State())
    }

    /// Starts a fake that succeeds with ``grant(_:expiresIn:)`` 1.
    ///
    /// - Returns: The running fake; call ``stop()``.
    static func start() async throws -> AlibabaSTSTestServer {
        let box = StateBox()
        let server = try await RawHTTPServer.start { request in box.answer(request) }
        let fake = AlibabaSTSTestServer(server: server)
        box.fake.withLock { $0 = fake }
        return fake
    }

    /// `http://127.0.0.1:PORT`.
    var endpoint: String { "http://127.0.0.1:\(self.port)" }

    /// The port on 127.0.0.1.
    var port: Int { self.server.port }

    /// The requests so far, in order.
    var requests: [Seen] { self.state.withLock { $0.seen } }

    /// Every `Signature` sent so far (none may appear in an error or a log line).
    var signatures: [String] { self.requests.compactMap { $0.parameters["Signature"] } }

    /// Sets what a valid request gets.
    func setBehaviour(_ behaviour: Behaviour) {
        self.state.withLock { $0.behaviour = behaviour }
    }

    /// Sets the grants handed out in order, the last one repeated.
    func setGrants(_ grants: [Grant]) {
        self.state.withLock {
            $0.grants = grants
            $0.granted = 0
        }
    }

    /// Sets the OIDC token AssumeRoleWithOIDC accepts, and tokens it calls expired.
    func expectToken(_ token: String, expired: Set<String> = []) {
        self.state.withLock {
            $0.expectedToken = token
            $0.expiredTokens = expired
        }
    }

    func stop() async throws {
        try await self.server.stop()
    }

    // MARK: Answering

    private final class StateBox: Sendable {
        let fake = Mutex<AlibabaSTSTestServer?>(nil)

        func answer(_ request: RawRequest) -> RawReply {
            guard let fake = self.fake.withLock({ $0 }) else { return .response("503 Service Unavailable") }
            return fake.answer(request)
        }
    }

    private struct Refusal: Error {
        var status: Int
        var code: String
        var message: String
    }

    fileprivate func answer(_ request: RawRequest) -> RawReply {
        let parameters = Self.parameters(of: request.target)
        var seen = Seen(parameters: parameters, method: request.method)
        let reply: RawReply
        do {
            try self.validate(request, parameters, &seen)
            let behaviour = self.state.withLock { $0.behaviour }
            switch behaviour {
            case .succeed:
                var grant = self.state.withLock { state in
                    defer { state.granted += 1 }
                    return state.grants[min(state.granted, state.grants.count - 1)]
                }
                if let lifetime = grant.lifetimeFromAnswer {
                    grant.expiration = Self.wholeSeconds(from: Date(), plus: lifetime)
                }
                seen.status = 200
                reply = Self.json("200 OK", Self.grantDocument(grant, parameters: parameters))
            case .refuse(let status, let code, let message):
                throw Refusal(status: status, code: code, message: message)
            case .hang:
                reply = .bytes([])
            }
        } catch let refusal as Refusal {
            seen.status = refusal.status
            reply = Self.json(
                "\(refusal.status) \(refusal.status == 404 ? "Not Found" : refusal.status == 403 ? "Forbidden" : "Bad Request")",
                Self.errorDocument(refusal)
            )
        } catch {
            seen.status = 500
            reply = .response("500 Internal Server Error")
        }
        self.state.withLock { $0.seen.append(seen) }
        return reply
    }

    private func validate(_ request: RawRequest, _ parameters: [String: String], _ seen: inout Seen) throws {
        func required(_ name: String) throws -> String {
            guard let value = parameters[name], !value.isEmpty else {
                throw Refusal(status: 400, code: "MissingParameter", message: "The input parameter \(name) is missing.")
            }
            return value
        }
        func expect(_ name: String, _ value: String) throws {
            guard try required(name) == value else {
                throw Refusal(
                    status: 400,
                    code: "InvalidParameter",
                    message: "The specified parameter \(name) is not valid."
                )
            }
        }
        guard request.method == "GET" || request.method == "POST", request.target.hasPrefix("/?") else {
            throw Refusal(status: 400, code: "InvalidParameter", message: "Not an RPC request.")
        }
        try expect("Format", "JSON")
        try expect("Version", "2015-04-01")
        let timestamp = try required("Timestamp")
        guard let date = try? Date.ISO8601FormatStyle().parse(timestamp), abs(date.timeIntervalSinceNow) <= 15 * 60
        else {
            throw Refusal(
                status: 400,
                code: "InvalidTimeStamp.Expired",
                message: "Specified time stamp or date value is expired."
            )
        }
        guard try required("RoleArn") == Self.roleARN else {
            throw Refusal(status: 404, code: "EntityNotExist.Role", message: "The role not exists: \(Self.roleARN).")
        }
        let session = try required("RoleSessionName")
        let sessionCharacters = session.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "._@-".unicodeScalars.contains($0)
        }
        guard (2...64).contains(session.count), sessionCharacters else {
            throw Refusal(
                status: 400,
                code: "InvalidParameter.RoleSessionName",
                message: "The parameter RoleSessionName is wrongly formed."
            )
        }
        if let duration = parameters["DurationSeconds"],
            !(Int(duration).map(RoleRequest.durationRange.contains) ?? false)
        {
            throw Refusal(
                status: 400,
                code: "InvalidParameter.DurationSeconds",
                message: "The Min/Max value of DurationSeconds is 15min/12hr."
            )
        }
        switch try required("Action") {
        case "AssumeRole":
            try self.validateSignature(request, parameters, &seen)
        case "AssumeRoleWithOIDC":
            guard try required("OIDCProviderArn") == Self.oidcProviderARN else {
                throw Refusal(
                    status: 404,
                    code: "EntityNotExist.OIDCProvider",
                    message: "The OIDC provider does not exist."
                )
            }
            let token = try required("OIDCToken")
            let (expected, expired) = self.state.withLock { ($0.expectedToken, $0.expiredTokens) }
            if expired.contains(token) {
                throw Refusal(
                    status: 400,
                    code: "AuthenticationFail.OIDCToken.Expired",
                    message: "The OIDC token is expired."
                )
            }
            guard token == expected else {
                throw Refusal(
                    status: 400,
                    code: "AuthenticationFail.OIDCToken.Invalid",
                    message: "The OIDC token is invalid."
                )
            }
        default:
            throw Refusal(status: 400, code: "InvalidAction.NotFound", message: "Specified api is not found.")
        }
    }

    private func validateSignature(_ request: RawRequest, _ parameters: [String: String], _ seen: inout Seen) throws {
        func expect(_ name: String, _ value: String) throws {
            guard parameters[name] == value else {
                throw Refusal(
                    status: 400,
                    code: "InvalidParameter",
                    message: "The specified parameter \(name) is not valid."
                )
            }
        }
        try expect("SignatureMethod", "HMAC-SHA1")
        try expect("SignatureVersion", "1.0")
        guard let nonce = parameters["SignatureNonce"], !nonce.isEmpty else {
            throw Refusal(status: 400, code: "MissingParameter", message: "SignatureNonce is mandatory.")
        }
        guard self.state.withLock({ $0.nonces.insert(nonce).inserted }) else {
            throw Refusal(
                status: 400,
                code: "SignatureNonceUsed",
                message: "The request signature nonce has been used."
            )
        }
        guard parameters["AccessKeyId"] == Self.sourceAccessKeyID else {
            throw Refusal(
                status: 404,
                code: "InvalidAccessKeyId.NotFound",
                message: "Specified access key is not found."
            )
        }
        guard let signature = parameters["Signature"] else {
            throw Refusal(status: 400, code: "IncompleteSignature", message: "The request signature is missing.")
        }
        let signed = parameters.filter { $0.key != "Signature" }.map { (name: $0.key, value: $0.value) }
        let documented = AlibabaRPCSignature.stringToSign(method: request.method, parameters: signed)
        // quote_plus writes a space `+`, then `%2B` in the string to sign (its compose_string_to_sign), where the
        // documented encoding has `%20`, then `%2520`; no other difference (both keep `~`, encode `*` as `%2A`).
        let quotePlus = documented.replacingOccurrences(of: "%2520", with: "%2B")
        let key = Array((Self.sourceSecret + "&").utf8)
        func sign(_ text: String) -> String {
            Data(Hashing.HMAC<Hashing.SHA1>.authenticationCode(for: text, key: key)).base64EncodedString()
        }
        if signature == sign(documented) {
            seen.signatureEncoding = .documented
        } else if signature == sign(quotePlus) {
            seen.signatureEncoding = .quotePlus
        } else {
            throw Refusal(
                status: 400,
                code: "SignatureDoesNotMatch",
                message: "Specified signature is not matched with our calculation."
            )
        }
    }

    /// The decoded query of `target` (`+` is a space, as a form decoder reads it; a real `+` arrives as `%2B`).
    static func parameters(of target: String) -> [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }

    private static func grantDocument(_ grant: Grant, parameters: [String: String]) -> [String: Any] {
        let session = parameters["RoleSessionName"] ?? ""
        var document: [String: Any] = [
            "RequestId": UUID().uuidString,
            "AssumedRoleUser": [
                "Arn": "acs:ram::1234567890123456:role/objstore-uploader/\(session)",
                "AssumedRoleId": "\(Self.assumedRoleID):\(session)",
            ],
            "Credentials": [
                "AccessKeyId": grant.accessKeyID,
                "AccessKeySecret": grant.secret,
                "SecurityToken": grant.securityToken,
                "Expiration": grant.expiration.formatted(.iso8601),
            ],
        ]
        if parameters["Action"] == "AssumeRoleWithOIDC" {
            document["OIDCTokenInfo"] = [
                "Subject": "system:serviceaccount:default:uploader",
                "Issuer": "https://oidc-ack-cn-hangzhou.oss-cn-hangzhou.aliyuncs.com/c0ffee",
                "ClientIds": "sts.aliyuncs.com",
            ]
        }
        return document
    }

    private static func errorDocument(_ refusal: Refusal) -> [String: Any] {
        [
            "RequestId": UUID().uuidString,
            "HostId": "sts.aliyuncs.com",
            "Code": refusal.code,
            "Message": refusal.message,
            "Recommend": "https://api.aliyun.com/troubleshoot?q=\(refusal.code)&product=Sts",
        ]
    }

    private static func json(_ status: String, _ document: [String: Any]) -> RawReply {
        let body = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return .response(status, headers: [("Content-Type", "application/json;charset=utf-8")], body: Array(body))
    }
}

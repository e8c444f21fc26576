//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A fake instance metadata service on 127.0.0.1 that speaks Alibaba Cloud's (`100.100.100.200`), Huawei
/// Cloud's and AWS EC2's (`169.254.169.254`) dialects, serves AWS container credentials (`/v2/credentials/…`)
/// and an Alibaba Cloud credentials URI (`/alibaba/credentials`), records every request, and can be told to
/// misbehave.
///
/// Credentials it hands out are numbered by fetch: the n-th credentials request gets access key id
/// `STS.AK<n>` (Alibaba Cloud, Huawei Cloud) or `ASIAAK<n>` (AWS), secret ``secret(_:)`` and security token
/// ``securityToken(_:)``, all of which tests look for in logs and errors.
final class MetadataTestServer: Sendable {
    /// How the server answers the token `PUT`.
    enum TokenReply: Sendable {
        case issue
        case status(Int)
        case close
        /// Accepts the request and never answers.
        case hang
    }

    /// How the server answers a credentials request.
    enum CredentialsReply: Sendable {
        /// A valid document expiring at the given RFC 3339 text.
        case valid(expiration: String)
        /// A fixed status and body.
        case raw(status: Int, body: String)
    }

    /// The server's behaviour, changeable between requests.
    struct Behaviour: Sendable {
        var token: TokenReply = .issue
        /// Whether `GET`s without the issued token are refused with 401 (hardened mode enforced).
        var requireToken = false
        /// Roles attached to the instance (Alibaba Cloud).
        var roles = ["ecs-test-role"]
        /// IAM roles attached to the instance (AWS EC2).
        var iamRoles = ["ec2-test-role"]
        /// The reply to a credentials request for an attached role (Alibaba, AWS), the security key (Huawei),
        /// the container credentials (AWS) or the credentials URI (Alibaba).
        var credentials = CredentialsReply.valid(expiration: "2030-01-02T03:04:05Z")
        /// The `Authorization` header the container credentials require (401 otherwise), or `nil` for any.
        var containerAuthorization: String?
        /// Whether every request is accepted and never answered.
        var hang = false
        /// Whether every answer stops after its head: the body announced by `Content-Length` never comes.
        var stallBody = false
    }

    /// One request as received.
    struct Request: Sendable, Equatable {
        var method: String
        var path: String
        /// The value of the vendor's token header (`X-aliyun-ecs-metadata-token` or `X-Metadata-Token`).
        var token: String?
        /// The value of the vendor's token-TTL header on a `PUT`.
        var ttl: String?
        /// The `Authorization` header.
        var authorization: String? = nil
        /// The `Accept` header.
        var accept: String? = nil
        /// The query, if any.
        var query: String? = nil
    }

    /// The metadata token the server issues; it must never reach a log line or an error.
    static let issuedToken = "metadata-session-token-DO-NOT-LOG"

    static func secret(_ n: Int) -> String { "secret-\(n)-DO-NOT-LOG" }
    static func securityToken(_ n: Int) -> String { "security-token-\(n)-DO-NOT-LOG" }

    let channel: any Channel
    let port: Int
    private let state: Mutex<(behaviour: Behaviour, requests: [Request], fetches: Int)>

    private init(channel: any Channel, behaviour: Behaviour) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
        self.state = Mutex((behaviour, [], 0))
    }

    static func start(_ behaviour: Behaviour = Behaviour()) async throws -> MetadataTestServer {
        let box = ServerBox()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetadataHandler(box: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let server = MetadataTestServer(channel: channel, behaviour: behaviour)
        box.server.withLock { $0 = server }
        return server
    }

    /// `http://127.0.0.1:PORT`.
    var endpoint: String {
        "http://127.0.0.1:\(self.port)"
    }

    var requests: [Request] {
        self.state.withLock { $0.requests }
    }

    /// How many credentials documents were requested.
    var credentialsFetches: Int {
        self.state.withLock { $0.fetches }
    }

    func update(_ change: (inout Behaviour) -> Void) {
        self.state.withLock { change(&$0.behaviour) }
    }

    func stop() async throws {
        try await self.channel.close()
    }

    /// How the server answers one request.
    fileprivate enum Answer {
        case respond(Int, String)
        /// Sends the head of a response of `Int` bytes, and never the body.
        case headOnly(Int)
        /// Closes the connection without answering.
        case close
        /// Keeps the connection and never answers.
        case hang
    }

    /// Decides the reply to one request.
    fileprivate func reply(method: HTTPMethod, uri: String, headers: HTTPHeaders) -> Answer {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        let query = parts.count > 1 ? String(parts[1]) : nil
        let token =
            headers.first(name: "X-aliyun-ecs-metadata-token") ?? headers.first(name: "X-Metadata-Token")
            ?? headers.first(name: "X-aws-ec2-metadata-token")
        let ttl =
            headers.first(name: "X-aliyun-ecs-metadata-token-ttl-seconds")
            ?? headers.first(name: "X-Metadata-Token-Ttl-Seconds")
            ?? headers.first(name: "X-aws-ec2-metadata-token-ttl-seconds")
        let request = Request(
            method: method.rawValue,
            path: path,
            token: token,
            ttl: ttl,
            authorization: headers.first(name: "Authorization"),
            accept: headers.first(name: "Accept"),
            query: query
        )
        return self.state.withLock { state -> Answer in
            state.requests.append(request)
            let behaviour = state.behaviour
            if behaviour.hang {
                return .hang
            }
            if behaviour.stallBody {
                return .headOnly(200)
            }

            if path == "/latest/api/token" || path == "/meta-data/latest/api/token" {
                guard method == .PUT else { return .respond(405, "") }
                switch behaviour.token {
                case .issue: return .respond(200, Self.issuedToken)
                case .status(let status): return .respond(status, "token refused")
                case .close: return .close
                case .hang: return .hang
                }
            }
            guard method == .GET else { return .respond(405, "") }

            if path.hasPrefix("/v2/credentials/") {
                if let required = behaviour.containerAuthorization, request.authorization != required {
                    return .respond(401, "")
                }
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, dialect: .awsContainer)
            }
            if path == "/alibaba/credentials" {
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, dialect: .alibaba)
            }
            if behaviour.requireToken, token != Self.issuedToken {
                return .respond(401, "")
            }

            let iamPrefix = "/latest/meta-data/iam/security-credentials/"
            if path == iamPrefix {
                return .respond(200, behaviour.iamRoles.joined(separator: "\n"))
            }
            if path.hasPrefix(iamPrefix) {
                let role = String(path.dropFirst(iamPrefix.count))
                guard behaviour.iamRoles.contains(role) else { return .respond(404, "role \(role) not found") }
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, dialect: .awsEC2)
            }

            let rolesPrefix = "/latest/meta-data/ram/security-credentials/"
            if path == rolesPrefix {
                return .respond(200, behaviour.roles.joined(separator: "\n"))
            }
            if path.hasPrefix(rolesPrefix) {
                let role = String(path.dropFirst(rolesPrefix.count))
                guard behaviour.roles.contains(role) else { return .respond(404, "role \(role) not found") }
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, dialect: .alibaba)
            }
            if path == "/openstack/latest/securitykey" {
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, dialect: .huawei)
            }
            return .respond(404, "")
        }
    }

    /// Which credentials document a valid reply is.
    private enum Dialect {
        case alibaba
        case huawei
        case awsEC2
        case awsContainer
    }

    private static func credentials(_ reply: CredentialsReply, fetch n: Int, dialect: Dialect) -> Answer {
        let expiration: String
        switch reply {
        case .raw(let status, let body): return .respond(status, body)
        case .valid(let validUntil): expiration = validUntil
        }
        switch dialect {
        case .huawei:
            let body = """
                {"credential": {"access": "STS.AK\(n)", "secret": "\(Self.secret(n))", \
                "securitytoken": "\(Self.securityToken(n))", "expires_at": "\(expiration)"}}
                """
            return .respond(200, body)
        case .alibaba:
            let body = """
                {"AccessKeyId": "STS.AK\(n)", "AccessKeySecret": "\(Self.secret(n))", \
                "Expiration": "\(expiration)", "SecurityToken": "\(Self.securityToken(n))", \
                "LastUpdated": "2024-01-01T00:00:00Z", "Code": "Success"}
                """
            return .respond(200, body)
        case .awsEC2:
            let body = """
                {"Code": "Success", "LastUpdated": "2024-01-01T00:00:00Z", "Type": "AWS-HMAC", \
                "AccessKeyId": "ASIAAK\(n)", "SecretAccessKey": "\(Self.secret(n))", \
                "Token": "\(Self.securityToken(n))", "Expiration": "\(expiration)"}
                """
            return .respond(200, body)
        case .awsContainer:
            let body = """
                {"AccessKeyId": "ASIAAK\(n)", "SecretAccessKey": "\(Self.secret(n))", \
                "Token": "\(Self.securityToken(n))", "Expiration": "\(expiration)", \
                "AccountId": "123456789012", "RoleArn": "arn:aws:iam::123456789012:role/task-role"}
                """
            return .respond(200, body)
        }
    }
}

private final class ServerBox: Sendable {
    let server = Mutex<MetadataTestServer?>(nil)
}

private final class MetadataHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let box: ServerBox
    private var head: HTTPRequestHead?

    init(box: ServerBox) {
        self.box = box
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch self.unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head = self.head, let server = self.box.server.withLock({ $0 }) else { return }
            let status: Int
            let text: String
            switch server.reply(method: head.method, uri: head.uri, headers: head.headers) {
            case .respond(let replyStatus, let replyText):
                (status, text) = (replyStatus, replyText)
            case .close:
                context.close(promise: nil)
                return
            case .hang:
                return
            case .headOnly(let length):
                let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["content-length": "\(length)"])
                context.writeAndFlush(self.wrapOutboundOut(.head(head)), promise: nil)
                return
            }
            let body = ByteBuffer(string: text)
            let headers: HTTPHeaders = ["content-length": "\(body.readableBytes)", "content-type": "text/plain"]
            let responseHead = HTTPResponseHead(
                version: .http1_1,
                status: HTTPResponseStatus(statusCode: status),
                headers: headers
            )
            context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(self.wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

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

/// A fake instance metadata service on 127.0.0.1 that speaks both Alibaba Cloud's (`100.100.100.200`) and
/// Huawei Cloud's (`169.254.169.254`) dialects, records every request, and can be told to misbehave.
///
/// Credentials it hands out are numbered by fetch: the n-th credentials request gets access key id
/// `STS.AK<n>`, secret ``secret(_:)`` and security token ``securityToken(_:)``, all of which tests look for
/// in logs and errors.
final class MetadataTestServer: Sendable {
    /// How the server answers the token `PUT`.
    enum TokenReply: Sendable {
        case issue
        case status(Int)
        case close
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
        /// The reply to a credentials request for an attached role (Alibaba) or the security key (Huawei).
        var credentials = CredentialsReply.valid(expiration: "2030-01-02T03:04:05Z")
    }

    /// One request as received.
    struct Request: Sendable, Equatable {
        var method: String
        var path: String
        /// The value of the vendor's token header (`X-aliyun-ecs-metadata-token` or `X-Metadata-Token`).
        var token: String?
        /// The value of the vendor's token-TTL header on a `PUT`.
        var ttl: String?
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

    /// Decides the reply to one request: `nil` closes the connection without answering.
    fileprivate func reply(method: HTTPMethod, uri: String, headers: HTTPHeaders) -> (Int, String)? {
        let path = String(uri.split(separator: "?", maxSplits: 1).first ?? "")
        let token = headers.first(name: "X-aliyun-ecs-metadata-token") ?? headers.first(name: "X-Metadata-Token")
        let ttl =
            headers.first(name: "X-aliyun-ecs-metadata-token-ttl-seconds")
            ?? headers.first(name: "X-Metadata-Token-Ttl-Seconds")
        return self.state.withLock { state -> (Int, String)? in
            state.requests.append(Request(method: method.rawValue, path: path, token: token, ttl: ttl))
            let behaviour = state.behaviour

            if path == "/latest/api/token" || path == "/meta-data/latest/api/token" {
                guard method == .PUT else { return (405, "") }
                switch behaviour.token {
                case .issue: return (200, Self.issuedToken)
                case .status(let status): return (status, "token refused")
                case .close: return nil
                }
            }
            guard method == .GET else { return (405, "") }
            if behaviour.requireToken, token != Self.issuedToken {
                return (401, "")
            }

            let rolesPrefix = "/latest/meta-data/ram/security-credentials/"
            if path == rolesPrefix {
                return (200, behaviour.roles.joined(separator: "\n"))
            }
            if path.hasPrefix(rolesPrefix) {
                let role = String(path.dropFirst(rolesPrefix.count))
                guard behaviour.roles.contains(role) else { return (404, "role \(role) not found") }
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, huawei: false)
            }
            if path == "/openstack/latest/securitykey" {
                state.fetches += 1
                return Self.credentials(behaviour.credentials, fetch: state.fetches, huawei: true)
            }
            return (404, "")
        }
    }

    private static func credentials(_ reply: CredentialsReply, fetch n: Int, huawei: Bool) -> (Int, String) {
        switch reply {
        case .raw(let status, let body):
            return (status, body)
        case .valid(let expiration) where huawei:
            let body = """
                {"credential": {"access": "STS.AK\(n)", "secret": "\(Self.secret(n))", \
                "securitytoken": "\(Self.securityToken(n))", "expires_at": "\(expiration)"}}
                """
            return (200, body)
        case .valid(let expiration):
            let body = """
                {"AccessKeyId": "STS.AK\(n)", "AccessKeySecret": "\(Self.secret(n))", \
                "Expiration": "\(expiration)", "SecurityToken": "\(Self.securityToken(n))", \
                "LastUpdated": "2024-01-01T00:00:00Z", "Code": "Success"}
                """
            return (200, body)
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
            guard let (status, text) = server.reply(method: head.method, uri: head.uri, headers: head.headers) else {
                context.close(promise: nil)
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

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
public import Logging
import NIOCore
import NIOPosix
import NIOSSL
public import ServiceLifecycle
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An object-storage server on a real socket that speaks OSS, OBS and S3, verifies their signatures
/// and injects faults on demand — a strict local peer for tests and demos.
///
/// ```swift
/// let server = LocalObjectServer(configuration: .init(storage: .memory))
/// let port = try await server.start()
/// defer { Task { await server.shutdown() } }
/// // point a client at http://127.0.0.1:\(port)
/// ```
///
/// It is also a `Service`: run it in a `ServiceGroup`; ``waitUntilRunning()`` returns the port once it listens.
public final class LocalObjectServer: Service, Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    /// The fault rules applied to requests; change them at any time.
    public let faults: FaultInjector
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var port: Int?
        var waiters: [CheckedContinuation<Int, any Error>] = []
        var failure: (any Error)?
        var task: Task<Void, any Error>?
        var group: ServiceGroup?
        var store: ObjectStore?
    }

    /// Creates a server; nothing listens until ``start()`` or ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: Address, storage, dialect and authentication.
    ///   - faults: The fault injector to consult.
    ///   - logger: Where requests are logged (never a secret or a signature).
    public init(
        configuration: Configuration = Configuration(),
        faults: FaultInjector = FaultInjector(),
        logger: Logger = Logger(label: "objstore.local-server")
    ) {
        self.configuration = configuration
        self.faults = faults
        self.logger = logger
    }

    /// The objects, once the server runs.
    var store: ObjectStore? { state.withLock { $0.store } }

    /// The bound port, once the server is listening.
    package var port: Int? { state.withLock { $0.port } }

    /// `http://HOST:PORT` (`https` when the configuration has a TLS certificate), once the server is listening.
    public var endpoint: String? {
        port.map { "\(configuration.scheme)://\(configuration.host):\($0)" }
    }

    /// Listens and serves until the task is cancelled or a graceful shutdown is triggered.
    ///
    /// - Throws: If the data directory cannot be used or the address cannot be bound.
    public func run() async throws {
        do {
            let store = try ObjectStore(storage: configuration.storage)
            state.withLock { $0.store = store }
            let handler = RequestHandler(
                configuration: configuration,
                store: store,
                faults: faults,
                verifier: SignatureVerifier(
                    authentication: configuration.authentication,
                    clockSkewLimit: configuration.clockSkewLimit,
                    regions: { [configuration] in configuration.region(for: $0) }
                ),
                logger: logger,
                clock: {
                    let now = Date().timeIntervalSince1970
                    return (Int64(now.rounded(.down)), Int64((now - now.rounded(.down)) * 1000))
                }
            )
            let channelConfiguration = HTTP1Channel.Configuration(
                additionalChannelHandlers: [ReceiveBufferSizing()],
                idleTimeout: Self.timeAmount(configuration.idleTimeout)
            )
            let minimumBodyRate = configuration.minimumRequestBodyRate
            let tls = try configuration.tls.map { tls in
                try NIOSSLContext(
                    configuration: .makeServerConfiguration(
                        certificateChain: try NIOSSLCertificate.fromPEMBytes(tls.certificateChainPEM).map {
                            .certificate($0)
                        },
                        privateKey: .privateKey(try NIOSSLPrivateKey(bytes: tls.privateKeyPEM, format: .pem))
                    )
                )
            }
            let builder = HTTPServerBuilder { responder in
                PacedHTTP1Channel(
                    base: HTTP1Channel(responder: responder, configuration: channelConfiguration),
                    minimumBodyRate: minimumBodyRate,
                    tls: tls
                )
            }
            let server = try builder.buildServer(
                configuration: ServerConfiguration(
                    address: .hostname(configuration.host, port: configuration.port),
                    serverName: nil
                ),
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                logger: logger,
                responder: { request, writer, _ in
                    try await handler.handle(request, writer: writer)
                },
                onServerRunning: { [weak self] channel in
                    self?.didStart(port: channel.localAddress?.port ?? 0)
                }
            )
            try await server.run()
        } catch {
            fail(error)
            throw error
        }
    }

    /// `duration` as NIO's `TimeAmount`, at least one millisecond and at most about 31 years.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        let clamped = min(max(seconds, 0), 1_000_000_000)
        return .nanoseconds(max(clamped * 1_000_000_000 + attoseconds / 1_000_000_000, 1_000_000))
    }

    private func didStart(port: Int) {
        let waiters = state.withLock { state in
            state.port = port
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: port) }
    }

    private func fail(_ error: any Error) {
        let waiters = state.withLock { state in
            state.failure = error
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// Waits until the server listens and returns its port.
    ///
    /// - Returns: The bound port.
    /// - Throws: The error that stopped the server from starting.
    public func waitUntilRunning() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let immediate: Result<Int, any Error>? = state.withLock { state in
                if let port = state.port { return .success(port) }
                if let failure = state.failure { return .failure(failure) }
                state.waiters.append(continuation)
                return nil
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }

    /// Starts serving in a background task and returns the bound port.
    ///
    /// - Returns: The bound port.
    /// - Throws: If the server cannot start.
    @discardableResult
    public func start() async throws -> Int {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [], logger: logger)
        )
        let task = Task { try await group.run() }
        state.withLock {
            $0.task = task
            $0.group = group
        }
        return try await waitUntilRunning()
    }

    /// Stops a server started with ``start()`` gracefully (in-flight requests finish) and waits until it
    /// has stopped.
    public func shutdown() async {
        let (task, group) = state.withLock { state in
            defer {
                state.task = nil
                state.group = nil
            }
            return (state.task, state.group)
        }
        await group?.triggerGracefulShutdown()
        _ = await task?.result
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOSSL

extension AsyncHTTPClientTransport {
    /// How the transport connects: timeouts, pool size, TLS and proxy.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.Configuration()
    /// configuration.readIdleTimeout = .seconds(30)
    /// configuration.maximumConnectionsPerHost = 256
    /// configuration.tls.trustRoots = .pemFile("/etc/ssl/private-ca.pem")
    /// configuration.proxy = .init(host: "proxy.internal", port: 3128)
    /// try await withObjectStorageClient(configuration: .oss(region: "cn-hangzhou"), transport: configuration) {
    ///     client in
    ///     // ... use the client
    /// }
    /// ```
    ///
    /// What each limit bounds. Waiting is bounded; a transfer that keeps moving never fails, however long it takes:
    /// - ``connectTimeout``: establishing one connection (TCP, then TLS).
    /// - ``totalTimeout``: waiting for one request's answer: from the start until its response head arrives, not
    ///   counting the time its request body spends in transit (a slow but moving upload never runs out of time).
    /// - ``readIdleTimeout``: silence on the network (no byte read or written) while a request is in flight. It
    ///   also bounds a consumer's backpressure: a response body the application stops reading stops the
    ///   connection reading, and after this long the connection is closed; the body then throws (it never ends
    ///   early as if complete, see ``TransportError/Code/bodyTruncated``). Servers close such connections too.
    /// - ``minimumTransferRate``: a body that keeps moving, but too little (a server dripping bytes); only time spent
    ///   waiting for the network counts, never the application's own backpressure.
    /// - The client's operation timeout (`ObjectStorageClient.Configuration.timeout`) bounds each attempt's wait
    ///   for its answer the same way, and the retries: none starts after it has run out.
    ///
    /// Every client the transport sends through never follows a redirect and never decompresses a body: those are
    /// not settings (see ``AsyncHTTPClientTransport``). ``connectTimeout``, ``readIdleTimeout``,
    /// ``maximumConnectionsPerHost``, ``idleConnectionTimeout`` and ``proxy`` configure the client the transport
    /// creates; a transport sharing an application's `HTTPClient` refuses values other than the defaults for them
    /// (the application's client governs those), so no setting is ever silently ignored.
    public struct Configuration: Sendable {
        /// How long establishing a connection (TCP, then TLS) may take. Default 10 s.
        public var connectTimeout: Duration
        /// How long the connection may stay silent (nothing read or written) while a request is in flight,
        /// including while the application holds a response body back without reading it. Default 60 s; `nil` for
        /// none.
        public var readIdleTimeout: Duration?
        /// How long one request may wait for its answer: until its response head arrives, connecting included, but
        /// not the time its request body spends in transit (``readIdleTimeout`` and ``minimumTransferRate`` bound
        /// a body while it moves). Default 15 min; `nil` for none (only the deadline given to `execute` applies,
        /// with the same exclusion). The response body is governed by ``readIdleTimeout`` and
        /// ``minimumTransferRate``.
        public var totalTimeout: Duration?
        /// The most concurrent HTTP/1.1 connections per host. Default 64, enough for many concurrent streams
        /// (a streamed download holds its connection for as long as the application reads it).
        public var maximumConnectionsPerHost: Int
        /// How long an idle pooled connection is kept. Default 60 s.
        public var idleConnectionTimeout: Duration
        /// The slowest a request or response body may move before it counts as stalled and fails with
        /// ``TransportError/Code/transferStalled``. Default ``MinimumTransferRate/default`` (1 KiB per 60 s of
        /// waiting for the network); `nil` for no check. Applies to a shared client too.
        public var minimumTransferRate: MinimumTransferRate?
        /// TLS settings. Certificates are verified by default.
        public var tls: TLS
        /// An HTTP proxy to send every request through, or `nil` for none.
        public var proxy: Proxy?
        /// Whether a file body sent over plain `http` goes with `sendfile` (the kernel copies the file to the
        /// socket), rather than being read into memory chunk by chunk. Default `true`; it never applies over
        /// `https`. Applies to a shared client too.
        public var usesSendfile: Bool
        /// The most bytes per second the transport sends, and separately the most it receives, across all its
        /// requests and so across every client sharing it (a token bucket per direction with a tenth of a second's
        /// burst). Default `nil`: no limit. At least 1 KiB/s (a lower value is raised to it). A limited file body is
        /// read in chunks rather than sent with `sendfile`. A transfer can take a lower limit of its own
        /// (`TransferOptions.bandwidthLimit`). Applies to a shared client too.
        public var bandwidthLimit: Int64?

        /// Creates a configuration with the defaults.
        ///
        /// - Parameters:
        ///   - connectTimeout: The connect timeout (default 10 s).
        ///   - readIdleTimeout: The read-idle timeout (default 60 s).
        ///   - totalTimeout: The per-request timeout until the response head (default 15 min).
        ///   - maximumConnectionsPerHost: The pool size per host (default 64).
        ///   - minimumTransferRate: The stall limit (default ``MinimumTransferRate/default``).
        ///   - tls: TLS settings (default: verify against the system's roots).
        ///   - proxy: An HTTP proxy (default none).
        public init(
            connectTimeout: Duration = .seconds(10),
            readIdleTimeout: Duration? = .seconds(60),
            totalTimeout: Duration? = .seconds(900),
            maximumConnectionsPerHost: Int = 64,
            minimumTransferRate: MinimumTransferRate? = .default,
            tls: TLS = TLS(),
            proxy: Proxy? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.readIdleTimeout = readIdleTimeout
            self.totalTimeout = totalTimeout
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.idleConnectionTimeout = .seconds(60)
            self.minimumTransferRate = minimumTransferRate
            self.tls = tls
            self.proxy = proxy
            self.usesSendfile = true
            self.bandwidthLimit = nil
        }

        /// The settings that configure a client the transport creates, which a shared client cannot take, with
        /// the values that differ from the defaults.
        var clientOnlySettingsChanged: [String] {
            let defaults = Configuration()
            var changed: [String] = []
            if self.connectTimeout != defaults.connectTimeout { changed.append("connectTimeout") }
            if self.readIdleTimeout != defaults.readIdleTimeout { changed.append("readIdleTimeout") }
            if self.maximumConnectionsPerHost != defaults.maximumConnectionsPerHost {
                changed.append("maximumConnectionsPerHost")
            }
            if self.idleConnectionTimeout != defaults.idleConnectionTimeout { changed.append("idleConnectionTimeout") }
            if self.proxy != nil { changed.append("proxy") }
            return changed
        }
    }

    /// TLS settings: verification is on unless explicitly turned off.
    public struct TLS: Sendable, Hashable {
        /// Which certificate authorities to trust.
        public struct TrustRoots: Sendable, Hashable {
            enum Storage: Sendable, Hashable {
                case system
                case pemFile(String)
                case certificates([NIOSSLCertificate])
            }

            let storage: Storage

            /// The operating system's trust store.
            public static let system = TrustRoots(storage: .system)

            /// The system's trust store plus the certificates in a PEM file (for a private CA).
            ///
            /// - Parameter path: The path of a PEM file holding one or more CA certificates.
            /// - Returns: The trust roots.
            public static func pemFile(_ path: String) -> TrustRoots {
                TrustRoots(storage: .pemFile(path))
            }

            /// The system's trust store plus the given CA certificates.
            ///
            /// - Parameter certificates: The CA certificates to trust.
            /// - Returns: The trust roots.
            public static func certificates(_ certificates: [NIOSSLCertificate]) -> TrustRoots {
                TrustRoots(storage: .certificates(certificates))
            }
        }

        /// Whether to verify the server's certificate chain and host name. Default `true`; turning it off
        /// exposes every request, credentials included, to interception.
        public var verifiesCertificates: Bool
        /// The certificate authorities to trust. Default ``TrustRoots/system``.
        public var trustRoots: TrustRoots

        /// Creates TLS settings.
        ///
        /// - Parameters:
        ///   - verifiesCertificates: Whether to verify the server's certificate (default `true`).
        ///   - trustRoots: The authorities to trust (default the system's).
        public init(verifiesCertificates: Bool = true, trustRoots: TrustRoots = .system) {
            self.verifiesCertificates = verifiesCertificates
            self.trustRoots = trustRoots
        }

        /// Whether these are the defaults (verify against the system's roots).
        var isDefault: Bool {
            self.verifiesCertificates && self.trustRoots.storage == .system
        }

        /// The NIOSSL client configuration for these settings.
        func makeTLSConfiguration() -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = self.verifiesCertificates ? .fullVerification : .none
            switch self.trustRoots.storage {
            case .system:
                break
            case .pemFile(let path):
                configuration.additionalTrustRoots = [.file(path)]
            case .certificates(let certificates):
                configuration.additionalTrustRoots = [.certificates(certificates)]
            }
            return configuration
        }
    }

    /// An HTTP proxy. Every request, `http` and `https` alike, goes through it in a `CONNECT` tunnel.
    public struct Proxy: Sendable, Hashable {
        /// The proxy's host name or address.
        public var host: String
        /// The proxy's port.
        public var port: Int

        /// Creates a proxy setting.
        ///
        /// - Parameters:
        ///   - host: The proxy's host name or address.
        ///   - port: The proxy's port.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }
}

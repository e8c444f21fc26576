//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOSSL

/// The HTTP client a client sends through: timeouts, pool size, TLS, proxy and bandwidth.
///
/// <!-- snippet: given configuration: ObjectStorageClient.Configuration -->
/// ```swift
/// var http = HTTPConfiguration()
/// http.readIdleTimeout = .seconds(30)
/// http.maximumConnectionsPerHost = 256
/// http.tls.trustRoots = .pemFile("/etc/ssl/private-ca.pem")
/// http.proxy = .init(host: "proxy.internal", port: 3128)
/// try await withObjectStorageClient(configuration: configuration, http: http) { client in
///     // ... use the client
/// }
/// ```
///
/// What each limit bounds. Waiting is bounded; a transfer that keeps moving never fails, however long it takes:
/// - ``connectTimeout``: establishing one connection (TCP, then TLS).
/// - ``readIdleTimeout``: silence from the server while the client waits for it with room to read: after the
///   request is sent, and between the parts of a response body. The application's own back-pressure (a body it
///   reads slowly, because its own client reads slowly) never counts: only time waiting for the server does.
/// - ``unreadBodyTimeout``: a response body the application stops reading altogether. A streamed download holds
///   its pool connection for as long as its body is open; after this long with nothing read, the request is
///   cancelled and the body throws ``TransportError/Code/bodyUnread``.
/// - ``minimumTransferRate``: a body that keeps moving, but too little (a server dripping bytes); only time spent
///   waiting for the network counts, never the application's own backpressure.
/// - The wait for an answer is the client's one timeout (`ObjectStorageClient.Configuration.timeout`): it bounds
///   each attempt until its response head arrives (not the time its request body spends in transit), and the
///   retries: none starts after it has run out.
///
/// The HTTP client built from it never follows a redirect (a signed request is valid for one host only, and
/// following a redirect would hand its credentials and payload to whatever host the server names; a 3xx answer
/// with a `Location` fails with ``TransportError/Code/redirectRefused``) and never decompresses a body (an object
/// stored with `Content-Encoding: gzip` comes back byte for byte, as stored, so its checksums hold): those are
/// not settings.
public struct HTTPConfiguration: Sendable {
    /// How long establishing a connection (TCP, then TLS) may take. Default 10 s.
    public var connectTimeout: Duration
    /// How long the server may stay silent while the client waits for it with room to read (after sending the
    /// request, and between response body parts), and how long a request body may wait to be written. The
    /// application holding a body back never counts. Default 60 s; `nil` for none.
    public var readIdleTimeout: Duration?
    /// How long a response body may go with nothing read by the application (its buffer full) before the request
    /// is cancelled to free its connection (``TransportError/Code/bodyUnread``). A reader that reads, however
    /// slowly, is never cut. Default 10 minutes, long enough for a proxy app whose own client's socket buffers
    /// take minutes to drain; `nil` for none.
    public var unreadBodyTimeout: Duration?
    /// The most concurrent HTTP/1.1 connections per host. Default 64, enough for many concurrent streams
    /// (a streamed download holds its connection for as long as the application reads it). A request that finds
    /// them all busy waits for one for at most ``connectTimeout``, then fails with
    /// ``TransportError/Code/connectionPoolExhausted``.
    public var maximumConnectionsPerHost: Int
    /// How long an idle pooled connection is kept. Default 60 s.
    public var idleConnectionTimeout: Duration
    /// The slowest a request or response body may move before it counts as stalled and fails with
    /// ``TransportError/Code/transferStalled``. Default ``MinimumTransferRate/default`` (1 KiB per 60 s of
    /// waiting for the network); `nil` for no check.
    public var minimumTransferRate: MinimumTransferRate?
    /// TLS settings. Certificates are verified by default.
    public var tls: TLS
    /// An HTTP proxy to send every request through, or `nil` for none.
    public var proxy: Proxy?
    /// The most bytes per second the client sends, and separately the most it receives, across all its requests:
    /// every transfer, part and directory job of every copy of the client shares it (a token bucket per direction
    /// with a tenth of a second's burst). Default `nil`: no limit. At least 1 KiB/s (a lower value is raised to
    /// it). A limited file body is read in chunks rather than sent with `sendfile`. Bytes move in pieces of up to
    /// 64 KiB, and a request body held back longer than ``readIdleTimeout`` is closed: keep the requests in
    /// flight × 64 KiB well below what the limit moves in that time (at 64 KiB/s, 8 parts wait about 8 s).
    public var bandwidthLimit: Int64?
    /// Whether a file body sent over plain `http` goes with `sendfile` (the kernel copies the file to the socket)
    /// rather than being read into memory chunk by chunk. Never over `https`; tests turn it off to compare.
    package var usesSendfile: Bool

    /// Creates a configuration with the defaults.
    ///
    /// - Parameters:
    ///   - connectTimeout: The connect timeout (default 10 s).
    ///   - readIdleTimeout: The read-idle timeout (default 60 s).
    ///   - maximumConnectionsPerHost: The pool size per host (default 64).
    ///   - minimumTransferRate: The stall limit (default ``MinimumTransferRate/default``).
    ///   - tls: TLS settings (default: verify against the system's roots).
    ///   - proxy: An HTTP proxy (default none).
    ///   - bandwidthLimit: The most bytes per second in each direction (default none).
    public init(
        connectTimeout: Duration = .seconds(10),
        readIdleTimeout: Duration? = .seconds(60),
        maximumConnectionsPerHost: Int = 64,
        minimumTransferRate: MinimumTransferRate? = .default,
        tls: TLS = TLS(),
        proxy: Proxy? = nil,
        bandwidthLimit: Int64? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.readIdleTimeout = readIdleTimeout
        self.unreadBodyTimeout = .seconds(600)
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.idleConnectionTimeout = .seconds(60)
        self.minimumTransferRate = minimumTransferRate
        self.tls = tls
        self.proxy = proxy
        self.usesSendfile = true
        self.bandwidthLimit = bandwidthLimit
    }
}

extension HTTPConfiguration {
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

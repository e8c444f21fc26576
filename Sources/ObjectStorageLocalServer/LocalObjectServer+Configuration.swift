//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning
package import ObjectStorageTransport

extension LocalObjectServer {
    /// How a ``LocalObjectServer`` listens, stores and authenticates.
    ///
    /// ```swift
    /// let configuration = LocalObjectServer.Configuration(storage: .memory, authentication: .anonymous)
    /// let server = LocalObjectServer(configuration: configuration)
    /// ```
    ///
    /// The server binds `127.0.0.1`, answers unsigned requests in the S3 dialect, accepts virtual-hosted requests
    /// for `BUCKET.localhost`, refuses signed requests more than 15 minutes away from its clock, closes a
    /// connection that sends nothing for 75 seconds while it waits for a request, and refuses a request body that
    /// moves less than 1 KiB in 60 seconds of waiting (`objstore serve` can change some of these).
    public struct Configuration: Sendable {
        /// The port to bind; `0` picks a free ephemeral port, which ``LocalObjectServer/start()`` returns.
        public var port: Int
        /// Where objects are kept.
        public var storage: Storage
        /// The accepted credentials, or anonymous access.
        public var authentication: Authentication
        /// The region of each vendor's dialect, where it differs from the vendor's default (`cn-hangzhou`,
        /// `cn-north-4`, `us-east-1`): what `GetBucketLocation` and `Location` values report, and what V4
        /// credential scopes must name (another region is answered as the service answers it). See
        /// ``region(for:)``.
        public var regions: [StorageVendor: String]
        /// The address to bind, `127.0.0.1` by default.
        package var host = "127.0.0.1"
        /// The dialect of anonymous requests, S3 by default.
        package var defaultVendor = StorageVendor.s3
        /// The base domain of virtual-hosted addressing: `Host: BUCKET.DOMAIN[:PORT]`, `localhost` by default.
        package var domain = "localhost"
        /// The largest accepted difference between a signed request's time and the server's clock (15 minutes).
        package var clockSkewLimit = Duration.seconds(15 * 60)
        /// How long a connection may send nothing while the server waits for it: before a request's head is
        /// complete, between the parts of a request body, and between requests on a kept-alive connection.
        /// When it passes, the connection is closed; an upload cut short this way stores nothing.
        ///
        /// A response being written is never cut short by it. The default, 75 seconds, is nginx's keep-alive
        /// timeout and longer than AsyncHTTPClient's 60-second pool idle timeout, so the server does not close
        /// a pooled connection the client is about to reuse; tests of stalled peers set a shorter one.
        ///
        /// Each byte that arrives restarts it, so it does not bound a body that drips: see
        /// ``minimumRequestBodyRate``.
        package var idleTimeout = Duration.seconds(75)
        /// The slowest request body the server reads: fewer than `bytes` bytes of body over `window` of time spent
        /// waiting for the client, and the request is answered 400 `RequestTimeout` (S3's answer to an upload that
        /// stops sending) in its dialect, and its connection closed; an upload refused this way stores nothing.
        /// `nil` for no minimum.
        ///
        /// Only time spent waiting for the client counts, not time the server takes to store what arrived, and the
        /// window restarts whenever the minimum has arrived. The default, 1 KiB per 60 seconds (the client's own
        /// ``MinimumTransferRate/default``), is far below any real client, yet bounds a client that drips a byte
        /// every few seconds to keep a connection, a descriptor and a temporary file; tests set a smaller window.
        package var minimumRequestBodyRate: MinimumTransferRate? = .default
        /// The largest source a CopyObject copies; `nil` (the default) for each service's own limit: 1 GiB for
        /// OSS, 5 GiB for OBS and S3. A larger source is refused as the service refuses it, so a client must copy
        /// it part by part with UploadPartCopy. Tests lower it so that they need not store gigabytes.
        package var maximumCopyObjectSourceSize: Int64?
        /// Whether the S3 dialect reads and reports `x-amz-checksum-crc64nvme` (see `S3Checksum`), as S3 does;
        /// `true` by default. Tests turn it off to play a server without S3's checksums (Ceph RGW 16, MinIO
        /// before 2025, `rclone serve s3`), which ignores the headers.
        package var keepsS3Checksums = true
        /// How long a restore of an archived object takes (RestoreObject): the object stays unreadable, and HEAD
        /// says the restore is in progress, until then. The services take minutes to days; none by default.
        public var restoreDelay = Duration.zero
        /// The server's certificate chain and private key, both PEM: the server then speaks HTTPS only (TLS 1.2 or
        /// 1.3). `nil`, the default, serves plain HTTP. A client must trust the chain's issuer
        /// (`HTTPConfiguration.TLS.trustRoots`).
        package var tls: (certificateChainPEM: [UInt8], privateKeyPEM: [UInt8])?

        /// `https` with ``tls``, else `http`.
        package var scheme: String { self.tls == nil ? "http" : "https" }

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - port: The port to bind; `0` for an ephemeral port.
        ///   - storage: Where objects are kept.
        ///   - authentication: The accepted credentials, or anonymous access.
        ///   - regions: The region of each vendor's dialect where it is not the vendor's default.
        public init(
            port: Int = 0,
            storage: Storage = .memory,
            authentication: Authentication = .credentials([LocalObjectServer.developmentCredentials]),
            regions: [StorageVendor: String] = [:]
        ) {
            self.port = port
            self.storage = storage
            self.authentication = authentication
            self.regions = regions
        }

        /// The region of `vendor`'s dialect: ``regions``' entry, else the vendor's default.
        ///
        /// - Parameter vendor: The vendor.
        /// - Returns: The region its requests name and the server reports.
        public func region(for vendor: StorageVendor) -> String {
            self.regions[vendor] ?? vendor.defaultRegion
        }
    }

    /// Where a ``LocalObjectServer`` keeps buckets and objects.
    public struct Storage: Sendable, Hashable {
        enum Backing: Sendable, Hashable {
            case directory(String)
            case memory
        }

        let backing: Backing

        /// Objects live in files under `path` (created if missing) and survive a restart.
        ///
        /// Bodies of 1 MiB or more are written and read with direct I/O (`O_DIRECT`) on Linux file systems that
        /// support it, past the page cache; this is the storage to benchmark clients against.
        ///
        /// - Parameter path: The data directory.
        /// - Returns: The storage choice.
        public static func directory(_ path: String) -> Storage { Storage(backing: .directory(path)) }

        /// Objects live in memory and vanish with the server (every stored byte is process memory).
        public static let memory = Storage(backing: .memory)

        /// The data directory, or `nil` for ``memory``.
        package var path: String? {
            switch backing {
            case .directory(let path): path
            case .memory: nil
            }
        }
    }

    /// Which requests a ``LocalObjectServer`` accepts.
    public struct Authentication: Sendable, Hashable {
        enum Backing: Sendable, Hashable {
            case credentials([Credentials])
            case anonymous
        }

        let backing: Backing

        /// Every request must be signed (header or presigned URL) with one of `credentials`.
        ///
        /// - Parameter credentials: The accepted key pairs.
        /// - Returns: The authentication choice.
        public static func credentials(_ credentials: [Credentials]) -> Authentication {
            Authentication(backing: .credentials(credentials))
        }

        /// Any request is accepted; signatures are not checked.
        public static let anonymous = Authentication(backing: .anonymous)
    }

    /// The well-known development key pair accepted by default. Never use it for anything real.
    public static let developmentCredentials = Credentials(
        accessKeyID: "LOCALDEVACCESSKEY",
        secretAccessKey: "localdev-secret-key-not-for-production"
    )
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning
public import ObjectStorageTransport

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension ObjectStorageClient {
    /// Where and how the client talks to the service.
    ///
    /// Start from the vendor and region (``oss(region:credentials:)``, ``obs(region:credentials:)``,
    /// ``s3(region:credentials:)``) or from the environment (``environment(_:variables:)``); the initializers
    /// take every fact explicitly, for custom endpoints such as a local server, MinIO or Ceph:
    ///
    /// ```swift
    /// var configuration = ObjectStorageClient.Configuration.oss(region: "cn-hangzhou")
    /// configuration.retry = .exponentialJitter(maxAttempts: 5)
    ///
    /// let minio = ObjectStorageClient.Configuration(
    ///     vendor: .s3,
    ///     endpoint: try Endpoint(url: "http://127.0.0.1:9000"),
    ///     region: "us-east-1",
    ///     credentials: .environment(.s3)
    /// )
    /// ```
    public struct Configuration: Sendable {
        /// The vendor: which headers, error codes, checksums and signature to use.
        public var vendor: StorageVendor
        /// The service endpoint, e.g. `.oss(region: "cn-hangzhou")` or `try Endpoint(url: "http://127.0.0.1:9000")`.
        public var endpoint: Endpoint
        /// The region (required by OSS V4 and SigV4 signing).
        public var region: String?
        /// Virtual-hosted or path-style addressing; `nil` picks path-style for IP and `localhost`
        /// endpoints and virtual-hosted otherwise.
        public var addressing: AddressingStyle?
        /// The signature scheme (default: OSS V4 for OSS, `OBS` for OBS, SigV4 for S3).
        public var signatureVersion: SignatureVersion
        /// Where credentials come from; `nil` sends unsigned (anonymous) requests.
        public var credentials: (any CredentialsProvider)?
        /// The retry policy. `RequestTimeTooSkewed` (after a clock correction), throttling, 5xx,
        /// connection failures and integrity mismatches are retried when the body can be replayed.
        public var retry: RetryPolicy
        /// How long an operation may wait for the service: each attempt's wait for its answer (connecting
        /// included, the time a request body spends in transit not), and the budget for retries (no retry starts
        /// once this long has passed since the operation began). Default 15 min.
        ///
        /// It never bounds a transfer that keeps moving: a slow but steady upload or download takes as long as it
        /// takes. Silence and stalls are bounded by the HTTP client's read-idle timeout and minimum transfer rate
        /// (``/ObjectStorageTransport/HTTPConfiguration``). This is the only timeout on waiting for an answer.
        public var timeout: Duration
        /// Whether ``ObjectStorageClient/listObjects(bucket:prefix:delimiter:maxKeys:startAfter:continuationToken:fetchOwner:logger:)``
        /// (and the directory jobs, which list through it) sends the marker-based ListObjects (V1) rather than
        /// ListObjectsV2. `true` by default for OBS, whose own SDK lists only so (a V2 page from OBS has been seen to
        /// say it is truncated without a continuation token); turn it on for an S3-compatible service that
        /// implements only V1.
        public var usesListObjectsV1: Bool
        /// The signing clock. Leave it alone outside tests; the client adds the learned clock offset to it.
        package var now: @Sendable () -> Date

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - vendor: The vendor.
        ///   - endpoint: The endpoint.
        ///   - region: The region (required by OSS V4 and SigV4).
        ///   - credentials: The credentials provider, e.g. `.environment` or `.static(...)`; `nil` for anonymous
        ///     (unsigned) requests to public buckets.
        ///   - signatureVersion: The signature scheme; `nil` picks the vendor's default.
        public init(
            vendor: StorageVendor,
            endpoint: Endpoint,
            region: String? = nil,
            credentials: (any CredentialsProvider)?,
            signatureVersion: SignatureVersion? = nil
        ) {
            self.vendor = vendor
            self.endpoint = endpoint
            self.region = region
            self.addressing = nil
            self.signatureVersion = signatureVersion ?? vendor.defaultSignatureVersion
            self.credentials = credentials
            self.retry = .exponentialJitter(maxAttempts: 3)
            self.timeout = .seconds(900)
            self.usesListObjectsV1 = vendor == .obs
            self.now = { Date() }
        }

        /// The addressing style in effect.
        var effectiveAddressing: AddressingStyle {
            self.addressing ?? .default(for: self.endpoint)
        }

        /// The vendor header prefix: `x-oss-`, `x-obs-` (OBS signature) or `x-amz-`.
        var headerPrefix: String {
            if self.vendor == .oss { return "x-oss-" }
            if self.vendor == .obs && self.signatureVersion == .obs { return "x-obs-" }
            return "x-amz-"
        }

        /// Whether responses carry OSS's `x-oss-hash-crc64ecma`.
        var isOSS: Bool { self.vendor == .oss }

        var signer: RequestSigner {
            RequestSigner(version: self.signatureVersion, region: self.region)
        }
    }
}

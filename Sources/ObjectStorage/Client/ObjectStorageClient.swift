//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import ObjectStorageTransport
import Synchronization

/// A client for Alibaba Cloud OSS, Huawei Cloud OBS and S3-compatible object storage.
///
/// One `Sendable` value: copy it freely and share it across tasks. By default it sends through the SDK's
/// process-wide HTTP client, so it needs no shutdown.
///
/// Whatever it sends through, the client never follows a redirect (a 3xx answer fails with
/// ``/ObjectStorageTransport/TransportError/Code/redirectRefused``, naming the status and the host it points to:
/// a signed request is valid for its own host only, and following it would hand the credentials to another host)
/// and never decompresses a body (an object stored with `Content-Encoding: gzip` is returned as stored, so its
/// checksums hold).
///
/// ```swift
/// let client = ObjectStorageClient(configuration: .oss(region: "cn-hangzhou"))
/// _ = try await client.putObject(PutObjectRequest(bucket: "b", key: "hello.txt", body: .bytes(Array("hi".utf8))))
/// let object = try await client.getObject(GetObjectRequest(bucket: "b", key: "hello.txt"))
/// let bytes = try await object.body.collect(upTo: 1 << 20)
/// ```
///
/// Every attempt of every operation fetches credentials from the provider and signs with a fresh
/// time corrected by the clock offset learned from the service (`RequestTimeTooSkewed`), which all
/// copies of the client share.
public struct ObjectStorageClient: Sendable {
    /// The configuration.
    public let configuration: Configuration
    let transport: any HTTPTransport
    let logger: Logger
    let clock: ClockCorrection

    /// Creates a client that sends through the SDK's process-wide HTTP client (no redirects, no decompression,
    /// a pool of 64 connections per host), which needs no shutdown.
    ///
    /// Each streamed download holds a connection while its reader reads; to serve more streams at once, change the
    /// network timeouts, TLS, proxy or bandwidth, give a client its own HTTP client with
    /// ``withObjectStorageClient(configuration:http:logger:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - logger: The logger for operations that are not given one.
    public init(configuration: Configuration, logger: Logger? = nil) {
        self.init(configuration: configuration, transport: AsyncHTTPClientTransport.shared, logger: logger)
    }

    /// Creates a client that sends through any transport (a test double, or a client of the package's own).
    ///
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - transport: The transport; the client adds signing, retries and checks on top.
    ///   - logger: The logger for operations that are not given one.
    package init(configuration: Configuration, transport: any HTTPTransport, logger: Logger? = nil) {
        self.configuration = configuration
        self.transport = transport
        self.logger = logger ?? Logger(label: "ObjectStorage", factory: { _ in SwiftLogNoOpLogHandler() })
        self.clock = ClockCorrection()
    }

    /// The offset added to the local clock when signing, learned from the service's answers
    /// (zero until a `RequestTimeTooSkewed` or a skewed bodiless 403 is seen).
    public var clockOffset: Duration {
        .milliseconds(self.clock.offsetMilliseconds)
    }
}

/// The client-wide clock offset, shared by all copies of one client.
final class ClockCorrection: Sendable {
    private let milliseconds = Mutex<Int64>(0)

    /// Drift smaller than this is noise, not skew (the AWS SDKs use a similar threshold).
    static let noiseThresholdMilliseconds: Int64 = 5 * 60 * 1000

    var offsetMilliseconds: Int64 { self.milliseconds.withLock { $0 } }

    /// Stores `offset`; returns whether it changed.
    @discardableResult
    func set(_ offset: Int64) -> Bool {
        self.milliseconds.withLock { current in
            defer { current = offset }
            return current != offset
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Signs requests and presigns URLs for one signature scheme. Pure and deterministic: the signing
/// time is a parameter, and nothing is read from the environment.
///
/// <!-- snippet: given credentials: Credentials -->
/// ```swift
/// let signer = RequestSigner(version: .ossV4, region: "cn-hangzhou")
/// let request = SigningRequest(method: "GET", endpoint: .oss(region: "cn-hangzhou"),
///                              bucket: "examplebucket", key: "a/b/c.txt")
/// let url = try signer.presign(request, credentials: credentials, expires: .seconds(900), at: .now)
/// let signed = try signer.sign(request, credentials: credentials, at: .now)
/// ```
package struct RequestSigner: Sendable {
    /// The signature scheme.
    package var version: SignatureVersion
    /// The region (required by OSS V4 and SigV4, ignored by the others).
    package var region: String?
    /// The V4 scope's service: `oss` for OSS V4, `s3` for SigV4 when `nil`.
    package var service: String?
    /// OSS V4 additional headers to sign when the request carries them (ignored by other schemes).
    package var additionalHeaders: [String]

    /// The longest presign expiry the V4 schemes accept: 7 days.
    package static let maximumV4Expiry: Int64 = 604_800

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - version: The signature scheme.
    ///   - region: The region; required for ``SignatureVersion/ossV4`` and ``SignatureVersion/sigV4``
    ///     (checked when signing).
    ///   - service: The V4 scope's service (`oss` / `s3` by default).
    ///   - additionalHeaders: OSS V4 additional headers to sign (e.g. `host`, `range`).
    package init(version: SignatureVersion, region: String?, service: String? = nil, additionalHeaders: [String] = []) {
        self.version = version
        self.region = region
        self.service = service
        self.additionalHeaders = additionalHeaders
    }

    /// Signs `request` in its headers.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - credentials: The credentials; a security token is sent in the scheme's token header.
    ///   - date: The signing time.
    ///   - payload: The V4 payload hash (`x-oss-content-sha256` / `x-amz-content-sha256`);
    ///     ignored by the V1/OBS/V2 schemes. OSS accepts only ``PayloadHash/unsigned``.
    /// - Returns: The URL and every header to send.
    /// - Throws: ``SigningError/Code/missingRegion`` for a V4 scheme without a region,
    ///   ``SigningError/Code/invalidRequest`` for a request that cannot be signed.
    package func sign(
        _ request: SigningRequest,
        credentials: Credentials,
        at date: Date,
        payload: PayloadHash = .unsigned
    ) throws(SigningError) -> SignedRequest {
        let target = try RequestTarget(validating: request)
        let timestamp = SigningTimestamp(date)
        switch self.version.base {
        case .ossV1:
            return self.signOSSV1(request, target: target, credentials: credentials, timestamp: timestamp)
        case .obs, .awsV2:
            return self.signOBS(
                request,
                flavor: self.version == .obs ? .obs : .awsV2,
                target: target,
                credentials: credentials,
                timestamp: timestamp
            )
        case .ossV4, .sigV4:
            return try self.signV4(
                request,
                as: self.version == .ossV4 ? .ossV4 : .sigV4,
                target: target,
                credentials: credentials,
                timestamp: timestamp,
                payload: payload
            )
        }
    }

    /// Presigns `request` as a URL valid for `expires`.
    ///
    /// Works for any method; the security token, `response-*` overrides, `versionId`,
    /// `uploadId`/`partNumber` and any other query parameters are carried and signed as the
    /// scheme requires.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - credentials: The credentials; a security token goes into the query.
    ///   - expires: How long the URL stays valid (whole seconds). OSS V4 and SigV4 accept
    ///     1 s ... 7 days; the absolute-expiry schemes (OSS V1, OBS, AWS V2) need at least 1 s.
    ///   - date: The signing time.
    /// - Returns: The URL, its expiration and the headers the caller must send with it.
    /// - Throws: ``SigningError/Code/invalidExpiry`` before anything is signed when `expires` is
    ///   out of range; ``SigningError/Code/missingRegion``; ``SigningError/Code/invalidRequest``.
    package func presign(
        _ request: SigningRequest,
        credentials: Credentials,
        expires: Duration,
        at date: Date
    ) throws(SigningError) -> PresignedURL {
        let seconds = expires.components.seconds
        let timestamp = SigningTimestamp(date)
        let range: ClosedRange<Int64> =
            switch self.version.base {
            case .ossV4, .sigV4: 1...Self.maximumV4Expiry
            case .ossV1, .obs, .awsV2: 1...Int64(Int32.max)
            }
        guard range.contains(seconds) else {
            throw .invalidExpiry(seconds: seconds, range: range, scheme: self.version.description)
        }
        let target = try RequestTarget(validating: request)
        switch self.version.base {
        case .ossV1:
            return self.presignOSSV1(
                request,
                target: target,
                credentials: credentials,
                timestamp: timestamp,
                seconds: seconds
            )
        case .obs, .awsV2:
            return self.presignOBS(
                request,
                flavor: self.version == .obs ? .obs : .awsV2,
                target: target,
                credentials: credentials,
                timestamp: timestamp,
                seconds: seconds
            )
        case .ossV4, .sigV4:
            return try self.presignV4(
                request,
                as: self.version == .ossV4 ? .ossV4 : .sigV4,
                target: target,
                credentials: credentials,
                timestamp: timestamp,
                seconds: seconds
            )
        }
    }

    func requireRegion() throws(SigningError) -> String {
        guard let region = self.region, !region.isEmpty else {
            throw .missingRegion(scheme: self.version.description)
        }
        return region
    }
}

extension SigningTimestamp {
    /// The Unix time `seconds` later.
    func adding(seconds: Int64) -> SigningTimestamp {
        SigningTimestamp(secondsSince1970: self.secondsSince1970 + seconds)
    }
}

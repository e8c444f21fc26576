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

/// An error answered by the service: its status, the vendor's code and message, and the ids to quote
/// to support.
///
/// <!-- snippet: given client: ObjectStorageClient -->
/// ```swift
/// do {
///     _ = try await client.getObject(GetObjectRequest(bucket: "b", key: "missing"))
/// } catch let error as ServiceError where error.code == .noSuchKey {
///     print("not found; request id \(error.requestID ?? "-")")
/// }
/// ```
///
/// The description never contains a secret, a signature or an `Authorization` header.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// A vendor error code such as `NoSuchKey`: an open set of strings with known constants.
    public struct Code: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The code as the service spells it.
        public var rawValue: String

        /// Creates a code.
        ///
        /// - Parameter rawValue: The code as the service spells it.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from a literal.
        ///
        /// - Parameter value: The code as the service spells it.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// The code as the service spells it.
        public var description: String { self.rawValue }

        /// The object does not exist.
        public static let noSuchKey: Code = "NoSuchKey"
        /// The bucket does not exist.
        public static let noSuchBucket: Code = "NoSuchBucket"
        /// The multipart upload does not exist (aborted, completed or never created).
        public static let noSuchUpload: Code = "NoSuchUpload"
        /// An `If-Match` / `If-Unmodified-Since` condition failed (412), or a conditional write's (S3's
        /// `If-None-Match: *` found the key, its `If-Match` another ETag).
        public static let preconditionFailed: Code = "PreconditionFailed"
        /// S3: a concurrent write to the key won while a conditional write was in progress (409).
        public static let conditionalRequestConflict: Code = "ConditionalRequestConflict"
        /// OSS: `x-oss-forbid-overwrite: true` found an object with the key (409).
        public static let fileAlreadyExists: Code = "FileAlreadyExists"
        /// An `If-None-Match` / `If-Modified-Since` condition held: the object is unchanged (304).
        public static let notModified: Code = "NotModified"
        /// The requested range cannot be satisfied (416).
        public static let invalidRange: Code = "InvalidRange"
        /// The signature does not match: usually a wrong secret (403).
        public static let signatureDoesNotMatch: Code = "SignatureDoesNotMatch"
        /// Access is denied (403).
        public static let accessDenied: Code = "AccessDenied"
        /// The access key id is unknown (403).
        public static let invalidAccessKeyID: Code = "InvalidAccessKeyId"
        /// The request time is too far from the server's time (403); the client corrects and retries.
        public static let requestTimeTooSkewed: Code = "RequestTimeTooSkewed"
        /// The bucket already exists and belongs to someone else.
        public static let bucketAlreadyExists: Code = "BucketAlreadyExists"
        /// The bucket already exists and is yours.
        public static let bucketAlreadyOwnedByYou: Code = "BucketAlreadyOwnedByYou"
        /// The bucket still holds objects or uploads.
        public static let bucketNotEmpty: Code = "BucketNotEmpty"
        /// The Content-MD5 sent does not match the body.
        public static let badDigest: Code = "BadDigest"
        /// A part is missing or its ETag does not match.
        public static let invalidPart: Code = "InvalidPart"
        /// The service is throttling (503).
        public static let slowDown: Code = "SlowDown"
        /// The service failed (500).
        public static let internalError: Code = "InternalError"
        /// `NotFound`, as some services name a 404. A bodiless 404 (a HEAD) is reported as
        /// ``noSuchKey``, or ``noSuchBucket`` for a bucket request.
        public static let notFound: Code = "NotFound"
        /// A 403 without an error document (a HEAD), or `Forbidden` as a service names it.
        public static let forbidden: Code = "Forbidden"
        /// OSS, OBS: an append named another position than the object's length (409);
        /// ``ServiceError/nextAppendPosition`` is the length.
        public static let positionNotEqualToLength: Code = "PositionNotEqualToLength"
        /// OSS, OBS: an append to an object that is not appendable (a PUT, a copy or a multipart upload made it;
        /// 409).
        public static let objectNotAppendable: Code = "ObjectNotAppendable"
        /// A read or copy of an archived object (S3 `GLACIER`, `DEEP_ARCHIVE`; OSS `Archive` and colder; OBS `COLD`,
        /// `DEEP_ARCHIVE`) that is not restored, or still being restored (403); on S3 and OBS also a restore of an
        /// object that is not archived. ``ObjectStorageClient/restoreObject(bucket:key:versionID:days:tier:logger:)``
        /// restores it.
        public static let invalidObjectState: Code = "InvalidObjectState"
    }

    /// The HTTP status, e.g. 404.
    public var statusCode: Int
    /// The vendor error code, e.g. `NoSuchKey`. Derived from the status for bodiless (HEAD) answers.
    public var code: Code
    /// The service's message.
    public var message: String
    /// The bucket of the request that failed, if it named one.
    public var bucket: String?
    /// The object key of the request that failed, if it named one.
    public var key: String?
    /// The request id (`x-oss-request-id`, `x-obs-request-id`, `x-amz-request-id` or `<RequestId>`).
    public var requestID: String?
    /// The host id (`<HostId>`, `x-amz-id-2`, `x-obs-id-2`).
    public var hostID: String?
    /// Alibaba Cloud OSS's diagnostic error code (`<EC>` or `x-oss-ec`).
    public var ec: String?
    /// The string the server signed, returned with `SignatureDoesNotMatch` (no secret in it).
    package var stringToSign: String?
    /// The server's time, from its `Date` header, when present.
    package var serverDate: Date?
    /// Every child of the `<Error>` document by element name (`Key`, `BucketName`, `Resource`...).
    public var details: [String: String]
    /// Where the service expects the next append: the object's length, which it reports with
    /// ``Code/positionNotEqualToLength`` (`x-oss-next-append-position`, `x-obs-next-append-position`); `nil` in
    /// other answers.
    public var nextAppendPosition: Int64?
    /// The response's `Retry-After`, if any.
    package var retryAfter: String?
    /// Set when the client corrected its clock from this answer, so a retry can succeed.
    package var correctedClock = false

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status.
    ///   - code: The vendor code.
    ///   - message: The message.
    ///   - requestID: The request id.
    ///   - hostID: The host id.
    ///   - ec: The OSS `EC` code.
    ///   - stringToSign: The server's string-to-sign.
    ///   - details: Other elements of the error document.
    package init(
        statusCode: Int,
        code: Code,
        message: String,
        requestID: String? = nil,
        hostID: String? = nil,
        ec: String? = nil,
        stringToSign: String? = nil,
        details: [String: String] = [:]
    ) {
        self.statusCode = statusCode
        self.code = code
        self.message = message
        self.requestID = requestID
        self.hostID = hostID
        self.ec = ec
        self.stringToSign = stringToSign
        self.details = details
    }

    /// `NoSuchKey (404): message [bucket B, key K, request id R, EC ...]`. Holds no secret.
    public var description: String {
        var text = "\(self.code) (\(self.statusCode))"
        if !self.message.isEmpty { text += ": \(self.message)" }
        var ids: [String] = []
        if let bucket = self.bucket { ids.append("bucket \(bucket)") }
        if let key = self.key { ids.append("key \(key)") }
        if let requestID = self.requestID { ids.append("request id \(requestID)") }
        if let hostID = self.hostID { ids.append("host id \(hostID)") }
        if let ec = self.ec { ids.append("EC \(ec)") }
        if let position = self.nextAppendPosition { ids.append("next append position \(position)") }
        if !ids.isEmpty { text += " [\(ids.joined(separator: ", "))]" }
        return text
    }
}

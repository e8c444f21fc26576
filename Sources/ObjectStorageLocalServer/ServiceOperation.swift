//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An API operation recognised by the local server, named as the S3 API spells it; fault rules select requests by
/// it.
///
/// Write it as a string literal, `"UploadPart"`: one of `ListBuckets`, `CreateBucket`, `DeleteBucket`, `HeadBucket`,
/// `GetBucketLocation`, `ListObjects`, `ListObjectsV2`, `PutObject`, `CopyObject`, `GetObject`, `HeadObject`,
/// `DeleteObject`, `DeleteObjects`, `PostObject`, `CreateMultipartUpload`, `UploadPart`, `CompleteMultipartUpload`,
/// `AbortMultipartUpload`, `ListParts`, `ListMultipartUploads`, `AppendObject`, `PutSymlink` or `GetSymlink`, among
/// others (the tags, versions and CORS operations). A name the server does not route is a programming
/// error: it stops the test at once, with the list above, rather than leave a rule that never matches.
///
/// <!-- snippet: given server: LocalObjectServer -->
/// ```swift
/// server.faults.add(FaultRule(operations: ["UploadPart"], trigger: .first(2), fault: .slowDown))
/// ```
public struct ServiceOperation: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The operation name, as the S3 API spells it (`GetObject`).
    package let name: String

    /// Creates an operation value from its S3 API name.
    ///
    /// - Parameter name: The operation name, such as `GetObject`.
    package init(name: String) { self.name = name }

    /// The operation named `value`.
    ///
    /// - Parameter value: An operation the server routes, e.g. `UploadPart`; any other name stops the program.
    public init(stringLiteral value: String) {
        let operation = ServiceOperation(name: value)
        precondition(
            Self.routed.contains(operation),
            "the local server has no operation '\(value)'; it routes \(Self.routed.map(\.name).joined(separator: ", "))"
        )
        self = operation
    }

    /// The operation name.
    public var description: String { name }

    /// `GET /`.
    package static let listBuckets = ServiceOperation(name: "ListBuckets")
    /// `PUT /bucket`.
    package static let createBucket = ServiceOperation(name: "CreateBucket")
    /// `DELETE /bucket`.
    package static let deleteBucket = ServiceOperation(name: "DeleteBucket")
    /// `HEAD /bucket`.
    package static let headBucket = ServiceOperation(name: "HeadBucket")
    /// `GET /bucket?location`.
    package static let getBucketLocation = ServiceOperation(name: "GetBucketLocation")
    /// `GET /bucket`.
    package static let listObjects = ServiceOperation(name: "ListObjects")
    /// `GET /bucket?list-type=2`.
    package static let listObjectsV2 = ServiceOperation(name: "ListObjectsV2")
    /// `PUT /bucket/key`.
    package static let putObject = ServiceOperation(name: "PutObject")
    /// `PUT /bucket/key` with a copy source.
    package static let copyObject = ServiceOperation(name: "CopyObject")
    /// `GET /bucket/key`.
    package static let getObject = ServiceOperation(name: "GetObject")
    /// `HEAD /bucket/key`.
    package static let headObject = ServiceOperation(name: "HeadObject")
    /// `DELETE /bucket/key`.
    package static let deleteObject = ServiceOperation(name: "DeleteObject")
    /// `POST /bucket?delete`.
    package static let deleteObjects = ServiceOperation(name: "DeleteObjects")
    /// `POST /bucket` with a `multipart/form-data` form (a browser upload under a POST policy).
    package static let postObject = ServiceOperation(name: "PostObject")
    /// `POST /bucket/key?uploads`.
    package static let createMultipartUpload = ServiceOperation(name: "CreateMultipartUpload")
    /// `PUT /bucket/key?partNumber=N&uploadId=ID`.
    package static let uploadPart = ServiceOperation(name: "UploadPart")
    /// `POST /bucket/key?uploadId=ID`.
    package static let completeMultipartUpload = ServiceOperation(name: "CompleteMultipartUpload")
    /// `DELETE /bucket/key?uploadId=ID`.
    package static let abortMultipartUpload = ServiceOperation(name: "AbortMultipartUpload")
    /// `GET /bucket/key?uploadId=ID`.
    package static let listParts = ServiceOperation(name: "ListParts")
    /// `GET /bucket?uploads`.
    package static let listMultipartUploads = ServiceOperation(name: "ListMultipartUploads")
    /// `GET /bucket?versions`.
    package static let listObjectVersions = ServiceOperation(name: "ListObjectVersions")
    /// `GET /bucket?versioning`.
    package static let getBucketVersioning = ServiceOperation(name: "GetBucketVersioning")
    /// `PUT /bucket?versioning`.
    package static let putBucketVersioning = ServiceOperation(name: "PutBucketVersioning")
    /// `GET /bucket/key?tagging`.
    package static let getObjectTagging = ServiceOperation(name: "GetObjectTagging")
    /// `PUT /bucket/key?tagging`.
    package static let putObjectTagging = ServiceOperation(name: "PutObjectTagging")
    /// `DELETE /bucket/key?tagging`.
    package static let deleteObjectTagging = ServiceOperation(name: "DeleteObjectTagging")
    /// `GET /bucket?cors`.
    package static let getBucketCors = ServiceOperation(name: "GetBucketCors")
    /// `PUT /bucket?cors`.
    package static let putBucketCors = ServiceOperation(name: "PutBucketCors")
    /// `DELETE /bucket?cors`.
    package static let deleteBucketCors = ServiceOperation(name: "DeleteBucketCors")
    /// `GET /bucket?lifecycle`.
    package static let getBucketLifecycle = ServiceOperation(name: "GetBucketLifecycle")
    /// `PUT /bucket?lifecycle`.
    package static let putBucketLifecycle = ServiceOperation(name: "PutBucketLifecycle")
    /// `DELETE /bucket?lifecycle`.
    package static let deleteBucketLifecycle = ServiceOperation(name: "DeleteBucketLifecycle")
    /// `POST /bucket/key?append&position=N` (OSS and OBS).
    package static let appendObject = ServiceOperation(name: "AppendObject")
    /// `PUT /bucket/key?symlink` (OSS).
    package static let putSymlink = ServiceOperation(name: "PutSymlink")
    /// `GET /bucket/key?symlink` (OSS).
    package static let getSymlink = ServiceOperation(name: "GetSymlink")
    /// `POST /bucket/key?restore`.
    package static let restoreObject = ServiceOperation(name: "RestoreObject")
    /// `OPTIONS /bucket[/key]`: a browser's CORS preflight, unsigned.
    package static let preflight = ServiceOperation(name: "OptionsObject")
    /// `GET /bucket?policy`.
    package static let getBucketPolicy = ServiceOperation(name: "GetBucketPolicy")
    /// `PUT /bucket?policy`.
    package static let putBucketPolicy = ServiceOperation(name: "PutBucketPolicy")
    /// `DELETE /bucket?policy`.
    package static let deleteBucketPolicy = ServiceOperation(name: "DeleteBucketPolicy")
    /// `GET /bucket?encryption`.
    package static let getBucketEncryption = ServiceOperation(name: "GetBucketEncryption")
    /// `PUT /bucket?encryption`.
    package static let putBucketEncryption = ServiceOperation(name: "PutBucketEncryption")
    /// `DELETE /bucket?encryption`.
    package static let deleteBucketEncryption = ServiceOperation(name: "DeleteBucketEncryption")
    /// `GET /bucket?acl`.
    package static let getBucketAcl = ServiceOperation(name: "GetBucketAcl")
    /// `PUT /bucket?acl`.
    package static let putBucketAcl = ServiceOperation(name: "PutBucketAcl")
    /// `GET /bucket/key?acl`.
    package static let getObjectAcl = ServiceOperation(name: "GetObjectAcl")
    /// `PUT /bucket/key?acl`.
    package static let putObjectAcl = ServiceOperation(name: "PutObjectAcl")

    /// Every operation the server routes, POST forms included.
    static let routed: Set<ServiceOperation> = Set(known + [.postObject])

    /// Every operation the server routes, in the order above.
    package static let known: [ServiceOperation] = [
        .listBuckets, .createBucket, .deleteBucket, .headBucket, .getBucketLocation, .listObjects, .listObjectsV2,
        .putObject, .copyObject, .getObject, .headObject, .deleteObject, .deleteObjects, .createMultipartUpload,
        .uploadPart, .completeMultipartUpload, .abortMultipartUpload, .listParts, .listMultipartUploads,
        .getObjectTagging, .putObjectTagging, .deleteObjectTagging, .listObjectVersions, .getBucketVersioning,
        .putBucketVersioning, .getBucketCors, .putBucketCors, .deleteBucketCors, .preflight,
        .getBucketLifecycle, .putBucketLifecycle, .deleteBucketLifecycle, .appendObject, .putSymlink, .getSymlink,
        .restoreObject,
        .getBucketPolicy, .putBucketPolicy, .deleteBucketPolicy, .getBucketEncryption, .putBucketEncryption,
        .deleteBucketEncryption, .getBucketAcl, .putBucketAcl, .getObjectAcl, .putObjectAcl,
    ]
}

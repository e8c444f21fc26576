//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An API operation recognised by the local server; fault rules select requests by it.
public struct ServiceOperation: Hashable, Sendable, CustomStringConvertible {
    /// The operation name, as the S3 API spells it (`GetObject`).
    package let name: String

    /// Creates an operation value from its S3 API name.
    ///
    /// - Parameter name: The operation name, such as `GetObject`.
    package init(_ name: String) { self.name = name }

    /// The operation name.
    public var description: String { name }

    /// `GET /`.
    public static let listBuckets = ServiceOperation("ListBuckets")
    /// `PUT /bucket`.
    public static let createBucket = ServiceOperation("CreateBucket")
    /// `DELETE /bucket`.
    public static let deleteBucket = ServiceOperation("DeleteBucket")
    /// `HEAD /bucket`.
    public static let headBucket = ServiceOperation("HeadBucket")
    /// `GET /bucket?location`.
    public static let getBucketLocation = ServiceOperation("GetBucketLocation")
    /// `GET /bucket`.
    public static let listObjects = ServiceOperation("ListObjects")
    /// `GET /bucket?list-type=2`.
    public static let listObjectsV2 = ServiceOperation("ListObjectsV2")
    /// `PUT /bucket/key`.
    public static let putObject = ServiceOperation("PutObject")
    /// `PUT /bucket/key` with a copy source.
    public static let copyObject = ServiceOperation("CopyObject")
    /// `GET /bucket/key`.
    public static let getObject = ServiceOperation("GetObject")
    /// `HEAD /bucket/key`.
    public static let headObject = ServiceOperation("HeadObject")
    /// `DELETE /bucket/key`.
    public static let deleteObject = ServiceOperation("DeleteObject")
    /// `POST /bucket?delete`.
    public static let deleteObjects = ServiceOperation("DeleteObjects")
    /// `POST /bucket` with a `multipart/form-data` form (a browser upload under a POST policy).
    public static let postObject = ServiceOperation("PostObject")
    /// `POST /bucket/key?uploads`.
    public static let createMultipartUpload = ServiceOperation("CreateMultipartUpload")
    /// `PUT /bucket/key?partNumber=N&uploadId=ID`.
    public static let uploadPart = ServiceOperation("UploadPart")
    /// `POST /bucket/key?uploadId=ID`.
    public static let completeMultipartUpload = ServiceOperation("CompleteMultipartUpload")
    /// `DELETE /bucket/key?uploadId=ID`.
    public static let abortMultipartUpload = ServiceOperation("AbortMultipartUpload")
    /// `GET /bucket/key?uploadId=ID`.
    public static let listParts = ServiceOperation("ListParts")
    /// `GET /bucket?uploads`.
    public static let listMultipartUploads = ServiceOperation("ListMultipartUploads")

    /// Every operation the server routes, in the order above.
    package static let known: [ServiceOperation] = [
        .listBuckets, .createBucket, .deleteBucket, .headBucket, .getBucketLocation, .listObjects, .listObjectsV2,
        .putObject, .copyObject, .getObject, .headObject, .deleteObject, .deleteObjects, .createMultipartUpload,
        .uploadPart, .completeMultipartUpload, .abortMultipartUpload, .listParts, .listMultipartUploads,
    ]
}

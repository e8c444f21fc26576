//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An API operation recognised by the local server; fault rules select requests by it.
public struct Operation: Hashable, Sendable, CustomStringConvertible {
    /// The operation name, as the S3 API spells it (`GetObject`).
    package let name: String

    /// Creates an operation value from its S3 API name.
    ///
    /// - Parameter name: The operation name, such as `GetObject`.
    package init(_ name: String) { self.name = name }

    /// The operation name.
    public var description: String { name }

    /// `GET /`.
    public static let listBuckets = Operation("ListBuckets")
    /// `PUT /bucket`.
    public static let createBucket = Operation("CreateBucket")
    /// `DELETE /bucket`.
    public static let deleteBucket = Operation("DeleteBucket")
    /// `HEAD /bucket`.
    public static let headBucket = Operation("HeadBucket")
    /// `GET /bucket?location`.
    public static let getBucketLocation = Operation("GetBucketLocation")
    /// `GET /bucket`.
    public static let listObjects = Operation("ListObjects")
    /// `GET /bucket?list-type=2`.
    public static let listObjectsV2 = Operation("ListObjectsV2")
    /// `PUT /bucket/key`.
    public static let putObject = Operation("PutObject")
    /// `PUT /bucket/key` with a copy source.
    public static let copyObject = Operation("CopyObject")
    /// `GET /bucket/key`.
    public static let getObject = Operation("GetObject")
    /// `HEAD /bucket/key`.
    public static let headObject = Operation("HeadObject")
    /// `DELETE /bucket/key`.
    public static let deleteObject = Operation("DeleteObject")
    /// `POST /bucket?delete`.
    public static let deleteObjects = Operation("DeleteObjects")
    /// `POST /bucket` with a `multipart/form-data` form (a browser upload under a POST policy).
    public static let postObject = Operation("PostObject")
    /// `POST /bucket/key?uploads`.
    public static let createMultipartUpload = Operation("CreateMultipartUpload")
    /// `PUT /bucket/key?partNumber=N&uploadId=ID`.
    public static let uploadPart = Operation("UploadPart")
    /// `POST /bucket/key?uploadId=ID`.
    public static let completeMultipartUpload = Operation("CompleteMultipartUpload")
    /// `DELETE /bucket/key?uploadId=ID`.
    public static let abortMultipartUpload = Operation("AbortMultipartUpload")
    /// `GET /bucket/key?uploadId=ID`.
    public static let listParts = Operation("ListParts")
    /// `GET /bucket?uploads`.
    public static let listMultipartUploads = Operation("ListMultipartUploads")

    /// Every operation the server routes, in the order above.
    package static let known: [Operation] = [
        .listBuckets, .createBucket, .deleteBucket, .headBucket, .getBucketLocation, .listObjects, .listObjectsV2,
        .putObject, .copyObject, .getObject, .headObject, .deleteObject, .deleteObjects, .createMultipartUpload,
        .uploadPart, .completeMultipartUpload, .abortMultipartUpload, .listParts, .listMultipartUploads,
    ]
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

/// What a third-party server does, so each check asserts only what that server promises
/// (docs/PEERS.md lists each peer's deviations from AWS S3).
struct Peer: Sendable {
    /// The peer's name on the command line.
    var name: String
    /// Whether it checks SigV4 (so a wrong secret must be refused).
    var verifiesSignatures: Bool
    /// Whether the client may create buckets and write objects.
    var writable: Bool
    /// Whether a Range GET answers 206 with `Content-Range` (rclone answers 200 with the right bytes).
    var answersRangesWith206: Bool
    /// Whether a Range past the end answers 416.
    var answersUnsatisfiableRangesWith416: Bool
    /// Whether `If-Match` / `If-None-Match` are honoured (rclone ignores them).
    var honoursConditionals: Bool
    /// Whether presigned URLs can be checked (moto with auth on answers them with 500).
    var verifiesPresignedURLs: Bool
    /// Whether HEAD after a multipart upload reports the `…-N` ETag that Complete returned.
    var keepsMultipartETag: Bool
    /// Whether non-final parts under 5 MiB are refused with `EntityTooSmall`.
    var enforcesMinimumPartSize: Bool
    /// Whether a failed Complete (`InvalidPart`) leaves the upload usable.
    var keepsUploadAfterFailedComplete: Bool
    /// Whether a `/` in a query value (a listing's prefix or delimiter) passes its signature check;
    /// moto 5 with auth on refuses it with SignatureDoesNotMatch, from boto3 as well.
    var acceptsSlashInSignedQuery = true
    /// Whether a key with non-ASCII characters (`ü`, `日本語`) passes its signature check; moto 5 with auth on
    /// refuses it with SignatureDoesNotMatch, from boto3 as well (a space alone passes).
    var acceptsNonASCIISignedKeys = true
    /// Whether repeating a Complete that already succeeded answers 200 again, as S3 does; rclone answers
    /// NoSuchUpload, so a Complete whose answer was lost cannot be retried there.
    var repeatsCompleteIdempotently = false
    /// Whether CompleteMultipartUpload's answer carries the object's ETag; Ceph RGW's has `<ETag></ETag>`.
    var reportsETagOnComplete = true
    /// The code of ListParts for an upload id the server does not know: `NoSuchUpload`; Ceph RGW `NoSuchKey`.
    var unknownUploadCode: ServiceError.Code = .noSuchUpload
    /// Whether presigned HEAD and PUT URLs are checked (rclone checks GET and HEAD only).
    var verifiesPresignedHeadAndPut = false
    /// Whether AWS signature V2 (header and presigned) is verified.
    var verifiesSignatureV2 = false
    /// Whether UploadPartCopy works (with `x-amz-copy-source-range`), so a multipart copy can succeed; rclone
    /// serve s3 answers it 200 with an empty body and stores an empty part. (moto copies parts but ignores
    /// `x-amz-copy-source-if-match`.)
    var copiesParts = true
    /// Whether POST policy forms (browser uploads) are accepted and their conditions enforced.
    var verifiesPostPolicies = false
    /// Whether object tags (`?tagging`) are stored and read back.
    var storesTags = false
    /// Whether a CopyObject with `x-amz-tagging-directive: REPLACE` takes the request's tags; Ceph RGW 16 ignores
    /// the directive and keeps the source's.
    var replacesTagsOnCopy = true

    static let rclone = Peer(
        name: "rclone",
        verifiesSignatures: true,
        writable: true,
        answersRangesWith206: false,
        answersUnsatisfiableRangesWith416: false,
        honoursConditionals: false,
        verifiesPresignedURLs: true,
        keepsMultipartETag: false,
        enforcesMinimumPartSize: false,
        keepsUploadAfterFailedComplete: false,
        copiesParts: false
    )

    static let moto = Peer(
        name: "moto",
        verifiesSignatures: true,
        writable: true,
        answersRangesWith206: true,
        answersUnsatisfiableRangesWith416: true,
        honoursConditionals: true,
        verifiesPresignedURLs: false,
        keepsMultipartETag: true,
        enforcesMinimumPartSize: true,
        keepsUploadAfterFailedComplete: true,
        acceptsSlashInSignedQuery: false,
        acceptsNonASCIISignedKeys: false,
        repeatsCompleteIdempotently: true,
        storesTags: true
    )

    static let nginx = Peer(
        name: "nginx",
        verifiesSignatures: false,
        writable: false,
        answersRangesWith206: true,
        answersUnsatisfiableRangesWith416: true,
        honoursConditionals: true,
        verifiesPresignedURLs: false,
        keepsMultipartETag: false,
        enforcesMinimumPartSize: false,
        keepsUploadAfterFailedComplete: false
    )

    /// Ceph RADOS Gateway 16 (`Scripts/ceph-rgw`): strict S3 rules and both signature versions, with the
    /// deviations its flags below record.
    static let rgw = Peer(
        name: "rgw",
        verifiesSignatures: true,
        writable: true,
        answersRangesWith206: true,
        answersUnsatisfiableRangesWith416: true,
        honoursConditionals: true,
        verifiesPresignedURLs: true,
        keepsMultipartETag: true,
        enforcesMinimumPartSize: true,
        keepsUploadAfterFailedComplete: true,
        repeatsCompleteIdempotently: true,
        reportsETagOnComplete: false,
        unknownUploadCode: .noSuchKey,
        verifiesPresignedHeadAndPut: true,
        verifiesSignatureV2: true,
        verifiesPostPolicies: true,
        storesTags: true,
        replacesTagsOnCopy: false
    )

    static func named(_ name: String) -> Peer? {
        [Peer.rclone, .moto, .nginx, .rgw].first { $0.name == name }
    }
}

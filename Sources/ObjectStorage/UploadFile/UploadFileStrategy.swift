//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning

/// One call of ``ObjectStorageClient/uploadFile(from:bucket:key:attributes:options:logger:progress:)``: the
/// upload direction of ``CheckpointedTransfer``. A file no larger than one part goes up as a single PUT; a larger
/// one as a multipart upload whose parts are read from the file by offset, with `UploadCheckpoint` recording the
/// upload id and every part the server acknowledged.
struct UploadFileStrategy: TransferStrategy {
    let client: ObjectStorageClient
    let request: UploadFileRequest
    let progress: TransferProgressHandler?
    let logger: Logger
    let sourcePath: String
    let identity: UploadCheckpoint.Identity
    let parameters: UploadCheckpoint.ObjectParameters
    /// The object's attributes, with the media type guessed from the file's extension when the caller gave none.
    let attributes: UploadAttributes
    /// The file as it was when the call started.
    let source: FileIdentity
    let plan: UploadPartSizing.Plan
    let checkpointPath: String?
    let store: CheckpointStore

    var concurrency: Int { request.concurrency }
    /// How many times a multipart upload is started over (NoSuchUpload) before giving up.
    var maximumRestarts: Int { 3 }

    init(
        client: ObjectStorageClient,
        request: UploadFileRequest,
        progress: TransferProgressHandler?,
        logger: Logger
    ) throws {
        try request.options.validate()
        guard !request.bucket.isEmpty, !request.key.isEmpty else {
            throw ObjectStorageError.invalidArgument("uploadFile needs a bucket and a key")
        }
        self.client = client
        self.request = request
        self.progress = progress
        self.logger = logger
        self.identity = UploadCheckpoint.Identity(
            vendor: client.configuration.vendor.description,
            endpoint: client.configuration.endpoint.description,
            bucket: request.bucket,
            key: request.key,
            sourcePath: try CheckpointPaths.absolute(request.filePath)
        )
        self.sourcePath = self.identity.sourcePath
        var attributes = request.attributes
        attributes.contentType = attributes.contentType ?? MediaTypes.guess(forPath: request.filePath)
        self.attributes = attributes
        var parameters = Self.parameters(of: attributes)
        if Self.sentChecksum(client: client, request: request) == .s3CRC64NVME {
            // Recorded, so that an upload is resumed only by a call that sends the same checksums.
            parameters.additionalHeaders[S3ChecksumHeader.algorithm] = "CRC64NVME"
        }
        self.parameters = parameters
        self.store = CheckpointStore(logger: logger)
        self.source = try FileIdentity.current(path: sourcePath)
        self.plan = try UploadPartSizing.plan(
            fileSize: source.size,
            requestedPartSize: request.partSize,
            vendor: client.configuration.vendor
        )
        if let requested = plan.clampedFrom {
            logger.warning(
                "part size \(requested) is outside \(client.configuration.vendor)'s limits; using \(plan.partSize)",
                metadata: ["os.part_size": "\(plan.partSize)"]
            )
        }
        if plan.enlargedToFit {
            logger.notice(
                "part size raised to \(plan.partSize) so the file fits in \(UploadPartSizing.maximumPartCount) parts",
                metadata: ["os.part_size": "\(plan.partSize)"]
            )
        }
        self.checkpointPath =
            try request.enableCheckpoint
            ? CheckpointPaths.upload(source: sourcePath, override: request.checkpointFilePath) : nil
    }

    /// The checksum the upload sends for the service to check and keep (``SentChecksum``), with
    /// ``TransferOptions/integrityCheck``: S3's CRC-64/NVME or OBS's CRC-64/XZ; `nil` for OSS, which reports its
    /// own. Each part's is sent with it, and the object's with the completion (a single PUT's with the PUT).
    static func sentChecksum(client: ObjectStorageClient, request: UploadFileRequest) -> SentChecksum.Kind? {
        request.enableCRC64Check ? SentChecksum.Kind.of(client.configuration.vendor) : nil
    }

    var sentChecksum: SentChecksum.Kind? { Self.sentChecksum(client: client, request: request) }

    /// The checksum to send for a part or the completion, whose CRC-64 the checkpoint records with `polynomial`:
    /// `nil` when the upload sends none, the CRC is unknown, or it was taken with another polynomial than the
    /// checksum's.
    private func sentChecksum(_ crc: UInt64?, polynomial: CRC64.Polynomial) -> SentChecksum? {
        guard let kind = sentChecksum, let crc, polynomial == kind.polynomial else { return nil }
        return SentChecksum(kind: kind, value: crc)
    }

    /// The digests a part (or a single PUT's body) is read for before it is sent: its MD5 for `Content-MD5`, its
    /// CRC-64 for the checksum sent; `nil` when neither is sent.
    private func digest(of range: Range<Int64>) throws -> FileRegionDigest? {
        guard request.enableMD5Check || sentChecksum != nil else { return nil }
        return try FileRegionDigest.compute(
            path: sourcePath,
            range: range,
            md5: request.enableMD5Check,
            polynomial: sentChecksum?.polynomial ?? .xz
        )
    }

    /// What the client checked of a single PUT: OSS's CRC-64 against the bytes sent, or the checksum sent that the
    /// service checked and reported back.
    static func verification(of response: ObjectWriteResult, sent: SentChecksum?) -> TransferResult.Verification {
        if let crc64 = response.crc64 { return .crc64(crc64) }
        // OBS's value comes back as `crc64` above; S3's in its own header.
        if let sent, sent.kind == .s3CRC64NVME, response.crc64nvme == sent.value { return .crc64NVME(sent.value) }
        return .none(reason: "the service reports no CRC-64")
    }

    /// What the checkpoint records of the object's attributes, to refuse resuming an upload created with others.
    static func parameters(of attributes: UploadAttributes) -> UploadCheckpoint.ObjectParameters {
        var parameters = UploadCheckpoint.ObjectParameters(
            contentType: attributes.contentType,
            metadata: attributes.metadata,
            storageClass: attributes.storageClass?.rawValue,
            acl: attributes.acl?.rawValue,
            websiteRedirectLocation: attributes.websiteRedirectLocation
        )
        let contentHeaders = [
            "cache-control": attributes.cacheControl,
            "content-disposition": attributes.contentDisposition,
            "content-encoding": attributes.contentEncoding,
            // The tags the upload was started with: a checkpoint of other tags is not resumed.
            "tagging": attributes.tags.map { tags in
                ObjectTagRules.headerValue(tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
            },
        ]
        parameters.additionalHeaders = contentHeaders.compactMapValues { $0 }
        switch attributes.serverSideEncryption?.kind {
        case .aes256:
            parameters.serverSideEncryption = "AES256"
        case .kms(let keyID):
            parameters.serverSideEncryption = "KMS"
            parameters.serverSideEncryptionKeyId = keyID
        case nil:
            break
        }
        return parameters
    }

    // MARK: Rounds

    func prepare(restarts: inout Int, isRestart: Bool) async throws -> TransferStart<Self> {
        var resuming: UploadCheckpoint?
        if let checkpointPath, !isRestart {
            resuming = try await client.loadUploadCheckpoint(
                at: checkpointPath,
                expecting: UploadCheckpoint.Expectation(identity: identity, source: source, parameters: parameters),
                store: store,
                restarts: &restarts,
                logger: logger
            )
        }
        if !isRestart && resuming == nil && !request.forceMultipart && source.size <= plan.partSize {
            return .finished(try await putWhole())
        }
        if let resumed = resuming,
            let start: TransferStart<Self> = try await client.resumeUpload(
                resumed,
                session: (),
                at: checkpointPath,
                store: store,
                restarts: &restarts,
                noun: "upload",
                logger: logger
            )
        {
            return start
        }
        let uploadID = try await createUpload()
        let checkpoint = try UploadCheckpoint(
            identity: identity,
            source: source,
            partSize: plan.partSize,
            uploadId: uploadID,
            parameters: parameters
        )
        try await client.saveNewUploadCheckpoint(checkpoint, to: checkpointPath, store: store, logger: logger)
        return .parts(checkpoint, ())
    }

    func save(_ checkpoint: UploadCheckpoint, in session: Void, to path: String) throws {
        try store.save(checkpoint, to: path)
    }

    func failure(_ error: any Error, restarts: Int) -> TransferFailure {
        guard ObjectStorageClient.isUnknownUpload(error) else { return .keep }
        return .restart(reason: "the upload disappeared from the server (NoSuchUpload)", exhausted: error)
    }

    func abandon(_ checkpoint: UploadCheckpoint, in session: Void, discarded: Bool) async {
        // A discarded upload is already gone from the server (NoSuchUpload).
        if !discarded { await abortQuietly(uploadID: checkpoint.uploadId) }
    }

    // MARK: Single PUT

    private func putWhole() async throws -> TransferResult {
        var put = PutObjectRequest(bucket: request.bucket, key: request.key, body: .empty, attributes: attributes)
        let digest = try digest(of: 0..<source.size)
        put.contentMD5 = digest?.md5Base64
        put.condition = request.options.writeCondition
        // The digest was taken with the checksum's polynomial (`digest(of:)`).
        if let kind = sentChecksum, let crc = digest?.crc64 { put.checksum = SentChecksum(kind: kind, value: crc) }
        let reporter = TransferProgressReporter(totalBytes: source.size, resumedBytes: 0, handler: progress)
        reporter.begin()
        let counter = UploadProgressCounter(reporter: reporter)
        let response: ObjectWriteResult
        do {
            response = try await client.putObject(
                put,
                logger: logger,
                prepare: counter.prepare(path: sourcePath, range: 0..<source.size)
            )
        } catch {
            counter.rewind()
            throw error
        }
        reporter.finish()
        return TransferResult(
            singleRequest: response,
            filePath: sourcePath,
            size: source.size,
            verification: Self.verification(of: response, sent: put.checksum),
            contentMD5Verified: request.enableMD5Check
        )
    }

    // MARK: Multipart

    /// Completes the upload once every part is recorded, removes the checkpoint, and checks the object's CRC-64.
    func finish(_ finished: UploadCheckpoint, in session: Void) async throws -> TransferCompletion {
        // A file changed while its parts were read would give an object mixed from two versions.
        let now = try FileIdentity.current(path: sourcePath)
        if let field = now.firstDifference(from: source) {
            await abortQuietly(uploadID: finished.uploadId)
            if let checkpointPath { try? store.remove(at: checkpointPath) }
            throw ObjectStorageError(
                code: .fileSystem,
                message: "'\(sourcePath)' changed (\(field)) while it was being uploaded; the upload was aborted"
            )
        }
        var checksum: (object: SentChecksum, parts: [Int: UInt64])?
        if let object = sentChecksum(finished.combinedCRC64(), polynomial: finished.partCRC64Polynomial) {
            let parts = finished.parts.compactMap { part in part.crc64.map { (part.number, $0) } }
            checksum = (object, Dictionary(parts, uniquingKeysWith: { first, _ in first }))
        }
        var completion = try await client.completeUpload(
            finished,
            checkpointPath: checkpointPath,
            store: store,
            expectedCRC64: finished.partCRC64Polynomial == .xz ? finished.combinedCRC64() : nil,
            checksum: checksum,
            condition: request.options.writeCondition,
            verify: request.enableCRC64Check,
            logger: logger
        )
        completion.contentMD5Verified = request.enableMD5Check && finished.parts.allSatisfy { $0.md5 != nil }
        return completion
    }

    /// Sends one part from its file region (see ``sendPart(_:of:reporter:)``).
    ///
    /// - Returns: The part's record for the checkpoint.
    func transfer(
        part number: Int,
        of checkpoint: UploadCheckpoint,
        in session: Void,
        reporter: TransferProgressReporter
    ) async throws -> UploadCheckpoint.UploadedPart {
        try await sendPart(number, of: checkpoint, reporter: reporter)
    }

    /// Reads part `number`'s digests, sends it, and checks what the service reports.
    private func sendPart(
        _ number: Int,
        of checkpoint: UploadCheckpoint,
        reporter: TransferProgressReporter
    ) async throws -> UploadCheckpoint.UploadedPart {
        let range = checkpoint.range(ofPart: number)
        let size = range.upperBound - range.lowerBound
        let digest = try digest(of: range)
        let checksum = sentChecksum(digest?.crc64, polynomial: checkpoint.partCRC64Polynomial)
        // Progress moves as the part's bytes are read for sending; a failed attempt's bytes are taken back. Each
        // attempt reads the part from the file again, so a part the service refused as damaged on the way
        // (BadDigest) is sent again under the retry policy.
        let counter = UploadProgressCounter(reporter: reporter)
        let response: CompletedPart
        do {
            let operation = try client.uploadPartOperation(
                bucket: request.bucket,
                key: request.key,
                uploadID: checkpoint.uploadId,
                partNumber: number,
                body: counter.body(path: sourcePath, range: range),
                contentMD5: digest?.md5Base64,
                checksum: checksum
            )
            response = try await client.send(
                operation,
                logger: logger,
                prepare: counter.prepare(path: sourcePath, range: range),
                read: { try ObjectStorageClient.completedPart(number, from: $0) }
            )
        } catch {
            counter.rewind()
            throw error
        }
        if let reported = response.crc64, let hashed = digest?.crc64, checkpoint.partCRC64Polynomial == .xz,
            reported != hashed
        {
            // The bytes sent (checked by the client against `reported`) are not the bytes hashed:
            // the file changed between the two reads.
            throw ObjectStorageError.integrityMismatch(
                checksum: "CRC-64/XZ",
                expected: String(reported),
                actual: String(hashed),
                operation: "UploadPart \(number)"
            )
        }
        return UploadCheckpoint.UploadedPart(
            number: number,
            etag: response.etag,
            size: size,
            crc64: response.crc64 ?? digest?.crc64,
            md5: digest?.md5Base64
        )
    }

    // MARK: Server calls

    /// CreateMultipartUpload with every object option (including the website redirect location).
    private func createUpload() async throws -> String {
        try await client.createMultipartUpload(
            bucket: request.bucket,
            key: request.key,
            attributes: attributes,
            fullObjectCRC64NVME: sentChecksum == .s3CRC64NVME,
            condition: request.options.writeCondition,
            logger: logger
        )
    }

    /// Aborts the upload, ignoring failures (logged), even when the calling task is cancelled.
    private func abortQuietly(uploadID: String) async {
        await client.abortUploadQuietly(bucket: request.bucket, key: request.key, uploadID: uploadID, logger: logger)
    }
}

extension UploadCheckpoint: TransferCheckpoint {
    /// The uploaded file; empty for a server-side copy, which has none.
    var filePath: String { copySource == nil ? identity.sourcePath : "" }
    var objectSize: Int64 { source.size }
    var objectRange: Range<Int64> { 0..<source.size }
    var totalBytes: Int64 { source.size }
    var completedPartCount: Int { parts.count }
    var missingParts: [Int] { missingPartNumbers }
    /// An upload checkpoint always records a multipart upload.
    var isMultipart: Bool { true }

    mutating func record(_ part: UploadedPart) throws {
        try recordPart(part)
    }
}

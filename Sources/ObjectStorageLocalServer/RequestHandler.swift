//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import ObjectStorageSigning
import Synchronization

/// The state every request needs, and the entry point the HTTP server calls.
struct RequestHandler: Sendable {
    let configuration: LocalObjectServer.Configuration
    let store: ObjectStore
    let faults: FaultInjector
    let verifier: SignatureVerifier
    let logger: Logger
    let clock: @Sendable () -> (seconds: Int64, milliseconds: Int64)

    /// The per-request context passed to the operations.
    struct Context: Sendable {
        var request: IncomingRequest
        var dialect: StorageVendor
        var requestID: String
        var operation: ServiceOperation
        var now: Int64
        var nowMilliseconds: Int64
        /// Whether the S3 dialect reads and reports `x-amz-checksum-crc64nvme`.
        var keepsS3Checksums = true
        /// Close the connection after receiving this many request-body bytes.
        var uploadCutoff: Int64?
        /// The body bytes received and sent, for the request log.
        var traffic = Traffic()
    }

    /// Counts the body bytes of one request and its response.
    final class Traffic: Sendable {
        let received = Atomic<Int64>(0)
        let sent = Atomic<Int64>(0)

        func didReceive(_ count: Int) { received.add(Int64(count), ordering: .relaxed) }
        func didSend(_ count: Int) { sent.add(Int64(count), ordering: .relaxed) }
    }

    func handle(_ request: Request, writer: consuming ResponseWriter) async throws {
        let incoming = IncomingRequest(
            method: request.head.method.rawValue,
            target: request.head.path ?? "/",
            host: request.head.authority ?? "",
            headers: request.headers.map {
                IncomingRequest.Header(name: $0.name.rawName, lowercasedName: $0.name.canonicalName, value: $0.value)
            },
            domain: configuration.domain
        )
        let kind = SignatureKind(incoming)
        let dialect = kind.dialect ?? configuration.defaultVendor
        let time = clock()
        var context = Context(
            request: incoming,
            dialect: dialect,
            requestID: FileIO.randomHex(12).uppercased(),
            operation: Self.operation(for: incoming, dialect: dialect),
            now: time.seconds,
            nowMilliseconds: time.milliseconds,
            keepsS3Checksums: configuration.keepsS3Checksums
        )
        let fired = faults.faults(operation: context.operation, bucket: incoming.bucket, key: incoming.key)
        var delayBeforeHeaders: Duration?
        var dropsResponse = false
        var transfer = TransferShaping()
        var reply: Reply
        do {
            try Self.checkTransferEncoding(incoming)
            for fault in fired {
                switch fault.kind {
                case .error(let status, let code, let message, let retryAfter):
                    var error = ServerError(status: status, code: code, message: message)
                    if let retryAfter { error.headers.append(("Retry-After", String(retryAfter))) }
                    throw error
                case .closeConnection(let bytes):
                    transfer.closeAfter = bytes
                    context.uploadCutoff = bytes
                case .delayBeforeHeaders(let delay): delayBeforeHeaders = delay
                case .delayBetweenChunks(let delay): transfer.delayBetweenChunks = delay
                case .bandwidthLimit(let rate): transfer.bytesPerSecond = rate
                case .replaceContent(let bytes): try await replaceContent(context, with: bytes)
                case .replaceWithRandom(let size): try await replaceContent(context, with: FileIO.randomBytes(size))
                case .dropResponse: dropsResponse = true
                }
            }
            if context.operation != .postObject && context.operation != .preflight {
                // A POST form carries its credentials in its fields, which ``postObject(_:body:)`` verifies; a
                // browser's preflight carries none, as the services take it.
                try verifier.verify(incoming, kind: kind, dialect: dialect, now: time.seconds)
            }
            try Self.checkAnnouncedSize(context)
            if incoming.header("expect")?.lowercased() == "100-continue" {
                try await writer.writeInformationalHead(HTTPResponse(status: .continue))
            }
            if let name = SubresourceGate.unimplemented(in: incoming, vendor: dialect) {
                throw ServerError.notImplemented("the ?\(name) sub-resource")
            }
            if context.operation == .postObject {
                reply = try await postObject(&context, body: request.body)
            } else if context.operation == .preflight {
                reply = try preflight(&context)
            } else {
                reply = try await perform(context, body: request.body)
            }
        } catch let error as ServerError {
            reply = errorReply(error, context: context)
        } catch let error as UploadCutoff {
            log(context, status: nil, outcome: "closed-by-fault")
            throw error
        } catch is RequestBodyTooSlow {
            reply = errorReply(.requestTimeout, context: context)
        } catch {
            logger.error("request failed", metadata: ["request-id": "\(context.requestID)", "error": "\(error)"])
            reply = errorReply(.internalError(), context: context)
        }
        if dropsResponse {
            // Served (a write is in place), but the answer never leaves.
            log(context, status: nil, outcome: "closed-by-fault")
            throw UploadCutoff()
        }
        if context.operation != .preflight { reply.headers += corsHeaders(for: context) }
        if let delayBeforeHeaders { try await Task.sleep(for: delayBeforeHeaders) }
        do {
            try await write(reply, context: context, writer: writer, shaping: transfer)
        } catch let error as UploadCutoff {
            log(context, status: reply.status, outcome: "closed-by-fault")
            throw error
        } catch {
            log(context, status: reply.status, outcome: "write-failed")
            throw error
        }
        log(context, status: reply.status, outcome: "complete")
        if reply.headers.contains(where: { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }) {
            // The request body was refused unread: drop the connection rather than drain it.
            throw ConnectionClosedAfterReply()
        }
    }

    /// Logs one line per request at info level; `ServeCommand` documents the format. Bucket and key are
    /// percent-encoded so that every value is free of spaces; the query (which can hold a presigned
    /// signature) and the headers are never logged.
    private func log(_ context: Context, status: Int?, outcome: String) {
        logger.info(
            "request",
            metadata: [
                "request-id": "\(context.requestID)", "method": "\(context.request.method)",
                "operation": "\(context.operation)",
                "bucket": "\(PercentEncoding.encode(context.request.bucket ?? "", style: .path))",
                "key": "\(PercentEncoding.encode(context.request.key ?? "", style: .path))",
                "dialect": "\(context.dialect)", "status": "\(status.map(String.init) ?? "none")",
                "received": "\(context.traffic.received.load(ordering: .relaxed))",
                "sent": "\(context.traffic.sent.load(ordering: .relaxed))", "outcome": "\(outcome)",
            ]
        )
    }

    // MARK: Routing

    /// The operation a request asks for. Only the dialect's own copy-source header makes a PUT a copy: the
    /// dialect is the signing scheme's, whose signature covers that prefix and no other.
    static func operation(for request: IncomingRequest, dialect: StorageVendor) -> ServiceOperation {
        guard request.bucket != nil else { return .listBuckets }
        if request.method == "OPTIONS" { return .preflight }
        guard request.key != nil else {
            if request.hasQuery("cors") {
                switch request.method {
                case "GET": return .getBucketCors
                case "PUT": return .putBucketCors
                case "DELETE": return .deleteBucketCors
                default: break
                }
            }
            if request.hasQuery("lifecycle") {
                switch request.method {
                case "GET": return .getBucketLifecycle
                case "PUT": return .putBucketLifecycle
                case "DELETE": return .deleteBucketLifecycle
                default: break
                }
            }
            if request.hasQuery("policy") {
                switch request.method {
                case "GET": return .getBucketPolicy
                case "PUT": return .putBucketPolicy
                case "DELETE": return .deleteBucketPolicy
                default: break
                }
            }
            if request.hasQuery("encryption") {
                switch request.method {
                case "GET": return .getBucketEncryption
                case "PUT": return .putBucketEncryption
                case "DELETE": return .deleteBucketEncryption
                default: break
                }
            }
            if request.hasQuery("acl") {
                if request.method == "GET" { return .getBucketAcl }
                if request.method == "PUT" { return .putBucketAcl }
            }
            if request.hasQuery("versioning") {
                if request.method == "GET" { return .getBucketVersioning }
                if request.method == "PUT" { return .putBucketVersioning }
            }
            if request.method == "GET", request.hasQuery("versions") { return .listObjectVersions }
            switch request.method {
            case "PUT": return .createBucket
            case "DELETE": return .deleteBucket
            case "HEAD": return .headBucket
            case "POST":
                if request.hasQuery("delete") { return .deleteObjects }
                if request.header("content-type")?.lowercased().hasPrefix("multipart/form-data") == true {
                    return .postObject
                }
                return ServiceOperation(name: "PostBucket")
            default:
                if request.hasQuery("location") { return .getBucketLocation }
                if request.hasQuery("uploads") { return .listMultipartUploads }
                if request.queryValue("list-type") == "2" { return .listObjectsV2 }
                return .listObjects
            }
        }
        if request.hasQuery("acl") {
            if request.method == "GET" { return .getObjectAcl }
            if request.method == "PUT" { return .putObjectAcl }
        }
        if request.hasQuery("tagging") {
            switch request.method {
            case "GET": return .getObjectTagging
            case "PUT": return .putObjectTagging
            case "DELETE": return .deleteObjectTagging
            default: break
            }
        }
        if request.method == "POST", request.hasQuery("restore") { return .restoreObject }
        // S3 has neither: its answer to these requests stays an unknown POST's, or a PUT or GET of the object.
        if dialect.kind != .s3, request.method == "POST", request.hasQuery("append") { return .appendObject }
        if dialect.kind == .oss, request.hasQuery("symlink") {
            if request.method == "PUT" { return .putSymlink }
            if request.method == "GET" { return .getSymlink }
        }
        switch request.method {
        case "PUT":
            if request.hasQuery("uploadId") { return .uploadPart }
            if request.header(dialect.headerPrefix + "copy-source") != nil { return .copyObject }
            return .putObject
        case "GET": return request.hasQuery("uploadId") ? .listParts : .getObject
        case "HEAD": return .headObject
        case "DELETE": return request.hasQuery("uploadId") ? .abortMultipartUpload : .deleteObject
        case "POST":
            if request.hasQuery("uploads") { return .createMultipartUpload }
            if request.hasQuery("uploadId") { return .completeMultipartUpload }
            return ServiceOperation(name: "PostObject")
        default: return ServiceOperation(name: request.method)
        }
    }

    private func perform(_ context: Context, body: RequestBody) async throws -> Reply {
        let request = context.request
        if context.dialect.kind == .s3, let payloadHash = request.header("x-amz-content-sha256"),
            payloadHash.trimmingWhitespace().hasPrefix("STREAMING-")
        {
            // An aws-chunked body (chunk signatures or trailers). No official SDK sends one over plain HTTP,
            // the only scheme this server speaks; storing the framing as data would corrupt the object.
            throw ServerError.headerNotImplemented("x-amz-content-sha256")
        }
        if request.hasQuery("apiversion") {
            // OBS clients negotiate the signature version with this probe.
            return Reply(headers: [("x-obs-api", "3.0")])
        }
        guard let bucket = request.bucket else {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw ServerError.methodNotAllowed(request.method)
            }
            return listBuckets(context)
        }
        switch context.operation {
        case .createBucket: return try await createBucket(context, bucket: bucket, body: body)
        case .deleteBucket: return try deleteBucket(context, bucket: bucket)
        case .headBucket: return try headBucket(context, bucket: bucket)
        case .getBucketLocation: return try getBucketLocation(context, bucket: bucket)
        case .listObjects, .listObjectsV2: return try listObjects(context, bucket: bucket)
        case .listMultipartUploads: return try listMultipartUploads(context, bucket: bucket)
        case .deleteObjects: return try await deleteObjects(context, bucket: bucket, body: body)
        case .listObjectVersions: return try listObjectVersions(context, bucket: bucket)
        case .getBucketVersioning: return try getBucketVersioning(context, bucket: bucket)
        case .putBucketVersioning: return try await putBucketVersioning(context, bucket: bucket, body: body)
        case .getBucketCors: return try getBucketCors(context, bucket: bucket)
        case .putBucketCors: return try await putBucketCors(context, bucket: bucket, body: body)
        case .deleteBucketCors: return try deleteBucketCors(context, bucket: bucket)
        case .getBucketLifecycle: return try getBucketLifecycle(context, bucket: bucket)
        case .putBucketLifecycle: return try await putBucketLifecycle(context, bucket: bucket, body: body)
        case .deleteBucketLifecycle: return try deleteBucketLifecycle(context, bucket: bucket)
        case .getBucketPolicy: return try getBucketPolicy(context, bucket: bucket)
        case .putBucketPolicy: return try await putBucketPolicy(context, bucket: bucket, body: body)
        case .deleteBucketPolicy: return try deleteBucketPolicy(context, bucket: bucket)
        case .getBucketEncryption: return try getBucketEncryption(context, bucket: bucket)
        case .putBucketEncryption: return try await putBucketEncryption(context, bucket: bucket, body: body)
        case .deleteBucketEncryption: return try deleteBucketEncryption(context, bucket: bucket)
        case .getBucketAcl: return try getBucketAcl(context, bucket: bucket)
        case .putBucketAcl: return try await putBucketAcl(context, bucket: bucket, body: body)
        default: break
        }
        guard let key = request.key else { throw ServerError.methodNotAllowed(request.method) }
        guard key.utf8.count <= context.dialect.maximumKeyLength else {
            throw ServerError.keyTooLong(size: key.utf8.count, dialect: context.dialect)
        }
        switch context.operation {
        case .putObject: return try await putObject(context, bucket: bucket, key: key, body: body)
        case .copyObject: return try copyObject(context, bucket: bucket, key: key)
        case .getObject: return try getObject(context, bucket: bucket, key: key, head: false)
        case .headObject: return try getObject(context, bucket: bucket, key: key, head: true)
        case .deleteObject: return try deleteObject(context, bucket: bucket, key: key)
        case .createMultipartUpload: return try createMultipartUpload(context, bucket: bucket, key: key)
        case .uploadPart: return try await uploadPart(context, bucket: bucket, key: key, body: body)
        case .completeMultipartUpload:
            return try await completeMultipartUpload(context, bucket: bucket, key: key, body: body)
        case .abortMultipartUpload: return try abortMultipartUpload(context, bucket: bucket, key: key)
        case .listParts: return try listParts(context, bucket: bucket, key: key)
        case .getObjectTagging: return try getObjectTagging(context, bucket: bucket, key: key)
        case .putObjectTagging: return try await putObjectTagging(context, bucket: bucket, key: key, body: body)
        case .deleteObjectTagging: return try deleteObjectTagging(context, bucket: bucket, key: key)
        case .appendObject: return try await appendObject(context, bucket: bucket, key: key, body: body)
        case .restoreObject: return try await restoreObject(context, bucket: bucket, key: key, body: body)
        case .putSymlink: return try await putSymlink(context, bucket: bucket, key: key, body: body)
        case .getSymlink: return try getSymlink(context, bucket: bucket, key: key)
        case .getObjectAcl: return try getObjectAcl(context, bucket: bucket, key: key)
        case .putObjectAcl: return try await putObjectAcl(context, bucket: bucket, key: key, body: body)
        default: throw ServerError.methodNotAllowed(request.method)
        }
    }

    // MARK: Bodies

    /// A request body stored as a new blob (not yet in place), with its digests.
    struct ReceivedBody {
        var blob: Blob
        var size: Int64
        var md5: [UInt8]
        var crc64: UInt64
        var crc64nvme: UInt64
        /// OBS's `x-obs-checksum-crc64ecma`, checked: `crc64` when the request sent one.
        var obsChecksum: UInt64?
    }

    /// Streams the request body into a new blob, hashing it on the way, and checks `Content-MD5`, a hex
    /// `x-amz-content-sha256` (the SHA-256 is computed only then), `x-amz-checksum-crc64nvme` and
    /// `x-obs-checksum-crc64ecma`.
    ///
    /// A body larger than the dialect's single-PUT limit is refused with `EntityTooLarge` once that many bytes
    /// have arrived (a larger `Content-Length` is refused earlier, by ``checkAnnouncedSize(_:)``).
    func receive(_ body: RequestBody, context: Context, temporaryPath: String?) async throws -> ReceivedBody {
        let sha256Header = context.request.header("x-amz-content-sha256")
        let checkSHA256 = sha256Header.map { $0.utf8.count == 64 && ByteEncoding.bytes(fromHex: $0) != nil } ?? false
        let maximum = context.dialect.maximumSinglePutSize
        let announced = context.request.header("content-length").flatMap { Int64($0.trimmingWhitespace()) }
        let writer = try BlobWriter(
            temporaryPath: temporaryPath,
            computeSHA256: checkSHA256,
            expectedSize: announced
        )
        do {
            for try await buffer in body {
                context.traffic.didReceive(buffer.readableBytes)
                guard writer.count + Int64(buffer.readableBytes) <= maximum else {
                    throw ServerError.entityTooLarge(size: writer.count + Int64(buffer.readableBytes), maximum: maximum)
                }
                try await writer.write(buffer)
                if let cutoff = context.uploadCutoff, writer.count >= cutoff { throw UploadCutoff() }
            }
            let md5 = writer.md5Digest
            if let contentMD5 = context.request.header("content-md5") {
                try DocumentIntegrity.checkContentMD5(contentMD5, against: md5)
            }
            if checkSHA256, let sha256Header, let digest = writer.sha256Digest {
                let actual = ByteEncoding.hex(digest)
                guard actual == sha256Header.lowercased() else {
                    throw ServerError.contentSHA256Mismatch(client: sha256Header, server: actual)
                }
            }
            try S3Checksum.check(context, computed: writer.crcNVME.value)
            let obsChecksum = try OBSChecksum.check(context, computed: writer.crc.value)
            return ReceivedBody(
                blob: try await writer.finish(),
                size: writer.count,
                md5: md5,
                crc64: writer.crc.value,
                crc64nvme: writer.crcNVME.value,
                obsChecksum: obsChecksum
            )
        } catch {
            await writer.abandon()
            throw error
        }
    }

    /// Refuses a `Transfer-Encoding` other than `chunked` alone (any case), before a byte of the body is read.
    ///
    /// NIO's decoder unframes any list that ends in `chunked` as chunked, so `gzip, chunked` would store the gzip
    /// bytes as the object; RFC 9112 §6.1 answers a coding the server does not understand with 501. Several
    /// `Transfer-Encoding` lines are one list.
    ///
    /// - Throws: 501 `NotImplemented` naming the header, with `Connection: close` (the body is left unread).
    static func checkTransferEncoding(_ request: IncomingRequest) throws(ServerError) {
        guard let codings = request.header("transfer-encoding"),
            codings.trimmingWhitespace().lowercased() != "chunked"
        else { return }
        var error = ServerError.headerNotImplemented("Transfer-Encoding")
        error.headers.append(("Connection", "close"))
        throw error
    }

    /// Refuses a PutObject or UploadPart whose `Content-Length` exceeds the dialect's single-PUT limit, before
    /// `100 Continue` is sent and before a byte of the body is read.
    static func checkAnnouncedSize(_ context: Context) throws(ServerError) {
        guard [.putObject, .uploadPart, .appendObject].contains(context.operation),
            let text = context.request.header("content-length"), let announced = Int64(text.trimmingWhitespace())
        else { return }
        let maximum = context.dialect.maximumSinglePutSize
        guard announced <= maximum else { throw ServerError.entityTooLarge(size: announced, maximum: maximum) }
    }

    /// Collects a small request body (an XML document); a body over `limit` bytes is answered `MalformedXML`.
    /// It is checked against a hex `x-amz-content-sha256`, as ``receive(_:context:temporaryPath:)`` does for
    /// object data: a header-signed request binds its body through that hash, so a replayed signature cannot
    /// carry another document.
    func collect(
        _ body: RequestBody,
        context: Context,
        limit: Int = RequestDocument.maximumSize
    ) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await buffer in body {
            context.traffic.didReceive(buffer.readableBytes)
            bytes += buffer.readableBytesView
            guard bytes.count <= limit else { throw ServerError.malformedXML("document too large") }
        }
        if let sha256Header = context.request.header("x-amz-content-sha256")?.trimmingWhitespace(),
            sha256Header.utf8.count == 64, ByteEncoding.bytes(fromHex: sha256Header) != nil
        {
            let actual = ByteEncoding.hex(Hashing.SHA256.hash(bytes))
            guard actual == sha256Header.lowercased() else {
                throw ServerError.contentSHA256Mismatch(client: sha256Header, server: actual)
            }
        }
        return bytes
    }

    private func replaceContent(_ context: Context, with bytes: [UInt8]) async throws {
        guard let bucket = context.request.bucket, let key = context.request.key else { return }
        guard var metadata = try? store.object(bucket, key) else { return }
        let writer = try BlobWriter(temporaryPath: store.temporaryPath(), computeSHA256: false)
        try await writer.write(ByteBuffer(bytes: bytes))
        let blob = try await writer.finish()
        metadata.size = writer.count
        metadata.etag = ByteEncoding.hex(writer.md5Digest)
        metadata.crc64 = writer.crc.value
        metadata.crc64nvme = writer.crcNVME.value
        metadata.partsCount = nil
        metadata.partSizes = nil
        metadata.lastModified = max(context.now, metadata.lastModified + 1)
        try store.commit(bucket, metadata: metadata, blob: blob)
    }

    // MARK: Common headers and errors

    func commonHeaders(_ context: Context) -> [(String, String)] {
        var headers = [(context.dialect.requestIDHeader, context.requestID), ("Server", context.dialect.serverName)]
        if let hostID = context.dialect.hostIDHeader { headers.append((hostID, context.requestID.lowercased())) }
        return headers
    }

    func errorReply(_ error: ServerError, context: Context) -> Reply {
        var headers = error.headers
        if let marker = error.deleteMarkerVersionID {
            headers.append((context.dialect.headerPrefix + "delete-marker", "true"))
            headers.append((context.dialect.headerPrefix + "version-id", marker))
        }
        var xml = XMLWriter()
        xml.open("Error")
        xml.element("Code", error.code)
        xml.element("Message", error.message)
        xml.element("RequestId", context.requestID)
        xml.element("HostId", context.request.host)
        for (name, value) in error.details { xml.element(name, value) }
        if context.dialect.kind == .oss, let ec = error.ossEC {
            xml.element("EC", ec)
            headers.append(("x-oss-ec", ec))
        }
        xml.close("Error")
        if context.request.method == "HEAD" {
            if context.dialect.kind == .obs {
                headers.append(("x-obs-error-code", error.code))
            }
            return Reply(status: error.status, headers: headers, body: .empty)
        }
        return Reply.xml(xml, status: error.status, headers: headers)
    }

    // MARK: Writing

    struct TransferShaping: Sendable {
        var closeAfter: Int64?
        var delayBetweenChunks: Duration?
        var bytesPerSecond: Int?
    }

    private func write(
        _ reply: Reply,
        context: Context,
        writer: consuming ResponseWriter,
        shaping: TransferShaping
    ) async throws {
        var fields = HTTPFields()
        for (name, value) in commonHeaders(context) + reply.headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        fields[.date] = HTTPDate.imfFixdate(context.now)
        let status = HTTPResponse.Status(code: reply.status)
        switch reply.body {
        case .empty:
            fields[.contentLength] = "0"
            try await writer.writeResponse(HTTPResponse(status: status, headerFields: fields))
        case .headOnly(let length):
            fields[.contentLength] = String(length)
            try await writer.writeResponse(HTTPResponse(status: status, headerFields: fields))
        case .bytes(let buffer):
            fields[.contentLength] = String(buffer.readableBytes)
            var bodyWriter = try await writer.writeHead(HTTPResponse(status: status, headerFields: fields))
            if let cutoff = shaping.closeAfter, cutoff < buffer.readableBytes {
                try await bodyWriter.write(buffer.getSlice(at: buffer.readerIndex, length: Int(cutoff)) ?? ByteBuffer())
                context.traffic.didSend(Int(cutoff))
                throw UploadCutoff()
            }
            try await bodyWriter.write(buffer)
            context.traffic.didSend(buffer.readableBytes)
            try await bodyWriter.finish(nil)
        case .blob(let reader, let offset, let length):
            fields[.contentLength] = String(length)
            var bodyWriter = try await writer.writeHead(HTTPResponse(status: status, headerFields: fields))
            let allocator = ByteBufferAllocator()
            if shaping.closeAfter == nil, shaping.delayBetweenChunks == nil, shaping.bytesPerSecond == nil {
                try await Self.send(reader, offset: offset, length: length, to: &bodyWriter, context: context)
                try await bodyWriter.finish(nil)
                return
            }
            var chunkSize = 1 << 20
            if let rate = shaping.bytesPerSecond { chunkSize = max(1, min(chunkSize, rate / 10)) }
            var sent: Int64 = 0
            while sent < length {
                var count = Int(min(Int64(chunkSize), length - sent))
                if let cutoff = shaping.closeAfter { count = Int(min(Int64(count), cutoff - sent)) }
                if count <= 0 { throw UploadCutoff() }
                let buffer = try reader.read(offset: offset + sent, count: count, allocator: allocator)
                guard buffer.readableBytes > 0 else { throw UploadCutoff() }
                try await bodyWriter.write(buffer)
                sent += Int64(buffer.readableBytes)
                context.traffic.didSend(buffer.readableBytes)
                if let cutoff = shaping.closeAfter, sent >= cutoff, sent < length { throw UploadCutoff() }
                if let delay = shaping.delayBetweenChunks, sent < length { try await Task.sleep(for: delay) }
                if let rate = shaping.bytesPerSecond {
                    try await Task.sleep(for: .nanoseconds(Int64(buffer.readableBytes) * 1_000_000_000 / Int64(rate)))
                }
            }
            try await bodyWriter.finish(nil)
        }
    }
}

extension RequestHandler {
    static let readSize = 1 << 20
    /// How many reads run ahead of the connection. Direct reads wait on the device; two in flight were no worse
    /// than one here (the virtual disk's throughput varied more between runs than between the two).
    static let readsAhead = 2

    /// Sends `length` bytes of `reader` from `offset`, reading the next chunks (on NIO's thread pool) while the
    /// current one is written to the connection.
    static func send(
        _ reader: BlobReader,
        offset: Int64,
        length: Int64,
        to bodyWriter: inout some ResponseBodyWriter,
        context: Context
    ) async throws {
        let end = offset + length
        let allocator = ByteBufferAllocator()
        var requested = offset
        var pending: [(count: Int, read: Task<ByteBuffer, any Error>)] = []
        func readAhead() {
            while pending.count < readsAhead, requested < end {
                let position = requested
                let count = reader.readLength(at: position, upTo: Int(min(Int64(readSize), end - position)))
                guard count > 0 else { return }
                let read = FileIO.startBlocking {
                    try reader.read(offset: position, count: count, allocator: allocator)
                }
                pending.append((count, read))
                requested += Int64(count)
            }
        }
        readAhead()
        while !pending.isEmpty {
            let (count, read) = pending.removeFirst()
            let buffer = try await read.value
            guard buffer.readableBytes == count else { throw UploadCutoff() }
            readAhead()
            try await bodyWriter.write(buffer)
            context.traffic.didSend(buffer.readableBytes)
        }
        guard requested >= end else { throw UploadCutoff() }
    }
}

/// Thrown to drop the connection mid-body (a fault, or a short read).
struct UploadCutoff: Error {}

/// Thrown after a complete reply marked `Connection: close`, so that Hummingbird closes the connection
/// instead of reading the rest of a refused request body.
struct ConnectionClosedAfterReply: Error {}

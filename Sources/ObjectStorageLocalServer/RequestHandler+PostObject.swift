//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import NIOCore
import ObjectStorageSigning

extension RequestHandler {
    /// PostObject: a browser's `multipart/form-data` upload under a signed POST policy.
    ///
    /// The fields before `file` are read (bounded), and each name may be posted once (compared without case), so
    /// that the policy and the stored object see the same value. The signature over the policy is checked in the
    /// form's scheme, and then every condition: expiry, each `eq`/`starts-with` condition, and (S3 and OBS) that
    /// no posted field is left out of the policy. The file is streamed to disk and refused, before anything is stored, once it
    /// passes the policy's `content-length-range`. The object is recorded like a PUT, with the attributes the form
    /// posts; the reply follows `success_action_redirect` or `success_action_status` (204 by default).
    ///
    /// Sets `context.dialect` to the form's scheme's, so that errors are answered in the vendor's form.
    func postObject(_ context: inout Context, body: RequestBody) async throws -> Reply {
        guard let bucket = context.request.bucket,
            let boundary = MultipartFormReader<RequestBody.AsyncIterator>.boundary(
                contentType: context.request.header("content-type") ?? ""
            )
        else {
            throw ServerError.malformedPOSTRequest("no multipart/form-data boundary")
        }
        var reader = MultipartFormReader(boundary: boundary, source: body.makeAsyncIterator())
        let parsed:
            (
                fields: [MultipartFormReader<RequestBody.AsyncIterator>.Field],
                file: MultipartFormReader<RequestBody.AsyncIterator>.FilePart?
            )
        do {
            parsed = try await reader.readFields()
        } catch let error as MultipartFormReader<RequestBody.AsyncIterator>.Malformed {
            throw ServerError.malformedPOSTRequest(error.reason)
        }
        let form = PostForm(fields: parsed.fields.map { (name: $0.name, value: $0.value) })
        if let scheme = form.scheme { context.dialect = PostForm.dialect(of: scheme) }
        let dialect = context.dialect
        if let repeated = form.repeatedFieldName { throw ServerError.repeatedFormField(repeated) }
        let policy = try verifier.verifyPost(form, dialect: dialect)
        guard let file = parsed.file else {
            throw ServerError.invalidArgument(
                "POST requires exactly one file upload per request.",
                name: "file",
                value: "0"
            )
        }
        guard let keyField = form.value("key") else {
            throw ServerError.invalidArgument("Bucket POST must contain a field named 'key'.", name: "key")
        }
        let key = Self.substituteFilename(in: keyField, filename: file.filename)
        guard !key.isEmpty else {
            throw ServerError.invalidArgument("The key of a POST upload cannot be empty.", name: "key")
        }
        guard key.utf8.count <= dialect.maximumKeyLength else {
            throw ServerError.keyTooLong(size: key.utf8.count, dialect: dialect)
        }
        var lengthRange: ClosedRange<Int64>?
        if let policy {
            guard context.now <= policy.expiration.secondsSince1970 else { throw ServerError.policyExpired }
            lengthRange = try Self.check(
                policy,
                form: form,
                bucket: bucket,
                key: key,
                keyField: keyField,
                dialect: dialect
            )
        }
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }

        let maximum = min(lengthRange?.upperBound ?? .max, dialect.maximumSinglePutSize)
        let writer = try BlobWriter(temporaryPath: store.temporaryPath(), computeSHA256: false)
        let traffic = context.traffic
        do {
            try await reader.readFile { buffer in
                traffic.didReceive(buffer.readableBytes)
                let size = writer.count + Int64(buffer.readableBytes)
                guard size <= maximum else {
                    var error =
                        lengthRange.map { ServerError.postEntityTooLarge(size: size, maximum: $0.upperBound) }
                        ?? ServerError.entityTooLarge(size: size, maximum: maximum)
                    // The rest of the body is not read: close the connection after the answer.
                    error.headers.append(("Connection", "close"))
                    throw error
                }
                try await writer.write(buffer)
            }
            if let minimum = lengthRange?.lowerBound, writer.count < minimum {
                throw ServerError.postEntityTooSmall(size: writer.count, minimum: minimum)
            }
        } catch let error as MultipartFormReader<RequestBody.AsyncIterator>.Malformed {
            await writer.abandon()
            throw ServerError.malformedPOSTRequest(error.reason)
        } catch {
            await writer.abandon()
            throw error
        }
        let size = writer.count
        let md5 = writer.md5Digest
        let crc64 = writer.crc.value
        let crc64nvme = writer.crcNVME.value
        let blob = try await writer.finish()

        var fields = form.fields.map { (name: $0.name.lowercased(), value: $0.value) }
        if dialect.kind != .oss, let acl = form.value("acl") {
            fields.append((name: dialect.headerPrefix + "acl", value: acl))
        }
        var attributes = Self.attributes(fields, dialect: dialect)
        attributes.encryption = self.encryption(of: attributes, bucket: bucket)
        if dialect.kind == .s3, let tagging = form.value("tagging") {
            // S3's form takes tags as a Tagging document in the `tagging` field.
            do {
                attributes.tags = try TagInput.fromDocument(
                    RequestDocument.parse(Array(tagging.utf8)),
                    dialect: dialect
                )
            } catch {
                for path in blob.paths { FileIO.remove(path) }
                throw error
            }
        }
        let metadata = Self.singlePartMetadata(
            key: key,
            size: size,
            md5: md5,
            crc64: crc64,
            crc64nvme: crc64nvme,
            attributes: attributes,
            context: context
        )
        let versionID = try store.commit(bucket, metadata: metadata, blob: blob)
        var reply = self.postReply(
            form: form,
            context: context,
            bucket: bucket,
            key: key,
            etag: metadata.etag,
            crc64: crc64
        )
        reply.headers += Self.versionHeaders(versionID, context: context)
        reply.headers += Self.encryptionHeaders(metadata.encryption, dialect: dialect)
        return reply
    }

    /// `${filename}` in the key field replaced by the posted file's name (its last path component, as browsers
    /// send it; some send a whole Windows path).
    static func substituteFilename(in key: String, filename: String?) -> String {
        guard key.contains(RequestSigner.filenameVariable) else { return key }
        var name = filename ?? ""
        if let separator = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
            name = String(name[name.index(after: separator)...])
        }
        return key.replacing(RequestSigner.filenameVariable, with: name)
    }

    /// Checks every condition of `policy` against the form, and (S3, OBS) that the policy names every posted field.
    ///
    /// `bucket` is checked against the bucket posted to; `key` against the key stored or, for a key naming
    /// `${filename}`, the key as posted.
    ///
    /// - Returns: The policy's content-length range, if it has one.
    static func check(
        _ policy: PostPolicy,
        form: PostForm,
        bucket: String,
        key: String,
        keyField: String,
        dialect: StorageVendor
    ) throws(ServerError) -> ClosedRange<Int64>? {
        var range: ClosedRange<Int64>?
        var named: Set<String> = ["bucket"]
        for condition in policy.conditions {
            switch condition {
            case .contentLengthRange(let bounds):
                range = bounds
            case .equals(let field, let expected):
                let name = field.lowercased()
                named.insert(name)
                let matches =
                    switch name {
                    case "bucket": bucket == expected
                    case "key": key == expected || keyField == expected
                    default: form.value(name) == expected
                    }
                guard matches else {
                    throw ServerError.policyConditionFailed("[\"eq\", \"$\(field)\", \"\(expected)\"]")
                }
            case .startsWith(let field, let prefix):
                let name = field.lowercased()
                named.insert(name)
                let actual =
                    switch name {
                    case "bucket": bucket
                    case "key": key
                    default: form.value(name)
                    }
                guard let actual, actual.hasPrefix(prefix) else {
                    throw ServerError.policyConditionFailed("[\"starts-with\", \"$\(field)\", \"\(prefix)\"]")
                }
            }
        }
        if dialect.kind != .oss {
            let scheme = form.scheme
            for field in form.fields where !named.contains(field.name.lowercased()) {
                guard PostForm.isExempt(field.name, scheme: scheme) else {
                    throw ServerError.extraInputField(field.name)
                }
            }
        }
        return range
    }

    /// The answer to a stored upload: a 303 to `success_action_redirect`, or `success_action_status` (200, 201
    /// with a `PostResponse` document, or 204, the default).
    func postReply(
        form: PostForm,
        context: Context,
        bucket: String,
        key: String,
        etag: String,
        crc64: UInt64
    ) -> Reply {
        let formatted = context.dialect.formatETag(etag)
        let location =
            "\(configuration.scheme)://\(context.request.host)/\(bucket)/\(PercentEncoding.encode(key, style: .path))"
        var headers = [("ETag", formatted), ("Location", location)]
        if context.dialect.kind == .oss { headers.append(("x-oss-hash-crc64ecma", String(crc64))) }
        if let redirect = form.value("success_action_redirect") ?? form.value("redirect"), !redirect.isEmpty {
            let query = [("bucket", bucket), ("key", key), ("etag", formatted)]
                .map { "\($0.0)=\(PercentEncoding.encode($0.1, style: .component))" }
                .joined(separator: "&")
            headers.append(("Location", redirect + (redirect.contains("?") ? "&" : "?") + query))
            headers.removeAll { $0.0 == "Location" && $0.1 == location }
            return Reply(status: 303, headers: headers)
        }
        switch form.value("success_action_status") {
        case "200":
            return Reply(status: 200, headers: headers)
        case "201":
            var xml = XMLWriter()
            xml.open("PostResponse")
            xml.element("Location", location)
            xml.element("Bucket", bucket)
            xml.element("Key", key)
            xml.element("ETag", formatted)
            xml.close("PostResponse")
            return .xml(xml, status: 201, headers: headers)
        default:
            return Reply(status: 204, headers: headers)
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import ObjectStorage
import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One client request for one object: the bucket requests it takes and the response they make.
struct ObjectRead: Sendable {
    let client: ObjectStorageClient
    let bucket: String
    let key: String
    let logger: Logger?

    /// A `GET`: one ranged or conditional bucket `GET`, streamed out.
    func get(_ conditions: FileRequestConditions) async throws -> Response {
        var request = GetObjectRequest(bucket: self.bucket, key: self.key)
        request.range = conditions.range?.byteRange
        request.ifNoneMatch = conditions.ifNoneMatch
        request.ifModifiedSince = conditions.ifModifiedSince
        let object: GetObjectResponse
        do {
            object = try await self.client.getObject(request, logger: self.logger)
        } catch let error as ServiceError {
            switch error.statusCode {
            case 304: return try await self.notModified(conditions)
            case 404: return Response(status: .notFound)
            case 416: return try await self.unsatisfiable(conditions, reported: error)
            default: throw error
            }
        }
        guard let range = conditions.range else { return Self.streaming(object) }
        let attributes = object.attributes
        guard conditions.rangeStands(etag: attributes.etag, lastModified: attributes.lastModified) else {
            // If-Range names another version: the whole object, the current one.
            if attributes.contentRange == nil { return Self.streaming(object) }
            return try await self.pinnedGet(range: nil, etag: attributes.etag)
        }
        guard attributes.contentRange == nil, let size = attributes.contentLength else { return Self.streaming(object) }
        // The service answered a range with the whole object (OSS does for a range past the end, unless asked for
        // the standard behaviour): the range is resolved here, as RFC 9110 does.
        switch range.resolved(size: size) {
        case .unsatisfiable:
            return Self.rangeNotSatisfiable(size: size)
        case .span(let first, let last) where first == 0 && last == size - 1:
            return Self.streaming(object, contentRange: "bytes 0-\(last)/\(size)")
        case .span(let first, let last):
            return try await self.pinnedGet(range: .bytes(first...last), etag: attributes.etag)
        }
    }

    /// A `HEAD`: one bucket `HEAD`; `Range` is ignored (RFC 9110 §14.2), `If-Modified-Since` evaluated here.
    func head(_ conditions: FileRequestConditions) async throws -> Response {
        let attributes: ObjectAttributes
        do {
            attributes = try await self.client.headObject(
                bucket: self.bucket,
                key: self.key,
                ifNoneMatch: conditions.ifNoneMatch,
                logger: self.logger
            )
        } catch let error as ServiceError {
            switch error.statusCode {
            case 304: return try await self.notModified(conditions)
            case 404: return Response(status: .notFound)
            default: throw error
            }
        }
        if let since = conditions.ifModifiedSince, let modified = attributes.lastModified,
            SigningTimestamp(modified) <= SigningTimestamp(since)
        {
            return Self.notModified(etag: attributes.etag, lastModified: attributes.lastModified)
        }
        return Response(status: .ok, headers: Self.headers(attributes), body: ResponseBody())
    }

    /// A second `GET`, pinned with `If-Match` to the version the first answer described.
    private func pinnedGet(range: ByteRange?, etag: String?) async throws -> Response {
        var request = GetObjectRequest(bucket: self.bucket, key: self.key)
        request.range = range
        request.ifMatch = etag
        return Self.streaming(try await self.client.getObject(request, logger: self.logger))
    }

    /// The 304 for a bucket's 304, with the validators a 200 would have carried (RFC 9110 §15.4.5): the one tag
    /// `If-None-Match` named, else those of a bucket `HEAD`.
    private func notModified(_ conditions: FileRequestConditions) async throws -> Response {
        if let etag = conditions.notModifiedETag { return Self.notModified(etag: etag, lastModified: nil) }
        let attributes = try? await self.client.headObject(bucket: self.bucket, key: self.key, logger: self.logger)
        return Self.notModified(etag: attributes?.etag, lastModified: attributes?.lastModified)
    }

    /// The 416 for a bucket's 416, with the size the service reported (S3's `ActualObjectSize`) or a `HEAD` reads.
    /// When `If-Range` does not hold for the current object, the range is void and the whole object is served.
    private func unsatisfiable(
        _ conditions: FileRequestConditions,
        reported error: ServiceError
    ) async throws
        -> Response
    {
        if conditions.ifRange == nil, let size = error.details["ActualObjectSize"].flatMap({ Int64($0) }) {
            return Self.rangeNotSatisfiable(size: size)
        }
        let attributes = try await self.client.headObject(bucket: self.bucket, key: self.key, logger: self.logger)
        guard conditions.rangeStands(etag: attributes.etag, lastModified: attributes.lastModified) else {
            return try await self.pinnedGet(range: nil, etag: attributes.etag)
        }
        guard let size = attributes.contentLength else { throw error }
        return Self.rangeNotSatisfiable(size: size)
    }
}

extension ObjectRead {
    /// A 200 or 206 whose body is the bucket's, chunk by chunk as the client takes them.
    ///
    /// Each chunk is written before the next is read, so the bucket connection waits while the client's socket is
    /// full (back-pressure). A failed write (the client left) throws out of the loop, which drops the body's
    /// iterator and so cancels the bucket `GET`.
    static func streaming(_ object: GetObjectResponse, contentRange: String? = nil) -> Response {
        var headers = Self.headers(object.attributes)
        let range = contentRange ?? object.attributes.contentRange
        headers[.contentRange] = range
        let body = object.body
        let length = object.attributes.contentLength.flatMap { Int(exactly: $0) }
        return Response(
            status: range == nil ? .ok : .partialContent,
            headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                for try await chunk in body {
                    try await writer.write(chunk)
                }
                try await writer.finish(nil)
            }
        )
    }

    /// The headers of a 200, 206 or a `HEAD`'s answer, from the object's.
    static func headers(_ attributes: ObjectAttributes) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = attributes.contentType ?? "application/octet-stream"
        headers[.contentLength] = attributes.contentLength.map { String($0) }
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = attributes.etag
        headers[.lastModified] = attributes.lastModified.map { SigningTimestamp($0).httpDate }
        headers[.cacheControl] = attributes.cacheControl
        headers[.contentDisposition] = attributes.contentDisposition
        headers[.contentEncoding] = attributes.contentEncoding
        headers[.contentLanguage] = attributes.contentLanguage
        headers[.expires] = attributes.expires
        return headers
    }

    static func notModified(etag: String?, lastModified: Date?) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.lastModified] = lastModified.map { SigningTimestamp($0).httpDate }
        return Response(status: .notModified, headers: headers)
    }

    static func rangeNotSatisfiable(size: Int64) -> Response {
        Response(
            status: .rangeNotSatisfiable,
            headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes"]
        )
    }
}

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

/// A bucket's CORS rules: kept as put (`?cors`), evaluated for browsers' preflights (`OPTIONS`, unsigned) and
/// added to the answers of cross-origin requests, in the dialect of the request that put them.
extension RequestHandler {
    static let corsSubresource = "cors"

    func getBucketCors(_ context: Context, bucket: String) throws -> Reply {
        guard let document = try store.document(bucket, Self.corsSubresource) else {
            throw ServerError.noSuchCORSConfiguration(bucket)
        }
        return Reply(
            status: 200,
            headers: [("Content-Type", "application/xml")],
            body: .bytes(ByteBuffer(bytes: document.bytes))
        )
    }

    func putBucketCors(_ context: Context, bucket: String, body: RequestBody) async throws -> Reply {
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let dialect = context.dialect
        let bytes = try await collect(
            body,
            context: context,
            limit: CORSConfiguration.maximumDocumentSize(for: dialect)
        )
        try DocumentIntegrity.check(bytes, context: context, required: dialect.kind != .oss)
        guard let root = RequestDocument.parse(bytes) else { throw ServerError.malformedXML() }
        do throws(CORSViolation) {
            let configuration = try CORSConfiguration(document: root)
            if let violation = configuration.violation(for: dialect) { throw violation }
        } catch {
            throw ServerError.corsViolation(error, dialect: dialect)
        }
        try store.setDocument(bucket, Self.corsSubresource, BucketDocument(dialect: dialect, bytes: bytes))
        return Reply()
    }

    func deleteBucketCors(_ context: Context, bucket: String) throws -> Reply {
        try store.setDocument(bucket, Self.corsSubresource, nil)
        return Reply(status: 204)
    }

    /// The bucket's CORS configuration and the dialect that put it; `nil` without one (or without a bucket).
    private func corsConfiguration(_ bucket: String?) -> (configuration: CORSConfiguration, dialect: StorageVendor)? {
        guard let bucket, let document = try? store.document(bucket, Self.corsSubresource),
            let root = RequestDocument.parse(document.bytes),
            let configuration = try? CORSConfiguration(document: root)
        else { return nil }
        return (configuration, document.dialect)
    }

    /// A browser's preflight: `Origin` and `Access-Control-Request-Method` (OBS's SDK repeats the latter, one per
    /// method), optionally `Access-Control-Request-Headers`; answered by the first rule that admits all of them,
    /// or refused with 403 as the services refuse it.
    func preflight(_ context: inout Context) throws -> Reply {
        let request = context.request
        guard let bucket = request.bucket else { throw ServerError.methodNotAllowed(request.method) }
        guard store.bucketExists(bucket) else { throw ServerError.noSuchBucket(bucket) }
        let rules = self.corsConfiguration(bucket)
        if let rules { context.dialect = rules.dialect }
        guard let origin = request.header("origin"), !origin.isEmpty else {
            throw ServerError.preflightIncomplete("Insufficient information. Origin request header needed.")
        }
        let methods = request.headers.filter { $0.lowercasedName == "access-control-request-method" }.map(\.value)
        guard !methods.isEmpty else {
            throw ServerError.preflightIncomplete("Invalid Access-Control-Request-Method: null")
        }
        if let method = methods.first(where: { !CORSConfiguration.methods.contains($0) }) {
            throw ServerError.preflightIncomplete("Invalid Access-Control-Request-Method: \(method)")
        }
        let resource = request.key == nil ? "BUCKET" : "OBJECT"
        guard let (configuration, dialect) = rules else {
            throw ServerError.corsRefused(enabled: false, method: methods[0], resource: resource)
        }
        let headers = CORSRequest.headerNames(request.header("access-control-request-headers"))
        let asked = methods.map { CORSRequest(origin: origin, method: $0, headers: headers) }
        guard
            let index = configuration.rules.indices.first(where: { index in
                asked.allSatisfy { configuration.shortfall(of: index, for: $0).distance == 0 }
            })
        else { throw ServerError.corsRefused(enabled: true, method: methods[0], resource: resource) }
        return Reply(
            status: 200,
            headers: Self.allowance(
                configuration,
                rule: index,
                origin: origin,
                requestedHeaders: headers,
                dialect: dialect
            )
        )
    }

    /// The CORS headers of an actual request's answer: those of the first rule that admits its origin and method,
    /// none when none does (the request itself goes on either way); OSS's `Vary: Origin` on every answer when the
    /// bucket asks for it.
    func corsHeaders(for context: Context) -> [(String, String)] {
        guard let (configuration, dialect) = self.corsConfiguration(context.request.bucket) else { return [] }
        let vary: [(String, String)] = configuration.responseVary == true ? [("Vary", "Origin")] : []
        guard let origin = context.request.header("origin"), !origin.isEmpty,
            let index = configuration.firstRule(admitting: CORSRequest(origin: origin, method: context.request.method))
        else { return vary }
        return Self.allowance(configuration, rule: index, origin: origin, requestedHeaders: [], dialect: dialect)
    }

    /// The `Access-Control-*` headers rule `index` grants, as each service writes them.
    private static func allowance(
        _ configuration: CORSConfiguration,
        rule index: Int,
        origin: String,
        requestedHeaders: [String],
        dialect: StorageVendor
    ) -> [(String, String)] {
        let rule = configuration.rules[index]
        let separator = dialect.kind == .obs ? "," : ", "
        // S3 answers `*` to any origin for a rule whose origin is `*`; the others echo the origin, with credentials.
        let wildcard = dialect.kind == .s3 && rule.allowedOrigins.contains("*")
        var headers: [(String, String)] = [("Access-Control-Allow-Origin", wildcard ? "*" : origin)]
        headers.append(("Access-Control-Allow-Methods", rule.allowedMethods.joined(separator: separator)))
        if !wildcard && dialect.kind != .oss { headers.append(("Access-Control-Allow-Credentials", "true")) }
        if !requestedHeaders.isEmpty {
            headers.append(("Access-Control-Allow-Headers", requestedHeaders.joined(separator: separator)))
        }
        if !rule.exposeHeaders.isEmpty {
            headers.append(("Access-Control-Expose-Headers", rule.exposeHeaders.joined(separator: separator)))
        }
        if let age = rule.maxAgeSeconds { headers.append(("Access-Control-Max-Age", String(age))) }
        switch dialect.kind {
        case .s3: headers.append(("Vary", "Origin, Access-Control-Request-Headers, Access-Control-Request-Method"))
        case .oss: if configuration.responseVary == true { headers.append(("Vary", "Origin")) }
        case .obs: break
        }
        return headers
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
public import ObjectStorageSigning

extension ObjectStorageClient {
    /// Presigns a request as a URL anyone can use until it expires, with the same endpoint,
    /// addressing and canonicalization as the client's own requests, at the clock-corrected time.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// let url = try await client.presign(bucket: "b", key: "report.pdf", expires: .seconds(3600))
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - method: The HTTP method the URL is for, e.g. `GET` (the default) or `PUT`.
    ///   - expires: How long the URL stays valid, in whole seconds (15 minutes by default).
    ///   - query: Extra query parameters to sign (`versionId`, `response-content-type`...), unencoded, by name;
    ///     an empty value is a parameter without one (`uploads`).
    ///   - headers: Headers the caller will send with the URL, signed (e.g. `Content-Type` of a PUT), by name;
    ///     the URL only works when they are sent with exactly these values.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The URL and the headers that must accompany it.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` for an anonymous client;
    ///   ``/ObjectStorageSigning/SigningError`` for an expiry the scheme does not accept; credentials errors.
    public func presign(
        bucket: String,
        key: String,
        method: String = "GET",
        expires: Duration = .seconds(900),
        query: [String: String] = [:],
        headers: [String: String] = [:],
        logger: Logger? = nil
    ) async throws -> PresignedURL {
        guard let provider = self.configuration.credentials else {
            throw ObjectStorageError.invalidArgument("presigning needs credentials; this client is anonymous")
        }
        try ObjectNameRules.validateBucketReference(bucket)
        if !key.isEmpty { try ObjectNameRules.validateObjectKey(key, for: self.configuration.vendor) }
        var logger = logger ?? self.logger
        logger[metadataKey: "os.operation"] = "Presign"
        let credentials = try await provider.credentials(logger: logger)
        let signingRequest = SigningRequest(
            method: method,
            endpoint: self.configuration.endpoint,
            addressing: self.configuration.effectiveAddressing,
            bucket: bucket,
            key: key,
            query: query.sorted { $0.key < $1.key }.map {
                QueryParameter(name: $0.key, value: $0.value.isEmpty ? nil : $0.value)
            },
            headers: headers.sorted { $0.key < $1.key }.map { HTTPHeader(name: $0.key, value: $0.value) }
        )
        let presigned = try self.configuration.signer.presign(
            signingRequest,
            credentials: credentials,
            expires: expires,
            at: self.signingDate(offsetMilliseconds: self.clock.offsetMilliseconds)
        )
        // The query (signature, credential scope, session token) is never logged; see ``URLRedaction``
        // for code that must log a whole presigned URL.
        let location = (try? ResumableDownloadStrategy.split(presignedURL: presigned.url)).map { $0.endpoint + $0.path }
        logger.debug(
            "presigned a URL",
            metadata: [
                "os.expires_s": "\(expires.components.seconds)",
                "os.url": "\(location ?? "-")",
            ]
        )
        return presigned
    }
}

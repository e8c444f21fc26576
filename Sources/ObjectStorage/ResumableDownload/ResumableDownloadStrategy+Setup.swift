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
import ObjectStorageTransport

extension ResumableDownloadStrategy {
    /// Rejects options that cannot work, before anything is sent.
    static func validate(_ options: ResumableDownloadOptions) throws(ObjectStorageError) {
        try options.transfer.validate()
        if let range = options.range {
            switch range.kind {
            case .closed(let first, let last):
                guard first >= 0, last >= first else { throw .invalidArgument("invalid byte range \(range)") }
            case .from(let first):
                guard first >= 0 else { throw .invalidArgument("invalid byte range \(range)") }
            case .suffix(let count):
                guard count > 0 else { throw .invalidArgument("invalid byte range \(range)") }
            }
        }
    }

    /// The destination, its temp file beside it and the checkpoint path.
    static func resolvePaths(destination: DownloadDestination, options: ResumableDownloadOptions) throws -> Paths {
        let temp = destination.sibling(CheckpointPaths.tempFileSuffix)
        guard options.enableCheckpoint else {
            // Without a checkpoint nothing resumes: use a private temp file, never a paused download's.
            var random = SystemRandomNumberGenerator()
            let privateTemp = temp.sibling("-" + String(random.next(), radix: 36))
            return Paths(destination: destination, temp: privateTemp, checkpoint: nil)
        }
        let checkpoint = try destination.checkpointPath(override: options.checkpointFilePath)
        return Paths(destination: destination, temp: temp, checkpoint: checkpoint)
    }

    /// The range asked for, resolved against the object's size.
    func transferRange(objectSize: Int64) throws(ObjectStorageError) -> (requested: CheckpointByteRange?, length: Int64)
    {
        guard let range = self.options.range else { return (nil, objectSize) }
        let requested: CheckpointByteRange
        switch range.kind {
        case .closed(let first, let last): requested = CheckpointByteRange(first: first, last: last)
        case .from(let first): requested = CheckpointByteRange(first: first)
        case .suffix(let count): requested = CheckpointByteRange(first: max(objectSize - count, 0))
        }
        guard let resolved = requested.resolved(objectSize: objectSize) else {
            throw .invalidArgument("the range \(range) is outside the object (\(objectSize) bytes)")
        }
        return (requested, resolved.upperBound - resolved.lowerBound)
    }

    /// The identity recorded in (and required of) the checkpoint.
    func identity(range: CheckpointByteRange?) throws -> DownloadCheckpoint.Identity {
        switch self.source {
        case .object(let bucket, let key):
            return DownloadCheckpoint.Identity(
                vendor: self.client.configuration.vendor.description,
                endpoint: self.client.configuration.endpoint.description,
                bucket: bucket,
                key: key,
                versionId: self.options.versionID,
                range: range,
                destinationPath: self.paths.destination.path
            )
        case .presigned(let url):
            let (endpoint, path) = try Self.split(presignedURL: url)
            return DownloadCheckpoint.Identity(
                vendor: "url",
                endpoint: endpoint,
                bucket: "",
                key: path,
                versionId: nil,
                range: range,
                destinationPath: self.paths.destination.path
            )
        }
    }

    /// `scheme://host[:port]` and the path of a URL, without user info or query (the signature).
    static func split(presignedURL url: String) throws(ObjectStorageError) -> (endpoint: String, path: String) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else {
            throw .invalidArgument("the presigned URL has no scheme")
        }
        let scheme = url[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidArgument("the presigned URL must be http or https")
        }
        let rest = url[url.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { throw .invalidArgument("the presigned URL has no host") }
        let afterAuthority = rest[authorityEnd...]
        let pathEnd = afterAuthority.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? afterAuthority.endIndex
        let path = afterAuthority[..<pathEnd]
        return (scheme + "://" + authority.lowercased(), path.isEmpty ? "/" : String(path))
    }

    // MARK: - Probe

    /// HEAD (or, for a presigned URL, a `bytes=0-0` GET) for size, ETag, Last-Modified, version, CRC-64.
    func probe() async throws -> ResumableDownloadSource.Probe {
        switch self.source {
        case .object(let bucket, let key):
            var operation = OperationRequest(name: "HeadObject", method: .HEAD, bucket: bucket, key: key)
            operation.query("versionId", self.options.versionID)
            if self.client.configuration.vendor == .s3 {
                // S3 reports the object's CRC-64/NVME only when asked.
                operation.header(S3ChecksumHeader.mode, "ENABLED")
            }
            let response = try await self.client.execute(operation, logger: self.logger)
            guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }), length >= 0 else {
                throw ObjectStorageError.invalidResponse("HeadObject returned no Content-Length")
            }
            return Self.probe(size: length, headers: response.headers, ignoresRange: false)
        case .presigned:
            do {
                let first = self.source.get(range: "bytes=0-0", ifMatch: nil, versionID: nil)
                return try await self.client.send(first, logger: self.logger) { response in
                    if response.status.code == 206 {
                        _ = try? await response.body.collect(upTo: 1 << 10)
                        guard let range = response.headers.first(name: "Content-Range").flatMap(ContentRange.init),
                            range.first == 0, let total = range.total
                        else {
                            throw ObjectStorageError.invalidResponse("the probe's 206 has no usable Content-Range")
                        }
                        return Self.probe(size: total, headers: response.headers, ignoresRange: false)
                    }
                    // 200: the server ignored Range and is sending the whole object.
                    guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
                        throw ObjectStorageError.invalidResponse("the probe's 200 has no Content-Length")
                    }
                    return Self.probe(size: length, headers: response.headers, ignoresRange: length > 1)
                }
            } catch let error as ServiceError where error.statusCode == 416 {
                // An empty object has no byte 0: ask again without Range.
                let whole = self.source.get(range: nil, ifMatch: nil, versionID: nil)
                return try await self.client.send(whole, logger: self.logger) { response in
                    let length = response.headers.first(name: "Content-Length").flatMap { Int64($0) } ?? 0
                    if length == 0 { _ = try? await response.body.collect(upTo: 1 << 10) }
                    return Self.probe(size: length, headers: response.headers, ignoresRange: false)
                }
            }
        }
    }

    static func probe(size: Int64, headers: HTTPHeaders, ignoresRange: Bool) -> ResumableDownloadSource.Probe {
        let versionID =
            headers.first(name: "x-oss-version-id") ?? headers.first(name: "x-amz-version-id")
            ?? headers.first(name: "x-obs-version-id")
        // OSS always sends its CRC-64 (ECMA-182, the same as CRC-64/XZ); OBS sends one when the object's upload did.
        var crc = Integrity.reportedCRC64(in: headers)
        var polynomial = CRC64.Polynomial.xz
        if crc == nil, let nvme = S3Checksum.fullObjectValue(in: headers) {
            (crc, polynomial) = (nvme, .nvme)
        }
        let object = DownloadCheckpoint.ObjectState(
            size: size,
            etag: headers.first(name: "ETag") ?? "",
            lastModified: headers.first(name: "Last-Modified"),
            crc64: crc,
            crc64Polynomial: polynomial,
            versionId: versionID
        )
        return ResumableDownloadSource.Probe(object: object, ignoresRange: ignoresRange, headers: headers)
    }
}

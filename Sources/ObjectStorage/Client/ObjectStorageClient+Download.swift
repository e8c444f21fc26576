//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageSigning
import ObjectStorageTransport

extension ObjectStorageClient {
    /// Downloads an object into a file.
    ///
    /// The bytes go to a new temporary file beside `path`, which is renamed over `path` only once the
    /// whole body has arrived and matched the strongest digest the service offers for it (the CRC-64 of
    /// OSS, OBS or S3 when the answer reports one, else the MD5 that a plain ETag is). A failure never
    /// leaves a partial file and never touches an existing file at `path`; a symbolic link planted at
    /// `path` is replaced, never followed. Connection failures and checksum mismatches are retried from
    /// the start.
    ///
    /// - Parameters:
    ///   - request: The object, range, conditions and overrides.
    ///   - path: The destination file.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: The object's headers.
    /// - Throws: ``ServiceError``, ``ObjectStorageError`` (`fileSystem`, `integrityMismatch`),
    ///   ``/ObjectStorageTransport/TransportError``.
    @discardableResult
    public func getObject(
        _ request: GetObjectRequest,
        toFile path: String,
        logger: Logger? = nil
    ) async throws -> ObjectAttributes {
        try await self.download(request, to: try DownloadDestination(path: path), logger: logger)
    }

    /// ``getObject(_:toFile:logger:)`` with the choices a directory job makes: a destination found under the job's
    /// root, a fixed temporary name (a rerun after a crash replaces, not litters) with no `fsync` of its own (the
    /// job syncs the file system before its manifest), and the size the listing gave, which the body must have.
    /// The file gets the object's modification time, which a later sync compares.
    func download(
        _ request: GetObjectRequest,
        to destination: DownloadDestination,
        through temporaryName: String? = nil,
        listedSize: Int64? = nil,
        logger: Logger?
    ) async throws -> ObjectAttributes {
        var operation = self.getOperation(request)
        if self.configuration.vendor == .s3 && request.range == nil {
            // S3 reports the object's CRC-64/NVME only when asked; checking it costs a fraction of an MD5.
            operation.header(S3ChecksumHeader.mode, "ENABLED")
        }
        return try await self.send(operation, logger: logger) { response in
            let attributes = ObjectAttributes(headers: response.headers, prefix: self.configuration.headerPrefix)
            var check = try ResponseBodyCheck(
                headers: response.headers,
                isWholeObject: request.range == nil && response.status.code == 200,
                verifiesETag: true,
                listedSize: listedSize,
                operation: "GetObject"
            )
            let file = try TemporaryFile(beside: destination, named: temporaryName)
            do {
                for try await chunk in response.body {
                    try chunk.withUnsafeReadableBytes { (bytes) throws(ObjectStorageError) in try check.update(bytes) }
                    try file.append(chunk)
                }
                try check.finish()
                if temporaryName == nil {
                    try file.commit(to: destination.name)
                } else {
                    try file.commit(to: destination.name, syncing: false, modified: attributes.lastModified)
                }
            } catch {
                file.discard()
                if Self.isCancellation(error) { throw CancellationError() }
                throw error
            }
            return attributes
        }
    }
}

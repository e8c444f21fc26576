//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOCore
import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ObjectStorageClient {
    /// Downloads an object into a file.
    ///
    /// The bytes go to a temporary file beside `path`, which is renamed over `path` only once the
    /// whole body has arrived (and, on OSS, matched its CRC-64). A failure never leaves a partial
    /// file and never touches an existing file at `path`. Connection failures and checksum
    /// mismatches are retried from the start.
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
        try await self.download(request, toFile: path, through: nil, logger: logger)
    }

    /// ``getObject(_:toFile:logger:)`` with the choices a directory job makes: a fixed temporary path (a
    /// rerun after a crash overwrites, not litters) and no `fsync` of its own (the job syncs the file system
    /// before its manifest). The file gets the object's modification time, which a later sync compares.
    func download(
        _ request: GetObjectRequest,
        toFile path: String,
        through temporaryPath: String?,
        logger: Logger?
    ) async throws -> ObjectAttributes {
        let operation = self.getOperation(request)
        let logger = self.operationLogger(operation, logger)
        let body = try PreparedBody(nil, configuration: self.configuration)
        return try await self.withRetries(replayable: true, logger: logger) { attempt in
            let response = try await self.attempt(operation, body: body, attempt: attempt, logger: logger)
            let object = self.getResponse(response, ranged: request.range != nil)
            let file = try TemporaryFile(beside: path, at: temporaryPath)
            do {
                for try await chunk in object.body {
                    try file.append(chunk)
                }
                if temporaryPath == nil {
                    try file.commit(to: path)
                } else {
                    try file.commit(to: path, syncing: false, modified: object.attributes.lastModified)
                }
            } catch {
                file.discard()
                throw error
            }
            return object.attributes
        }
    }
}

/// A file created next to its destination and renamed over it on success.
final class TemporaryFile {
    let path: String
    private var descriptor: Int32

    /// Creates the file at `temporaryPath` (replacing a leftover), or at a new random name beside
    /// `destination` when it is `nil`.
    init(beside destination: String, at temporaryPath: String? = nil) throws(ObjectStorageError) {
        if let temporaryPath {
            self.path = temporaryPath
            self.descriptor = open(self.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        } else {
            var random = SystemRandomNumberGenerator()
            let suffix = ByteEncoding.hex((0..<6).map { _ in UInt8.random(in: 0...255, using: &random) })
            self.path = destination + ".download-" + suffix
            self.descriptor = open(self.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard self.descriptor >= 0 else { throw .fileSystem("create", path: self.path, errno: errno) }
    }

    deinit {
        if self.descriptor >= 0 {
            _ = close(self.descriptor)
            _ = unlink(self.path)
        }
    }

    func append(_ buffer: ByteBuffer) throws(ObjectStorageError) {
        let result: Int32 = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var offset = 0
            while offset < bytes.count {
                let written = write(self.descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if result != 0 { throw .fileSystem("write", path: self.path, errno: result) }
    }

    /// Renames the file over `destination`, after an `fsync` unless `syncing` is `false`, giving it the
    /// modification time `modified` when there is one.
    func commit(to destination: String, syncing: Bool = true, modified: Date? = nil) throws(ObjectStorageError) {
        if syncing {
            guard fsync(self.descriptor) == 0 else { throw .fileSystem("sync", path: self.path, errno: errno) }
        }
        if let modified, var times = FileTimestamps.both(modified) {
            guard futimens(self.descriptor, &times) == 0 else {
                throw .fileSystem("set the modification time of", path: self.path, errno: errno)
            }
        }
        let closed = close(self.descriptor)
        self.descriptor = -1
        guard closed == 0 else {
            _ = unlink(self.path)
            throw .fileSystem("close", path: self.path, errno: errno)
        }
        guard rename(self.path, destination) == 0 else {
            let code = errno
            _ = unlink(self.path)
            throw .fileSystem("rename into", path: destination, errno: code)
        }
    }

    func discard() {
        guard self.descriptor >= 0 else { return }
        _ = close(self.descriptor)
        self.descriptor = -1
        _ = unlink(self.path)
    }
}

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
        try await self.send(self.getOperation(request), logger: logger) { response in
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

/// A file created anew beside its destination, in the destination's directory, and renamed over it on success.
final class TemporaryFile {
    private let directory: DirectoryHandle
    private let name: String
    private var descriptor: Int32

    /// The file's path, for messages.
    var path: String { self.directory.path(of: self.name) }

    /// Creates the file `name` beside `destination` (replacing a leftover, or a link planted there, never writing
    /// through it), or a new file at a random name when `name` is `nil`.
    init(beside destination: DownloadDestination, named name: String?) throws(ObjectStorageError) {
        self.directory = destination.directory
        var random = SystemRandomNumberGenerator()
        self.name =
            name ?? destination.name + ".download-"
            + ByteEncoding.hex((0..<6).map { _ in UInt8.random(in: 0...255, using: &random) })
        do {
            self.descriptor = try self.directory.createFile(self.name, flags: O_WRONLY, mode: 0o644)
        } catch {
            throw .downloadFile("create a temporary file", error)
        }
    }

    deinit {
        if self.descriptor >= 0 {
            _ = close(self.descriptor)
            self.directory.remove(self.name)
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

    /// Renames the file over `destination` (a name in the same directory), after an `fsync` unless `syncing` is
    /// `false`, giving it the modification time `modified` when there is one.
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
            self.directory.remove(self.name)
            throw .fileSystem("close", path: self.path, errno: errno)
        }
        if let failure = self.directory.rename(self.name, to: destination) {
            self.directory.remove(self.name)
            throw .fileSystem("rename into", path: self.directory.path(of: destination), errno: failure)
        }
    }

    func discard() {
        guard self.descriptor >= 0 else { return }
        _ = close(self.descriptor)
        self.descriptor = -1
        self.directory.remove(self.name)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import NIOCore
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of an upload: bytes in memory, a region of a file (read in chunks, never whole), or a
/// one-shot async sequence.
///
/// Bytes and files are replayable, so uploads from them are retried; a stream is sent once.
///
/// The name leaves `RequestBody` to the server frameworks an app pairs the SDK with (Hummingbird re-exports
/// one), so both can be used in one file without qualifying either.
public struct UploadBody: Sendable {
    enum Storage: Sendable {
        case bytes(ByteBuffer)
        case file(path: String, offset: Int64, length: Int64?)
        case stream(TransportRequest.Body)
    }

    let storage: Storage

    /// A body held in memory.
    ///
    /// - Parameter buffer: The bytes.
    /// - Returns: The body.
    public static func bytes(_ buffer: ByteBuffer) -> UploadBody {
        UploadBody(storage: .bytes(buffer))
    }

    /// A body held in memory.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The body.
    public static func bytes(_ bytes: some Sequence<UInt8>) -> UploadBody {
        UploadBody(storage: .bytes(ByteBuffer(bytes: bytes)))
    }

    /// A region of a file, read in chunks as it is sent.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - offset: Where the region starts.
    ///   - length: The region's length; `nil` for the rest of the file (its size is read when sending).
    /// - Returns: The body.
    public static func file(path: String, offset: Int64 = 0, length: Int64? = nil) -> UploadBody {
        UploadBody(storage: .file(path: path, offset: max(0, offset), length: length.map { max(0, $0) }))
    }

    /// A one-shot async sequence of buffers (not retried once sending has started).
    ///
    /// - Parameters:
    ///   - sequence: The bytes.
    ///   - length: The total length, if known (otherwise the body is sent chunked).
    /// - Returns: The body.
    public static func stream<Bytes: AsyncSequence & Sendable>(
        _ sequence: Bytes,
        length: Int64?
    ) -> UploadBody where Bytes.Element == ByteBuffer {
        UploadBody(storage: .stream(.stream(sequence, length: length)))
    }

    /// The empty body.
    public static let empty = UploadBody(storage: .bytes(ByteBuffer()))

    /// Whether the body can be sent again on a retry.
    package var isReplayable: Bool {
        if case .stream = self.storage { return false }
        return true
    }

    /// The in-memory bytes, if the body is held in memory.
    var inMemoryBytes: ByteBuffer? {
        if case .bytes(let buffer) = self.storage { return buffer }
        return nil
    }

    /// The body with a file's length resolved.
    func resolved() throws(ObjectStorageError) -> UploadBody {
        guard case .file(let path, let offset, nil) = self.storage else { return self }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .fileSystem("stat", path: path, errno: errno) }
        let size = Int64(info.st_size)
        guard offset <= size else {
            throw .invalidArgument("offset \(offset) is past the end of '\(path)' (\(size) bytes)")
        }
        return UploadBody(storage: .file(path: path, offset: offset, length: size - offset))
    }
}

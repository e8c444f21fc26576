//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A failure specific to resumable downloads. Invalid options are reported as
/// ``ObjectStorageError/Code/invalidArgument``, local I/O as ``ObjectStorageError/Code/fileSystem``,
/// checksum mismatches as ``ObjectStorageError/Code/integrityMismatch``, and service answers as
/// ``ServiceError``.
///
/// ```swift
/// do {
///     _ = try await client.resumableDownload(bucket: "b", key: "big.iso", to: "big.iso")
/// } catch let error as ResumableDownloadError where error.code == .checkpointLocked {
///     print(error.message)  // another process is downloading to the same destination
/// }
/// ```
public struct ResumableDownloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case checkpointLocked
            case checkpointFailed
            case objectChanged
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// Another download (in this process or another one) holds the checkpoint's lock.
        public static let checkpointLocked = Code(.checkpointLocked)
        /// The checkpoint could not be written (disk full, permissions...).
        public static let checkpointFailed = Code(.checkpointFailed)
        /// The object kept changing during the download, more often than
        /// ``ResumableDownloadOptions/restartsOnChange`` allows.
        public static let objectChanged = Code(.objectChanged)

        /// The code's name, e.g. `checkpointLocked`.
        public var description: String {
            switch self.base {
            case .checkpointLocked: return "checkpointLocked"
            case .checkpointFailed: return "checkpointFailed"
            case .objectChanged: return "objectChanged"
            }
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, with paths and values (never a secret).
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(self.code): \(self.message)" }
}

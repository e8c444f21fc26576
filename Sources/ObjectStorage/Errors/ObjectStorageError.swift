//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import ObjectStorageSigning

/// A failure detected by the client itself, not reported by the service.
///
/// <!-- snippet: given client: ObjectStorageClient, request: GetObjectRequest -->
/// ```swift
/// do {
///     _ = try await client.getObject(request)
/// } catch let error as ObjectStorageError where error.code == .integrityMismatch {
///     // retry later
/// }
/// ```
public struct ObjectStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is. An open set: new codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, e.g. `invalidArgument`.
        public let description: String

        private init(_ name: String) { self.description = name }

        /// A request value the client refuses before sending anything.
        public static let invalidArgument = Code("invalidArgument")
        /// The bytes sent or received do not match the checksum the service reported (retryable).
        public static let integrityMismatch = Code("integrityMismatch")
        /// The service answered with a document the client cannot read.
        public static let invalidResponse = Code("invalidResponse")
        /// A local file could not be read, written or renamed.
        public static let fileSystem = Code("fileSystem")
        /// Another transfer (in this process or another one) holds the checkpoint's lock.
        public static let checkpointLocked = Code("checkpointLocked")
        /// The checkpoint could not be written (disk full, permissions...).
        public static let checkpointFailed = Code("checkpointFailed")
        /// The object kept changing during a download, more often than
        /// ``TransferOptions/restartsOnChange`` allows.
        public static let objectChanged = Code("objectChanged")
        /// An object key that cannot be saved under a local directory without escaping it or
        /// changing its meaning (`../`, an absolute path, a backslash, NUL, a component longer than 255 bytes).
        public static let unsafePath = Code("unsafePath")
        /// The service does not offer what the request asks for (a conditional write on OBS, say): refused
        /// before anything is sent.
        public static let unsupported = Code("unsupported")
        /// An append whose answer was lost found the object holding other bytes than the ones it sent where they
        /// would be: another writer appended (or replaced the object) in between. Nothing is retried.
        public static let appendConflict = Code("appendConflict")
    }

    /// The kind of failure.
    public var code: Code
    /// A human-readable explanation (never contains a secret).
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A human-readable explanation.
    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(self.code): \(self.message)" }

    /// A request value the client refuses.
    ///
    /// - Parameter message: What is wrong.
    /// - Returns: The error.
    package static func invalidArgument(_ message: String) -> ObjectStorageError {
        ObjectStorageError(code: .invalidArgument, message: message)
    }

    /// A feature the service does not offer, refused before anything is sent.
    ///
    /// - Parameter message: What the service lacks, naming the service and the operation.
    /// - Returns: The error.
    package static func unsupported(_ message: String) -> ObjectStorageError {
        ObjectStorageError(code: .unsupported, message: message)
    }

    /// A checksum mismatch between the bytes transferred and the service's value.
    ///
    /// - Parameters:
    ///   - checksum: The checksum's name, e.g. `CRC-64/XZ`.
    ///   - expected: The service's value.
    ///   - actual: The value computed by the client.
    ///   - operation: The operation, e.g. `PutObject`.
    /// - Returns: The error.
    package static func integrityMismatch(
        checksum: String,
        expected: String,
        actual: String,
        operation: String
    ) -> ObjectStorageError {
        ObjectStorageError(
            code: .integrityMismatch,
            message:
                "\(operation): \(checksum) mismatch: the service reported \(expected), the client computed \(actual)"
        )
    }

    /// A response the client cannot read.
    ///
    /// - Parameter message: What is wrong.
    /// - Returns: The error.
    package static func invalidResponse(_ message: String) -> ObjectStorageError {
        ObjectStorageError(code: .invalidResponse, message: message)
    }

    /// A local file operation failed; the message names the operation, the path and the system's text,
    /// e.g. `cannot write 'a.part': No space left on device (errno 28)`.
    ///
    /// - Parameters:
    ///   - operation: What was attempted, e.g. `open`.
    ///   - path: The file.
    ///   - errno: The system error number, if any.
    /// - Returns: The error.
    package static func fileSystem(_ operation: String, path: String, errno: Int32? = nil) -> ObjectStorageError {
        let suffix = errno.map { ": \(SystemErrorText.withNumber($0))" } ?? ""
        return ObjectStorageError(code: .fileSystem, message: "cannot \(operation) '\(path)'\(suffix)")
    }
}

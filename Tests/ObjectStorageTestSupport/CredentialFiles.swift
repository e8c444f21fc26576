//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization

/// A temporary directory, removed by `remove()`.
public struct CredentialFilesDirectory: Sendable {
    public let path: String

    public init() throws {
        self.path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("credentials-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    /// Writes `content` to `name` (creating subdirectories) and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ content: String) throws -> String {
        let file = self.path + "/" + name
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(content.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}

/// The secrets the tests use, so redaction checks can look for them.
public enum CredentialTestSecrets {
    public static let secret = "SECRETabc123/+xyz"
    public static let token = "TOKENsts-9f8e7d"
}

/// A thread-safe count of calls.
public final class CallCounter: Sendable {
    private let value = Mutex(0)

    public init() {}

    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        self.value.withLock {
            $0 += 1
            return $0
        }
    }

    /// The count.
    public var count: Int {
        self.value.withLock { $0 }
    }
}

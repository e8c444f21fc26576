//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging

/// A log handler that passes every line, at every level, to a ``SecretScanner`` and optionally
/// forwards it to another handler (a test's own capture).
///
/// The scanner always sees trace level: ``logLevel`` reads `.trace`, so the library produces all its
/// lines, while setting it only changes the level of the forwarded-to handler (a test asserting on
/// its own capture at `.debug` keeps seeing exactly the lines it expects). A line that reports a saved
/// checkpoint (``SecretScanner/checkpointSavedMessage`` with `checkpoint.path` metadata) makes the
/// scanner read and scan that file at once, before a later save can replace it.
public struct ScanningLogHandler: LogHandler {
    /// The scanner lines go to.
    public let scanner: SecretScanner
    /// The logger's label, the origin of a hit.
    public let label: String
    private var next: (any LogHandler)?
    private var ownMetadata: Logger.Metadata = [:]
    private var ownMetadataProvider: Logger.MetadataProvider?

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - scanner: The scanner (the process-wide one by default).
    ///   - next: A handler that also receives each line its own level lets through.
    public init(label: String, scanner: SecretScanner = .shared, forwardingTo next: (any LogHandler)? = nil) {
        self.label = label
        self.scanner = scanner
        self.next = next
    }

    /// Always `.trace` when read; setting it sets the forwarded-to handler's level.
    public var logLevel: Logger.Level {
        get { .trace }
        set { self.next?.logLevel = newValue }
    }

    /// The metadata (also set on the forwarded-to handler).
    public var metadata: Logger.Metadata {
        get { self.ownMetadata }
        set {
            self.ownMetadata = newValue
            self.next?.metadata = newValue
        }
    }

    /// The metadata provider (also set on the forwarded-to handler).
    public var metadataProvider: Logger.MetadataProvider? {
        get { self.ownMetadataProvider }
        set {
            self.ownMetadataProvider = newValue
            self.next?.metadataProvider = newValue
        }
    }

    /// One metadata value (also set on the forwarded-to handler).
    ///
    /// - Parameter key: The key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { self.ownMetadata[key] }
        set {
            self.ownMetadata[key] = newValue
            self.next?[metadataKey: key] = newValue
        }
    }

    /// Scans the line, then forwards it when the next handler's level lets it through.
    ///
    /// - Parameter event: The line.
    public func log(event: LogEvent) {
        var all = self.ownMetadata
        if let provided = self.ownMetadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata { all.merge(explicit) { _, new in new } }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        var line = "\(event.level) \(event.message) \(rendered) source=\(event.source)"
        if let error = event.error { line += " error=\(error) \(String(reflecting: error))" }
        self.scanner.scan(
            logLine: line,
            level: event.level,
            origin: self.label,
            carriesError: event.error != nil || all["error.description"] != nil
        )
        if event.message.description == SecretScanner.checkpointSavedMessage, let path = all["checkpoint.path"] {
            self.scanner.scanCheckpoint(at: "\(path)")
        }
        if let next, next.logLevel <= event.level {
            next.log(event: event)
        }
    }
}

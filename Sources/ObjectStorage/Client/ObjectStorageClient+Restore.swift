//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Logging
import NIOHTTP1
import ObjectStorageSigning

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// How fast an archived object is restored, at what price: the services' `Expedited` (minutes), `Standard` (hours)
/// and `Bulk` (the cheapest, up to days); not every class offers each.
public enum RestoreTier: String, Sendable, Hashable, CaseIterable {
    /// Minutes.
    case expedited = "Expedited"
    /// Hours; the services' default.
    case standard = "Standard"
    /// The slowest and cheapest.
    case bulk = "Bulk"
}

/// What a restore request did.
public enum RestoreRequestOutcome: Sendable, Hashable {
    /// A restore began (202); the object is readable once ``ObjectAttributes/restore`` says it is restored.
    case started
    /// The object was restored already; its restored copy is now kept for the days asked (200).
    case extended
    /// A restore is under way already (the services' 409 `RestoreAlreadyInProgress`); nothing changed.
    case inProgress
}

/// Where the restore of an archived object stands, from HEAD (`x-amz-restore`, `x-oss-restore`, `x-obs-restore`).
public enum ObjectRestoreState: Sendable, Hashable {
    /// Being restored: not readable yet.
    case inProgress
    /// Readable until the date (the service's; `nil` when it gave none it could be read as).
    case restored(until: Date?)

    /// Reads a restore header: `ongoing-request="true"`, or `ongoing-request="false", expiry-date="…"`.
    init?(header: String) {
        let fields = header.split(separator: ",", maxSplits: 1).map {
            String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }
        guard let first = fields.first, first.hasPrefix("ongoing-request=") else { return nil }
        if first == "ongoing-request=\"true\"" {
            self = .inProgress
            return
        }
        guard first == "ongoing-request=\"false\"" else { return nil }
        let expiry = fields.dropFirst().first.flatMap { field -> Date? in
            guard field.hasPrefix("expiry-date=\"") && field.hasSuffix("\"") else { return nil }
            return HTTPDates.parse(String(field.dropFirst("expiry-date=\"".count).dropLast()))
        }
        self = .restored(until: expiry)
    }
}

extension ObjectStorageClient {
    /// Asks the service to restore an archived object, so that it can be read for `days`.
    ///
    /// The restore takes the service minutes to days; ``headObject(bucket:key:versionID:ifMatch:ifNoneMatch:logger:)``
    /// says where it stands (``ObjectAttributes/restore``). Asking again while it runs changes nothing, and once it
    /// is done extends the days.
    ///
    /// <!-- snippet: given client: ObjectStorageClient -->
    /// ```swift
    /// if try await client.restoreObject(bucket: "backups", key: "2025/db.tar", days: 3, tier: .bulk) == .started {
    ///     print("restoring; check again with headObject")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The object key.
    ///   - versionID: The version to restore; the current one when `nil`.
    ///   - days: How long the restored copy is kept: S3 at least 1, OSS 1 to 7 for Archive (365 for the colder
    ///     classes), OBS 1 to 30.
    ///   - tier: How fast; the service's default (`Standard`) when `nil`.
    ///   - logger: The logger (the client's when `nil`).
    /// - Returns: Whether the restore began, was extended, or was under way already.
    /// - Throws: ``ServiceError``: ``ServiceError/Code/invalidObjectState`` (S3, OBS) or `OperationNotSupported`
    ///   (OSS) for an object that is not archived, `NoSuchKey`; ``ObjectStorageError/Code/invalidArgument`` for
    ///   fewer than one day, before anything is sent.
    public func restoreObject(
        bucket: String,
        key: String,
        versionID: String? = nil,
        days: Int = 1,
        tier: RestoreTier? = nil,
        logger: Logger? = nil
    ) async throws -> RestoreRequestOutcome {
        guard days >= 1 else {
            throw ObjectStorageError.invalidArgument("a restore keeps its copy for at least one day, not \(days)")
        }
        let vendor = self.configuration.vendor
        var xml = XMLWriter()
        xml.open("RestoreRequest", namespace: vendor.kind == .s3 ? "http://s3.amazonaws.com/doc/2006-03-01/" : nil)
        xml.element("Days", String(days))
        if let tier {
            let job =
                switch vendor.kind {
                case .s3: "GlacierJobParameters"
                case .oss: "JobParameters"
                case .obs: "RestoreJob"
                }
            xml.element(job) { xml in xml.element("Tier", tier.rawValue) }
        }
        xml.close("RestoreRequest")
        var operation = OperationRequest(name: "RestoreObject", method: .POST, bucket: bucket, key: key)
        operation.query = [QueryParameter(name: "restore", value: nil)]
        operation.query("versionId", versionID)
        operation.xmlBody(xml.bytes)
        do {
            let response = try await self.execute(operation, logger: logger)
            _ = try? await response.body.collect(upTo: 1 << 16)
            return response.status.code == 202 ? .started : .extended
        } catch let error as ServiceError where error.code == "RestoreAlreadyInProgress" {
            return .inProgress
        }
    }
}

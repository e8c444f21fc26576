//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import HummingbirdCore
import NIOCore
import ObjectStorageSigning

extension RequestHandler {
    /// RestoreObject (`POST /bucket/key?restore`): makes an archived object readable after the configured
    /// ``LocalObjectServer/Configuration/restoreDelay``, for the days asked. 202 for a new restore, 200 for one
    /// that is done (its days extended), 409 while one is in progress; an object that is not archived is refused as
    /// each service refuses it.
    func restoreObject(_ context: Context, bucket: String, key: String, body: RequestBody) async throws -> Reply {
        let dialect = context.dialect
        let bytes = try await collect(body, context: context, limit: 64 << 10)
        if !bytes.isEmpty || dialect.kind == .obs {
            try DocumentIntegrity.check(bytes, context: context, required: dialect.kind == .obs)
        }
        let requested = try Self.restoreRequest(bytes, dialect: dialect)
        let now = context.now
        let delay = configuration.restoreDelay.components.seconds
        let status = try store.changeMetadata(bucket, key, versionID: context.request.queryValue("versionId")) {
            (metadata) throws(ServerError) -> Int in
            let storageClass = metadata.storageClass ?? dialect.defaultStorageClass
            guard dialect.isArchive(storageClass) else {
                throw .notArchived(storageClass: storageClass, dialect: dialect)
            }
            let days = requested ?? 1
            guard dialect.restoreDays(for: storageClass).contains(days) else {
                throw .invalidArgument(
                    "The restore days \(days) are out of range for \(storageClass).",
                    name: "Days",
                    value: String(days)
                )
            }
            let span = Int64(days).multipliedSaturating(by: 86_400)
            if let restore = metadata.restore, now < restore.expiresAt {
                guard now >= restore.readyAt else { throw .restoreInProgress() }
                metadata.restore?.expiresAt = now.addingSaturating(span)
                return 200
            }
            let ready = now.addingSaturating(delay)
            metadata.restore = RestoreRecord(readyAt: ready, expiresAt: ready.addingSaturating(span))
            return 202
        }
        return Reply(status: status)
    }

    /// The `Days` of a restore request (`nil` without a body, which OSS takes for one day of an Archive object), its
    /// tier checked: S3's `GlacierJobParameters`, OSS's `JobParameters`, OBS's `RestoreJob`.
    private static func restoreRequest(_ bytes: [UInt8], dialect: StorageVendor) throws(ServerError) -> Int? {
        guard !bytes.isEmpty else {
            if dialect.kind == .oss { return nil }
            throw .malformedXML("a restore needs a RestoreRequest with its Days")
        }
        guard let root = RequestDocument.parse(bytes), root.name == "RestoreRequest" else { throw .malformedXML() }
        let jobElement =
            switch dialect.kind {
            case .s3: "GlacierJobParameters"
            case .oss: "JobParameters"
            case .obs: "RestoreJob"
            }
        if let tier = root.children(jobElement).first?["Tier"], !["Expedited", "Standard", "Bulk"].contains(tier) {
            throw .malformedXML("the Tier \(tier) is not Expedited, Standard or Bulk")
        }
        guard let text = root["Days"] else {
            if dialect.kind == .oss { return nil }
            throw .malformedXML("a restore needs its Days")
        }
        guard let days = Int(text) else { throw .malformedXML("Days '\(text)' is not a whole number") }
        return days
    }

    /// Refuses a read of an archived object that is not restored.
    func checkReadable(_ metadata: ObjectMetadata, context: Context) throws(ServerError) {
        let storageClass = metadata.storageClass ?? context.dialect.defaultStorageClass
        guard context.dialect.isArchive(storageClass) else { return }
        if let restore = metadata.restore, restore.isReadable(at: context.now) { return }
        throw .archived(storageClass: storageClass, dialect: context.dialect)
    }
}

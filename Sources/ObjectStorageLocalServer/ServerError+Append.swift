//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

/// The services' refusals of an append (OSS, OBS) and of a symlink (OSS).
extension ServerError {
    /// 409 `PositionNotEqualToLength`: an append's position is not the object's length (or not 0 for a key without
    /// an object). The position the next append must name is in `x-oss-next-append-position` (or
    /// `x-obs-next-append-position`), which oss2 reads from this answer (its exception's `next_position`).
    ///
    /// - Parameters:
    ///   - expected: The object's length: where the next append goes.
    ///   - dialect: The dialect, which names the header.
    static func positionNotEqualToLength(expected: Int64, dialect: StorageVendor) -> ServerError {
        ServerError(
            status: 409,
            code: "PositionNotEqualToLength",
            message: "Position is not equal to file length",
            ossEC: "0026-00000016",
            headers: [(dialect.headerPrefix + "next-append-position", String(expected))]
        )
    }

    /// 409 `ObjectNotAppendable`: an append to an object a PUT, a copy, a multipart upload or PutSymlink made.
    static let objectNotAppendable = ServerError(
        status: 409,
        code: "ObjectNotAppendable",
        message: "The object is not appendable",
        ossEC: "0026-00000017"
    )

    /// 400 `InvalidArgument` for an append without a `position`, or with one that is not a length.
    ///
    /// - Parameter value: The `position` sent, if any.
    static func invalidAppendPosition(_ value: String?) -> ServerError {
        var error = ServerError.invalidArgument(
            value == nil ? "Missing argument position." : "The position is not a valid length.",
            name: "position",
            value: value
        )
        error.ossEC = "0016-00000501"
        return error
    }

    /// 404 `SymlinkTargetNotExist`: a GET or HEAD of a symlink whose target has no current object (or is itself a
    /// symlink, which OSS does not follow).
    ///
    /// - Parameter target: The symlink's target key.
    static func symlinkTargetNotExist(_ target: String) -> ServerError {
        ServerError(
            status: 404,
            code: "SymlinkTargetNotExist",
            message: "The symlink target object does not exist",
            details: [("Key", target)],
            ossEC: "0026-00000012"
        )
    }

    /// 400 `NotSymlink`: GetSymlink of an object that is not a symlink.
    static let notSymlink = ServerError(
        status: 400,
        code: "NotSymlink",
        message: "The specified object is not a symlink."
    )
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The declarations of other modules that this module's public API names, so that a test needs no import besides
// `ObjectStorage` and `ObjectStorageLocalServer`: the key pairs of `Authentication.credentials(_:)` and
// `LocalObjectServer.developmentCredentials`.
@_exported public import struct ObjectStorageSigning.Credentials

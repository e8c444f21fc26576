//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// `import ObjectStorage` is all an application needs: the signing layer's public types (credentials providers,
// endpoints, presigned URLs) and the transport layer's (transport errors, the retry policy, the HTTP client's
// configuration) are part of this module's surface, and so are the `Logger` its operations take and the
// `ByteBuffer` its bodies carry.
@_exported public import ObjectStorageSigning
@_exported public import ObjectStorageTransport

@_exported public import struct Logging.Logger
@_exported public import struct NIOCore.ByteBuffer

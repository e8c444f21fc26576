//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// `import ObjectStorage` is all an application needs. The types of the signing and transport layers that appear in
// this module's API are re-exported by name, and so are the `Logger` its operations take and the `ByteBuffer` its
// bodies carry; everything else in those layers is `package`, so a new type there never joins the surface unseen.

@_exported public import struct Logging.Logger
@_exported public import struct NIOCore.ByteBuffer
@_exported public import struct ObjectStorageSigning.AddressingStyle
@_exported public import struct ObjectStorageSigning.BucketEncryption
@_exported public import struct ObjectStorageSigning.CORSConfiguration
@_exported public import struct ObjectStorageSigning.CORSRule
@_exported public import struct ObjectStorageSigning.ChainCredentialsProvider
@_exported public import struct ObjectStorageSigning.CredentialProcessFormat
@_exported public import struct ObjectStorageSigning.Credentials
@_exported public import struct ObjectStorageSigning.CredentialsError
@_exported public import protocol ObjectStorageSigning.CredentialsProvider
@_exported public import struct ObjectStorageSigning.Endpoint
@_exported public import struct ObjectStorageSigning.EnvironmentCredentialsProvider
@_exported public import struct ObjectStorageSigning.FederatedCredentialsProvider
@_exported public import struct ObjectStorageSigning.LifecycleConfiguration
@_exported public import struct ObjectStorageSigning.LifecycleDate
@_exported public import struct ObjectStorageSigning.LifecycleRule
@_exported public import enum ObjectStorageSigning.LifecycleTime
@_exported public import struct ObjectStorageSigning.LifecycleTransition
@_exported public import struct ObjectStorageSigning.PresignedPost
@_exported public import struct ObjectStorageSigning.PresignedURL
@_exported public import struct ObjectStorageSigning.RefreshingCredentialsProvider
@_exported public import struct ObjectStorageSigning.SignatureVersion
@_exported public import struct ObjectStorageSigning.SigningError
@_exported public import struct ObjectStorageSigning.StaticCredentialsProvider
@_exported public import struct ObjectStorageSigning.StorageVendor
@_exported public import struct ObjectStorageSigning.XMLNode
@_exported public import struct ObjectStorageTransport.HTTPConfiguration
@_exported public import struct ObjectStorageTransport.MinimumTransferRate
@_exported public import struct ObjectStorageTransport.RetryPolicy
@_exported public import struct ObjectStorageTransport.TransportError

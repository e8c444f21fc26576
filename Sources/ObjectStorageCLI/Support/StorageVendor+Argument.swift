//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ArgumentParser
public import ObjectStorageSigning

/// A vendor named on the command line: `oss`, `obs` or `s3`.
extension StorageVendor: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(scheme: argument)
    }

    public static var allValueStrings: [String] { ["oss", "obs", "s3"] }
}

// swift-tools-version:6.1
//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// An application that uses swift-object-storage from a local checkout, as a user's app would: `import ObjectStorage`
// is the only import its code needs (`ObjectStorageLocalServer` joins it in the test target). Scripts/test builds it
// and runs its test.
import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name (lowercased), whatever the clone is called.
let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
let sdk = checkout.lastPathComponent.lowercased()

let package = Package(
    name: "PackageConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .target(name: "ConsumerKit", dependencies: [.product(name: "ObjectStorage", package: sdk)]),
        .executableTarget(name: "ConsumerApp", dependencies: ["ConsumerKit"]),
        .testTarget(
            name: "ConsumerKitTests",
            dependencies: [
                "ConsumerKit",
                .product(name: "ObjectStorage", package: sdk),
                .product(name: "ObjectStorageLocalServer", package: sdk),
            ]
        ),
    ]
)

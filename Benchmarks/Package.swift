// swift-tools-version:6.1
//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PackageDescription

// A release-mode executable that prints throughput figures (not a timed test). Run it with
// `Scripts/bench-crypto`, which builds into Benchmarks/.build.
let package = Package(
    name: "swift-object-storage-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-object-storage", path: "..")
    ],
    targets: [
        // Declarations of the CRC library's implementation-selection entry points, so the portable
        // and accelerated paths can be timed side by side; the symbols come from ObjectStorageSigning.
        .target(name: "CBenchmarkCRC"),
        .executableTarget(
            name: "CryptoBenchmarks",
            dependencies: [
                "CBenchmarkCRC",
                .product(name: "ObjectStorage", package: "swift-object-storage"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ]
)

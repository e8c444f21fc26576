// swift-tools-version:6.2
//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PackageDescription

let linuxOnly = TargetDependencyCondition.when(platforms: [.linux, .android])

let package = Package(
    name: "swift-object-storage",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "ObjectStorage", targets: ["ObjectStorage"]),
        .library(name: "ObjectStorageLocalServer", targets: ["ObjectStorageLocalServer"]),
        // Its own product, so that an app without Hummingbird never builds it.
        .library(name: "ObjectStorageHummingbird", targets: ["ObjectStorageHummingbird"]),
        .executable(name: "objstore", targets: ["ObjectStorageCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.25.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        // Already AsyncHTTPClient's; named to see whether a tracer was bootstrapped.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.3.0"),
        // Without its swift-configuration support, which nothing here uses: the first build compiles less.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git",
            from: "2.11.0",
            traits: ["FullFoundation"]
        ),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
    ],
    targets: [
        // MARK: Crypto (system OpenSSL on Linux, CryptoKit on Apple platforms)
        .systemLibrary(
            name: "CObjectStorageOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "CObjectStorageCrypto",
            dependencies: [.target(name: "CObjectStorageOpenSSL", condition: linuxOnly)],
            cSettings: [.define("OPENSSL_NO_DEPRECATED")],
            linkerSettings: [.linkedLibrary("crypto", .when(platforms: [.linux, .android]))]
        ),
        .target(name: "CObjectStorageCRC"),
        // What Swift's Glibc module does not import: `O_DIRECT`, `pipe2`, closing descriptors in a spawned child.
        .target(name: "CObjectStorageSystem"),

        // MARK: SDK layers
        .target(
            name: "ObjectStorageSigning",
            dependencies: [
                .target(name: "CObjectStorageCrypto", condition: linuxOnly),
                "CObjectStorageCRC",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ObjectStorageTransport",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "ObjectStorageCheckpoint",
            dependencies: ["ObjectStorageSigning", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "ObjectStorage",
            dependencies: [
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                "ObjectStorageCheckpoint",
                "CObjectStorageSystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ObjectStorageLocalServer",
            dependencies: [
                "ObjectStorage",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                "CObjectStorageSystem",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ObjectStorageHummingbird",
            dependencies: [
                "ObjectStorage",
                "ObjectStorageSigning",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "ObjectStorageCLI",
            dependencies: [
                "ObjectStorage",
                "ObjectStorageCheckpoint",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                "ObjectStorageLocalServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .executableTarget(
            name: "ObjectStorageInteropRunner",
            dependencies: [
                "ObjectStorage",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Scripts/interop-peers/Runner"
        ),

        // MARK: Benchmarks (Scripts/bench-crypto: digests, CRC-64 and presigning, one core)
        .executableTarget(
            name: "CryptoBenchmarks",
            dependencies: ["ObjectStorageSigning", "CObjectStorageCRC"],
            path: "Benchmarks/CryptoBenchmarks"
        ),
        // Scripts/bench-reader: the seekable reader's patterns against a server, one run per invocation.
        .executableTarget(
            name: "ReaderBenchmarks",
            dependencies: ["ObjectStorage"],
            path: "Benchmarks/ReaderBenchmarks"
        ),
        // MARK: Samples (one screen each; Scripts/samples runs them against the embedded server)
        .target(
            name: "SampleSupport",
            dependencies: [
                "ObjectStorage", "ObjectStorageSigning", "ObjectStorageLocalServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Samples/SampleSupport"
        ),
        .executableTarget(
            name: "PresignURLSample",
            dependencies: [
                "SampleSupport", "ObjectStorage", "ObjectStorageSigning",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Samples/PresignURL"
        ),
        .executableTarget(
            name: "ResumableDownloadSample",
            dependencies: ["SampleSupport", "ObjectStorage"],
            path: "Samples/ResumableDownload"
        ),
        .executableTarget(
            name: "UploadFileSample",
            dependencies: ["SampleSupport", "ObjectStorage"],
            path: "Samples/UploadFile"
        ),
        .executableTarget(
            name: "CredentialsSample",
            dependencies: [
                "SampleSupport", "ObjectStorage", "ObjectStorageSigning",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Samples/Credentials"
        ),
        .executableTarget(
            name: "ListAndDeleteSample",
            dependencies: ["SampleSupport", "ObjectStorage"],
            path: "Samples/ListAndDelete"
        ),
        .executableTarget(
            name: "BrowserUploadSample",
            dependencies: [
                "SampleSupport", "ObjectStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Samples/BrowserUpload"
        ),
        .executableTarget(
            name: "ServeFilesSample",
            dependencies: [
                "SampleSupport", "ObjectStorage", "ObjectStorageHummingbird",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Samples/ServeFiles"
        ),

        // MARK: Tests
        .target(
            name: "ObjectStorageTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/ObjectStorageTestSupport"
        ),
        .testTarget(
            name: "ObjectStorageLocalServerTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorageLocalServer",
                "CObjectStorageSystem",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageTransportTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorageTransport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorage",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                "ObjectStorageLocalServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageHummingbirdTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorage",
                "ObjectStorageHummingbird",
                "ObjectStorageLocalServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageCLITests",
            dependencies: [
                "ObjectStorageCLI", "ObjectStorageTestSupport", "ObjectStorageSigning", "ObjectStorageTransport",
            ]
        ),
        .testTarget(
            name: "ObjectStorageCheckpointTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorageCheckpoint",
                "ObjectStorageSigning",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageReliabilityTests",
            dependencies: [
                "ObjectStorageTestSupport",
                "ObjectStorage",
                "ObjectStorageSigning",
                "ObjectStorageTransport",
                "ObjectStorageCheckpoint",
                "ObjectStorageLocalServer",
                "ObjectStorageCLI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectStorageSigningTests",
            dependencies: [
                "ObjectStorageSigning", "CObjectStorageCRC", "ObjectStorageTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

// Warnings are errors in this package's own targets, for every build (`swift build`, `swift run`, the scripts), so
// that all of them share one build; SwiftPM ignores the setting when the package is a dependency.
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

for target in package.targets where target.type != .system {
    if target.name.hasPrefix("C") && target.type == .regular { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}

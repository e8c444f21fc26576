//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageTestSupport
import Testing

@Suite("A client's bandwidth limit")
struct TransferBandwidthLimitTests {
    @Test("a limited upload and download move every byte intact", arguments: ClientDialect.all)
    func limitedTransfersRoundTrip(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { unlimited, _ in
            try await unlimited.createBucket(bucket: "paced")
            let content = testBytes(dialect.minimumPartSize * 2 + 4321, seed: 11)
            let source = temporaryPath("paced-source")
            let destination = temporaryPath("paced-destination")
            try Data(content).write(to: URL(fileURLWithPath: source))
            defer {
                try? FileManager.default.removeItem(atPath: source)
                try? FileManager.default.removeItem(atPath: destination)
            }
            let options = TransferOptions(partSize: Int64(dialect.minimumPartSize), concurrency: 3)
            let http = HTTPConfiguration(bandwidthLimit: 256 << 20)
            try await withObjectStorageClient(configuration: unlimited.configuration, http: http) { client in
                let uploaded = try await client.uploadFile(from: source, bucket: "paced", key: "k", options: options)
                #expect(uploaded.partsTransferred == 3)
                let downloaded = try await client.resumableDownload(
                    bucket: "paced",
                    key: "k",
                    to: destination,
                    options: options
                )
                #expect(downloaded.partsTransferred == 3)
            }
            #expect(FileManager.default.contents(atPath: destination) == Data(content))
        }
    }
}

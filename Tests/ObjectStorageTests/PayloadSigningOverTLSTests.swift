//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Synchronization
import Testing

/// What a SigV4 request said of its body: its operation, `x-amz-content-sha256`, and the checksum it carried.
private struct SentBody: Sendable {
    var operation: String
    var contentSHA256: String?
    var checksum: String?
}

@Suite("SigV4 payload: signed over HTTP; over HTTPS, UNSIGNED-PAYLOAD when a checksum guards the body")
struct PayloadSigningOverTLSTests {
    static let partSize = 5 * 1024 * 1024

    @Test(
        "uploadStream to S3: every part carries its CRC-64/NVME; its SHA-256 is signed over HTTP only",
        arguments: [false, true]
    )
    func streamPartsOverHTTPAndHTTPS(overTLS: Bool) async throws {
        guard TLSTestPKI.isEnabled else { return }
        let pki = try await TLSTestPKI.shared()
        let configureServer: (inout LocalObjectServer.Configuration) -> Void = {
            if overTLS { $0.tls = (pki.serverCertificatePEM, pki.serverKeyPEM) }
        }
        try await LocalObjectServer.withRunning(logger: .scanning, configureServer: configureServer) { client, _ in
            #expect(client.configuration.endpoint.scheme == (overTLS ? "https" : "http"))
            try await pki.withCAFile { caFile in
                var http = HTTPConfiguration()
                http.tls.trustRoots = .pemFile(caFile)
                try await withAsyncHTTPClientTransport(configuration: http) { transport in
                    let sent = Mutex<[SentBody]>([])
                    let recording = RecordingTransport(base: transport) { request in
                        let operation =
                            request.url.contains("partNumber=")
                            ? "UploadPart" : request.url.contains("uploadId=") ? "Complete" : "\(request.method)"
                        let body = SentBody(
                            operation: operation,
                            contentSHA256: request.headers.first(name: "x-amz-content-sha256"),
                            checksum: request.headers.first(name: "x-amz-checksum-crc64nvme")
                        )
                        sent.withLock { $0.append(body) }
                    }
                    let client = ObjectStorageClient(
                        configuration: client.configuration,
                        transport: recording,
                        logger: .scanning
                    )
                    try await client.createBucket(bucket: "tls")
                    let content = testBytes(2 * Self.partSize + 1000, seed: 9)
                    let result = try await client.uploadStream(
                        ChunkedBytes(content: content, chunkSizes: [65_536, 1_000]),
                        bucket: "tls",
                        key: "stream",
                        options: TransferOptions(partSize: Int64(Self.partSize), concurrency: 2)
                    )
                    #expect(result.partCount == 3)
                    // The server computed the object's CRC-64/NVME from the bytes it stored, and checked each part's.
                    let head = try await client.headObject(bucket: "tls", key: "stream")
                    #expect(head.contentLength == Int64(content.count))
                    #expect(result.verification == .crc64NVME(CRC64.checksum(content, polynomial: .nvme)))
                    // An in-memory body without a checksum is signed either way.
                    try await client.putObject(
                        PutObjectRequest(bucket: "tls", key: "plain", body: .bytes(Array(content[0..<100])))
                    )

                    let bodies = sent.withLock { $0 }
                    let parts = bodies.filter { $0.operation == "UploadPart" }
                    #expect(parts.count == 3)
                    for part in parts {
                        #expect(part.checksum != nil)
                        if overTLS {
                            #expect(part.contentSHA256 == "UNSIGNED-PAYLOAD")
                        } else {
                            #expect(part.contentSHA256?.count == 64)
                        }
                    }
                    let plain = bodies.last { $0.operation == "PUT" }
                    #expect(plain?.checksum == nil)
                    #expect(plain?.contentSHA256 == ByteEncoding.hex(Hashing.SHA256.hash(Array(content[0..<100]))))
                }
            }
        }
    }
}

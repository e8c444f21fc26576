//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import ObjectStorageTransport
import Testing

/// nginx (apt `nginx-light`) serving a directory on loopback, stopped by its own PID.
private final class NginxServer {
    let root: String
    let port: Int
    private let process: ChildProcess

    static var executable: String? {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    init(directory: String) async throws {
        let executable = try #require(Self.executable)
        let root = directory + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/tmp", withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let temp = directory + "/tmp"
            let configuration = """
                daemon off; worker_processes 1; pid \(directory)/nginx.pid; error_log \(directory)/error.log;
                events { worker_connections 64; }
                http {
                    access_log off; sendfile on;
                    client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                    uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                    server { listen 127.0.0.1:\(port); root \(root); }
                }
                """
            try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
            let process = try ChildProcess(
                executable: executable,
                arguments: ["-c", directory + "/nginx.conf", "-p", directory],
                environment: [:],
                standardOutput: .discard,
                standardError: .discard
            )
            for _ in 0..<50 {
                if let response = try? await HTTPClientFetch.get("http://127.0.0.1:\(port)/"), response.status > 0 {
                    self.root = root
                    self.port = port
                    self.process = process
                    return
                }
                if !process.isRunning { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            process.stop()
            lastError = CocoaError(.fileReadUnknown)
        }
        throw lastError ?? CocoaError(.fileReadUnknown)
    }

    func stop() {
        self.process.stop()
    }
}

@Suite("Resumable download against nginx", .enabled(if: NginxServer.executable != nil, "nginx is not installed"))
struct ResumableDownloadNginxTests {
    @Test("non-MD5 ETag, 412 on If-Match after a change, resume after a change")
    func nginx() async throws {
        let scratch = try ScratchDirectory()
        let server = try await NginxServer(directory: scratch.path)
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: server.root + "/bucket", withIntermediateDirectories: true)
        let objectPath = server.root + "/bucket/object.bin"
        let first = testBytes(1_500_000, seed: 21)
        try Data(first).write(to: URL(fileURLWithPath: objectPath))
        let configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: "http://127.0.0.1:\(server.port)"),
            region: "us-east-1",
            credentials: nil
        )
        let counting = CountingTransport(base: AsyncHTTPClientTransport.shared)
        let client = ObjectStorageClient(configuration: configuration, transport: counting, logger: .scanning)
        let destination = scratch.file("from-nginx.bin")
        let options = smallPartOptions(partSize: 256 * 1024, concurrency: 2)

        let result = try await client.resumableDownload(
            bucket: "bucket",
            key: "object.bin",
            to: destination,
            options: options
        )
        #expect(try fileBytes(destination) == first)
        guard case .none = result.verification else {
            Issue.record("nginx's ETag is not an MD5, got \(result.verification)")
            return
        }

        // The file changes under a running download: the next If-Match gets 412 and it starts over.
        let second = testBytes(1_400_000, seed: 22)
        counting.reset()
        counting.onReceived(300_000) { try? Data(second).write(to: URL(fileURLWithPath: objectPath)) }
        let restarted = try await client.resumableDownload(
            bucket: "bucket",
            key: "object.bin",
            to: destination,
            options: options
        )
        #expect(restarted.restarts == 1)
        #expect(try fileBytes(destination) == second)

        // Paused, then changed before the resume: the checkpoint is discarded, the new bytes downloaded.
        counting.reset()
        let paused = try await pauseDownload(
            client,
            counting: counting,
            bucket: "bucket",
            key: "object.bin",
            to: destination,
            options: options,
            afterBytes: 700_000
        )
        try #require(paused)
        let third = testBytes(1_300_000, seed: 23)
        try Data(third).write(to: URL(fileURLWithPath: objectPath))
        let resumed = try await client.resumableDownload(
            bucket: "bucket",
            key: "object.bin",
            to: destination,
            options: options
        )
        #expect(resumed.bytesReused == 0)
        #expect(try fileBytes(destination) == third)
    }
}

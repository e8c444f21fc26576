//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ObjectStorageLocalServer
import ObjectStorageSigning

/// `objstore demo`: shows the SDK working end to end on the embedded local server, with no cloud
/// account: presigned PUT, GET and HEAD URLs in every signature scheme, fetched with plain HTTP,
/// and a tampered URL refused.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the SDK end to end against the embedded local server (no cloud account needed)."
    )

    func run() async throws {
        var logger = Logger(label: "objstore.demo")
        logger.logLevel = .warning
        let credentials = LocalObjectServer.developmentCredentials
        let server = LocalObjectServer(
            configuration: .init(storage: .memory, authentication: .credentials([credentials])),
            logger: logger
        )
        let port = try await server.start()
        let rows: [DemoRow]
        do {
            rows = try await walkThroughSchemes(port: port, server: server.configuration, credentials: credentials)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        print("")
        DemoRow.printTable(rows)
        let ok = rows.allSatisfy { $0.get.hasPrefix("200 bytes match") && $0.tampered.hasPrefix("403") }
        print(ok ? "\nAll schemes verified by the server; tampered URLs refused." : "\nSome checks FAILED.")
        if !ok { throw ExitCode.failure }
    }

    /// Creates a bucket per scheme, uploads an object, and fetches presigned GET and HEAD URLs
    /// (and a tampered one) with plain HTTP.
    private func walkThroughSchemes(
        port: Int,
        server: LocalObjectServer.Configuration,
        credentials: Credentials
    ) async throws -> [DemoRow] {
        let endpoint = try Endpoint(url: "http://127.0.0.1:\(port)")
        print("Embedded object server listening on http://127.0.0.1:\(port)\n")

        let schemes: [(name: String, version: SignatureVersion, bucket: String)] = [
            ("OSS V4", .ossV4, "demo-oss-v4"), ("OSS V1", .ossV1, "demo-oss-v1"),
            ("OBS", .obs, "demo-obs"), ("AWS V2", .awsV2, "demo-aws-v2"), ("S3 SigV4", .sigV4, "demo-s3"),
        ]
        let body = ByteBuffer(string: "Hello from swift-object-storage!\n")
        var rows: [DemoRow] = []
        for scheme in schemes {
            let client = DemoHTTP(
                endpoint: endpoint,
                signer: RequestSigner(
                    version: scheme.version,
                    region: scheme.version == .ossV4 ? server.ossRegion : server.region
                ),
                credentials: credentials
            )
            let key = "greetings/hello world.txt"
            let created = try await client.send(method: "PUT", bucket: scheme.bucket, key: nil, body: nil)
            let put = try await client.send(method: "PUT", bucket: scheme.bucket, key: key, body: body)
            let get = try await client.fetchPresigned(method: "GET", bucket: scheme.bucket, key: key)
            let head = try await client.fetchPresigned(method: "HEAD", bucket: scheme.bucket, key: key)
            let tampered = try await client.fetchPresigned(method: "GET", bucket: scheme.bucket, key: key, tamper: true)
            print("\(scheme.name): presigned GET\n  \(get.url)")
            rows.append(
                DemoRow(
                    scheme: scheme.name,
                    setup: "\(created.status) / \(put.status)",
                    get: "\(get.status) \(get.body == body ? "bytes match" : "BYTES DIFFER")",
                    head: "\(head.status) length \(head.contentLength ?? "?")",
                    tampered: "\(tampered.status) \(tampered.errorCode ?? "")"
                )
            )
        }
        return rows
    }
}

/// One line of the demo's summary table.
private struct DemoRow {
    var scheme: String
    var setup: String
    var get: String
    var head: String
    var tampered: String

    static func printTable(_ rows: [DemoRow]) {
        let header = DemoRow(
            scheme: "scheme",
            setup: "bucket/PUT",
            get: "presigned GET",
            head: "presigned HEAD",
            tampered: "tampered GET"
        )
        let all = [header] + rows
        let columns: [KeyPath<DemoRow, String>] = [\.scheme, \.setup, \.get, \.head, \.tampered]
        let widths = columns.map { column in all.map { $0[keyPath: column].count }.max() ?? 0 }
        for row in all {
            let cells = zip(columns, widths).map { column, width in
                row[keyPath: column].padding(toLength: width, withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Serving files from a bucket
//
// A Hummingbird app that serves `GET` and `HEAD /files/KEY` from the bucket with `BucketFileServer`: ranges (a
// video element seeking, a resumed download), `If-None-Match` / `If-Modified-Since` (304), `If-Range`, a 416 for a
// range outside the object, the body streamed from the bucket as the client reads it. Keys are below the sample's
// prefix; the sample first uploads three demo objects there, `hello.txt`, `demo.bin` (300 KiB) and `tone.wav` (a
// 20-minute tone, 9.6 MB), and `GET /` is a page whose media player plays the tone: seeking in it sends range
// requests. `--log-requests` prints each request, its `Range` and the status on standard error.
//
// The bucket client is sized for serving: each download holds one of its connections until the download's client
// has read it all, so the pool is larger than the downloads served at once (`--bucket-connections`, 256 here). A
// client that reads slowly is never cut (the read-idle timeout counts only the bucket's silences); one that stops
// reading is cut after `--unread-body-timeout` (10 minutes), which frees the connection; a request that finds every
// connection held waits `--connect-timeout` (10 s) for one, then gets 503 with `Retry-After`.
//
// The app runs in a `ServiceGroup` that shuts down gracefully on SIGTERM or SIGINT: it stops accepting connections,
// gives requests in flight 2 seconds to finish, then cancels them (a download in flight cancels its bucket GET) and
// exits. An app run with `runService()` alone keeps serving a slow download after SIGTERM.
//
// ```sh
// swift run ServeFilesSample --port 0        # prints `listening on http://127.0.0.1:PORT` first
// curl -r 10-19 http://127.0.0.1:PORT/files/hello.txt
// curl -I http://127.0.0.1:PORT/files/demo.bin
// swift run ServeFilesSample --port 0 --bucket-connections 4 --unread-body-timeout 30   # tighter limits
// ```

import Foundation
import Hummingbird
import ObjectStorage
import ObjectStorageHummingbird
import SampleSupport
import ServiceLifecycle
import UnixSignals

let arguments = Array(CommandLine.arguments.dropFirst())
/// The value of `--NAME VALUE` on the command line, if given.
func option(_ name: String) -> String? {
    guard let flag = arguments.firstIndex(of: "--\(name)"), flag + 1 < arguments.count else { return nil }
    return arguments[flag + 1]
}
/// The value of `--NAME SECONDS` as a duration, if given.
func seconds(_ name: String) -> Duration? {
    option(name).flatMap { Double($0) }.flatMap { $0 > 0 && $0 < 86_400 ? .milliseconds(Int($0 * 1000)) : nil }
}
let port = option("port").flatMap { Int($0) }.flatMap { (0...65535).contains($0) ? $0 : nil } ?? 8080
let logsRequests = arguments.contains("--log-requests")

// The bucket client's connections and limits, as an app serving many downloads sets them.
let http = {
    var http = HTTPConfiguration()
    http.maximumConnectionsPerHost = option("bucket-connections").flatMap { Int($0) }.map { max(1, $0) } ?? 256
    http.connectTimeout = seconds("connect-timeout") ?? .seconds(10)
    http.readIdleTimeout = seconds("read-idle-timeout") ?? .seconds(60)
    http.unreadBodyTimeout = seconds("unread-body-timeout") ?? .seconds(600)
    return http
}()

try await SampleStorage.run("ServeFiles", announce: false) { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them.
    try await withObjectStorageClient(configuration: try .environment(storage.vendor), http: http) { client in
        try await serve(client, storage)
    }
}

/// Uploads the demo objects, then serves them until SIGTERM or SIGINT.
func serve(_ client: ObjectStorageClient, _ storage: SampleStorage) async throws {
    let demo = try await uploadDemoObjects(client, bucket: storage.bucket, prefix: storage.prefix)

    // The whole app: one route, for GET and HEAD. The server reads the key from the path after /files/, refuses one
    // that could leave the prefix (`..`, control characters) and never lets it reach another bucket.
    let files = BucketFileServer(client: client, bucket: storage.bucket, keyPrefix: storage.prefix)
    let router = Router()
    if logsRequests { router.add(middleware: RequestLog()) }
    router.get("/") { _, _ in PlayerPage.response }
    for method in [HTTPRequest.Method.get, .head] {
        router.on("files/**", method: method) { request, context in
            try await files.response(to: request, pathPrefix: "/files/", logger: context.logger)
        }
    }

    var logger = Logger(label: "ServeFilesSample")
    logger.logLevel = .warning
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { channel in
            let actualPort = channel.localAddress?.port ?? port
            // The first line, which scripts read: the real port when asked for port 0.
            printLine("listening on http://127.0.0.1:\(actualPort)")
            printLine("Serving /files/KEY from the \(storage), keys under \(storage.prefix); Ctrl-C stops.")
            for key in demo { printLine("  http://127.0.0.1:\(actualPort)/files/\(key)") }
        },
        logger: logger
    )
    // SIGTERM or SIGINT: stop accepting, let requests in flight finish for 2 s, then cancel them.
    var configuration = ServiceGroupConfiguration(
        services: [app],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    )
    configuration.maximumGracefulShutdownDuration = .seconds(2)
    configuration.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: configuration).run()
    printLine("Stopped.")
}

/// Prints a line at once, even when standard output is a pipe (`print` would hold it in a buffer).
@Sendable func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Browser uploads straight to the bucket
//
// A Hummingbird app whose page has a file picker in a plain HTML form (no JavaScript): the app signs a POST
// policy for each page with `ObjectStorageClient.presignPost`, and the browser posts the file to the bucket
// itself, so the bytes never pass through the app. The policy allows any key under `uploads/`, files up to
// `--max-size` bytes (10 MiB by default), for 10 minutes; the bucket then redirects the browser back to
// `/uploaded`, which lists the uploads with a presigned download link for each.
//
// `/presigned` is the other flow: its script asks the app for a presigned PUT URL and sends the file with
// `XMLHttpRequest` and a progress bar. That PUT is a cross-origin request, so the browser sends a preflight first,
// and the bucket must have CORS rules that admit the app's origin: the sample sets them on the embedded server's
// bucket, and on a configured bucket with `--set-cors` (which replaces its rules). Without them the browser refuses
// the upload; `objstore cors check URL --origin http://127.0.0.1:PORT --method PUT --header Content-Type` says why.
//
// ```sh
// swift run BrowserUploadSample                  # then open the URL it prints first
// swift run BrowserUploadSample --port 0 --max-size 1048576
// AWS_BUCKET=b swift run BrowserUploadSample --set-cors
// ```

import Foundation
import Hummingbird
import ObjectStorage
import SampleSupport

let arguments = Array(CommandLine.arguments.dropFirst())
/// The value of `--NAME VALUE` on the command line, if given.
func option(_ name: String) -> String? {
    guard let flag = arguments.firstIndex(of: "--\(name)"), flag + 1 < arguments.count else { return nil }
    return arguments[flag + 1]
}
let port = option("port").flatMap { Int($0) }.flatMap { (0...65535).contains($0) ? $0 : nil } ?? 8080
let maxSize = option("max-size").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 10 << 20
// The presigned-PUT page needs CORS rules that admit this app's origin: set on the embedded server's scratch bucket,
// and on a configured bucket only when asked (they replace the bucket's rules).
let setsCORS = arguments.contains("--set-cors")

try await SampleStorage.run("BrowserUpload", announce: false) { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them
    // (OSS_ENDPOINT, OSS_REGION, OSS_ACCESS_KEY_ID...; with no bucket configured, they name the embedded server).
    let client = ObjectStorageClient(configuration: try .environment(storage.vendor))
    let site = UploadSite(client: client, bucket: storage.bucket, prefix: storage.prefix + "uploads/", maxSize: maxSize)
    // Hummingbird logs "Server started and listening on..." at info level just before `onServerRunning` runs, and
    // "Shutting down" on Ctrl-C: the lines below say it for the sample, so its log shows only warnings and errors.
    var logger = Logger(label: "BrowserUploadSample")
    logger.logLevel = .warning
    let app = Application(
        router: site.router(),
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { channel in
            let actualPort = channel.localAddress?.port ?? port
            if setsCORS || storage.isEmbedded {
                do {
                    try await site.allowUploads(from: [
                        "http://127.0.0.1:\(actualPort)", "http://localhost:\(actualPort)",
                    ])
                } catch {
                    FileHandle.standardError.write(Data("warning: cannot set the bucket's CORS rules: \(error)\n".utf8))
                }
            }
            // The first line is the URL (with the real port when asked for port 0): people open it, scripts read it.
            printLine("http://127.0.0.1:\(actualPort)/")
            printLine("Uploads go straight to the \(storage), under \(site.prefix); Ctrl-C stops.")
            printLine(
                "The presigned-PUT page, which needs the bucket's CORS rules: http://127.0.0.1:\(actualPort)/presigned"
            )
        },
        logger: logger
    )
    // Runs until SIGINT or SIGTERM, then shuts down gracefully.
    try await app.runService()
}

/// Prints a line at once, even when standard output is a pipe (`print` would hold it in a buffer).
@Sendable func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

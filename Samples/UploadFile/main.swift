//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Uploading a file
//
// Uploads a local file with `uploadFile`: a multipart upload in parts of `partSize`, `concurrency` at a
// time, each sent with its `Content-MD5` (`enableMD5Check`) and recorded in a checkpoint beside the file
// (`enableCheckpoint`, `FILE.ucp`). To show the checkpoint at work, the sample pauses the first call part
// way by cancelling its task (as an app does on Ctrl-C or shutdown), then calls `uploadFile` again with
// the same arguments: only the missing parts are sent. A killed process resumes the same way.
//
// ```sh
// swift run UploadFileSample [--pause-at PERCENT] [FILE]
// ```
//
// Without `FILE` the sample uploads a 40 MiB file it creates. The first call pauses at 40 % unless
// `--pause-at` says otherwise.

import Foundation
import ObjectStorage
import SampleSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var pauseAtPercent = 40.0
if let flag = arguments.firstIndex(of: "--pause-at"), flag + 1 < arguments.count {
    pauseAtPercent = Double(arguments[flag + 1]) ?? pauseAtPercent
    arguments.removeSubrange(flag...(flag + 1))
}
let pauseAt = pauseAtPercent

try await SampleStorage.run("UploadFile") { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them
    // (OSS_ENDPOINT, OSS_REGION, OSS_ACCESS_KEY_ID...; with no bucket configured, they name the embedded server).
    let client = ObjectStorageClient(configuration: try .environment(storage.vendor))
    let file = arguments.first ?? storage.scratchDirectory + "/upload-file-sample.bin"
    if arguments.isEmpty { try SampleFiles.make(file, size: 40 << 20) }
    let key = storage.prefix + (file.split(separator: "/").last.map(String.init) ?? "upload")

    var options = TransferOptions()  // the same options type as resumableDownload's
    options.enableCheckpoint = true  // record each part in FILE.ucp; calling again resumes
    options.partSize = 5 << 20  // 5 MiB parts (the smallest S3 accepts; OSS and OBS go down to 100 KiB)
    options.concurrency = 3  // three parts in flight
    options.enableMD5Check = true  // the service rejects a part whose Content-MD5 does not match

    // First call: paused part way by cancelling its task.
    let (pauses, pause) = AsyncStream<Void>.makeStream()
    let printFirstProgress = ProgressPrinter()  // one line per 10 %
    let first = Task {
        try await client.uploadFile(
            from: file,
            bucket: storage.bucket,
            key: key,
            options: options
        ) { progress in
            printFirstProgress(progress)
            if progress.fractionCompleted * 100 >= pauseAt { pause.yield() }
        }
    }
    Task {
        for await _ in pauses {
            first.cancel()
            break
        }
    }
    defer { pause.finish() }
    do {
        _ = try await first.value
        print("The first call finished before the pause point.")
    } catch is CancellationError {
        print("Paused. \(file).ucp records the parts that landed.")
    }

    // Second call, same arguments: resumes from the checkpoint.
    print("Calling uploadFile again with the same arguments:")
    let printProgress = ProgressPrinter()
    let result = try await client.uploadFile(from: file, bucket: storage.bucket, key: key, options: options) {
        printProgress($0)
    }
    print("Uploaded \(file) to \(key) in \(result.duration.readable)")
    print("  parts of \(result.partSize) bytes: \(result.partsTransferred) uploaded, \(result.partsReused) reused")
    print("  bytes: \(result.bytesTransferred) sent, \(result.bytesReused) reused from the checkpoint")
    print("  Content-MD5 checked: \(result.contentMD5Verified), verified: \(result.verification)")

    try await client.deleteObject(bucket: storage.bucket, key: key)
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// # Resumable downloads
//
// Downloads an object into a file with parallel ranged GETs, recording every finished part in a
// checkpoint beside the file (`FILE.dcp`). Press Ctrl-C to pause: the download task is cancelled, the
// checkpoint and the partial file (`FILE.part`) stay, and running the same command again resumes,
// fetching only the missing parts. The bytes are verified end to end before the file appears.
//
// ```sh
// swift run ResumableDownloadSample [--pause-at PERCENT] [KEY]
// ```
//
// Without `KEY` the sample first uploads a 32 MiB object of its own and downloads it into its scratch
// folder (`swift-object-storage-samples-UID/ResumableDownload/` in the temporary directory), which it
// empties once the download completes: only a paused download leaves its checkpoint and partial file
// there, for the next run. With `KEY` the file is the point: it lands in the current directory and
// stays. `--pause-at` pauses by itself once that much is done, for scripts (it exits with status 130,
// as Ctrl-C does).

import Foundation
import ObjectStorage
import SampleSupport

var arguments = Array(CommandLine.arguments.dropFirst())
var pauseAtPercent: Double?
if let flag = arguments.firstIndex(of: "--pause-at"), flag + 1 < arguments.count {
    pauseAtPercent = Double(arguments[flag + 1])
    arguments.removeSubrange(flag...(flag + 1))
}
let pauseAt = pauseAtPercent

let exitStatus = try await SampleStorage.run("ResumableDownload") { storage in
    // The client: vendor, endpoint, region and keys from the environment, read as objstore reads them
    // (OSS_ENDPOINT, OSS_REGION, OSS_ACCESS_KEY_ID...; with no bucket configured, they name the embedded server).
    let client = ObjectStorageClient(configuration: try .environment(storage.vendor))
    let key = arguments.first ?? storage.prefix + "large.bin"
    let isOwnObject = arguments.isEmpty
    let directory: String
    if isOwnObject {
        try await uploadSampleObject(storage, client: client, key: key, size: 32 << 20)
        directory = storage.scratchDirectory + "/ResumableDownload"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } else {
        directory = FileManager.default.currentDirectoryPath
    }
    let destination = directory + "/" + (key.split(separator: "/").last ?? "download")

    var options = TransferOptions()  // the same options type as uploadFile's
    options.enableCheckpoint = true  // record finished parts in DESTINATION.dcp; calling again resumes
    options.partSize = 2 << 20  // 2 MiB parts,
    options.concurrency = 4  // four at a time.

    // Ctrl-C (or --pause-at) cancels the download task: that is how a transfer is paused.
    let (pauses, pause) = AsyncStream<Void>.makeStream()
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
    interrupt.setEventHandler { pause.yield() }
    interrupt.resume()

    let printProgress = ProgressPrinter()  // one line per 10 %
    let download = Task {
        try await client.resumableDownload(
            bucket: storage.bucket,
            key: key,
            to: destination,
            options: options
        ) { progress in
            printProgress(progress)
            if let pauseAt, progress.fractionCompleted * 100 >= pauseAt { pause.yield() }
        }
    }
    let pauser = Task {
        for await _ in pauses {
            download.cancel()
            break
        }
    }
    defer { pauser.cancel() }

    do {
        let result = try await download.value
        print("Downloaded \(result.objectSize) bytes to \(destination) in \(result.duration.readable)")
        print("  fetched \(result.bytesTransferred) bytes, reused \(result.bytesReused) bytes from the checkpoint")
        print("  verified: \(result.verification)")
        if isOwnObject {
            // The sample's own copy: nothing is left behind (the checkpoint went with the completed download).
            try FileManager.default.removeItem(atPath: destination)
            _ = rmdir(directory)  // empty now
            print("Removed \(destination): the sample leaves nothing behind.")
        }
        return Int32(0)
    } catch is CancellationError {
        print("Paused. \(destination).dcp keeps the finished parts: run the same command again to resume.")
        print("  (the partial file is beside it, \(destination).part; the run that completes removes both)")
        return Int32(130)
    }
}
exit(exitStatus)

/// Uploads an object for the sample to download, unless it is already there.
func uploadSampleObject(_ storage: SampleStorage, client: ObjectStorageClient, key: String, size: Int) async throws {
    do {
        let existing = try await client.headObject(bucket: storage.bucket, key: key)
        if existing.contentLength == Int64(size) { return }
    } catch let error as ServiceError where error.statusCode == 404 {
        // Not there yet.
    }
    let file = storage.scratchDirectory + "/resumable-download-source.bin"
    try SampleFiles.make(file, size: size)
    defer { try? FileManager.default.removeItem(atPath: file) }
    print("Uploading a \(size >> 20) MiB object to download: \(key)")
    _ = try await client.uploadFile(from: file, bucket: storage.bucket, key: key)
}

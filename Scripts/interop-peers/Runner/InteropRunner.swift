//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `ObjectStorageClient` against a third-party server started by `Scripts/interop-peers/run`.
///
/// ```
/// ObjectStorageInteropRunner rclone|moto|nginx|rgw        # the checks; prints PASS/FAIL lines and a summary
/// ObjectStorageInteropRunner memory get BUCKET KEY FILE   # one get-to-file, for /usr/bin/time -v
/// ObjectStorageInteropRunner memory put BUCKET KEY FILE   # one put-from-file
/// ObjectStorageInteropRunner memory create-bucket BUCKET
/// ObjectStorageInteropRunner memory download|upload BUCKET KEY FILE [OPTIONS]   # the engines (see +Transfers)
/// ObjectStorageInteropRunner memory shared-limit upload|download BUCKET FILE COUNT RATE   # see +SharedLimit
/// ```
/// The endpoint and keys come from the environment (``Settings``). Exits 1 when a check fails.
@main
struct InteropRunner {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            let settings = try Settings.fromEnvironment()
            if arguments.first == "memory" {
                try await Self.memory(Array(arguments.dropFirst()), settings: settings)
                return
            }
            guard arguments.count == 1, let peer = Peer.named(arguments[0]) else {
                throw CheckFailure(
                    "usage: ObjectStorageInteropRunner rclone|moto|nginx|rgw | memory get|put BUCKET KEY FILE"
                )
            }
            let checklist = Checklist(peer: peer.name)
            try await PeerSuite(peer: peer, settings: settings).run(checklist)
            print("\(peer.name): \(checklist.summary)")
            exit(checklist.failed == 0 ? 0 : 1)
        } catch {
            print("error: \(error)")
            exit(2)
        }
    }

    static func memory(_ arguments: [String], settings: Settings) async throws {
        let client = ObjectStorageClient(configuration: try settings.configuration())
        let clock = ContinuousClock()
        let start = clock.now
        switch arguments.first {
        case "shared-limit":
            try await Self.sharedLimit(Array(arguments.dropFirst()), settings: settings)
        case "create-bucket" where arguments.count == 2:
            try await client.createBucket(bucket: arguments[1])
        case "get" where arguments.count == 4:
            let head = try await client.getObject(
                GetObjectRequest(bucket: arguments[1], key: arguments[2]),
                toFile: arguments[3]
            )
            Self.report("get-to-file", bytes: head.contentLength ?? 0, elapsed: clock.now - start)
        case "put" where arguments.count == 4:
            var info = stat()
            guard stat(arguments[3], &info) == 0 else { throw CheckFailure("cannot stat \(arguments[3])") }
            _ = try await client.putObject(
                PutObjectRequest(bucket: arguments[1], key: arguments[2], body: .file(path: arguments[3]))
            )
            Self.report("put-from-file", bytes: Int64(info.st_size), elapsed: clock.now - start)
        case "download" where arguments.count >= 4:
            let options = try EngineArguments(arguments.dropFirst(4))
            try await Self.download(
                client: client,
                bucket: arguments[1],
                key: arguments[2],
                file: arguments[3],
                options: options
            )
        case "upload" where arguments.count >= 4:
            let options = try EngineArguments(arguments.dropFirst(4))
            try await Self.upload(
                client: client,
                bucket: arguments[1],
                key: arguments[2],
                file: arguments[3],
                options: options
            )
        default:
            throw CheckFailure(
                "usage: memory create-bucket BUCKET | memory get|put|download|upload BUCKET KEY FILE [OPTIONS]"
            )
        }
    }

    static func report(_ operation: String, bytes: Int64, elapsed: Duration) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(bytes) / seconds / 1e6 : 0
        print("\(operation): \(bytes) bytes in \(seconds) s (\(Int(rate)) MB/s)")
    }
}

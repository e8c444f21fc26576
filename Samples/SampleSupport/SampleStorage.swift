//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
public import ObjectStorage

/// Plumbing shared by the samples, not part of what they show: where a sample's objects go.
///
/// With `OSS_BUCKET`, `OBS_BUCKET` or `AWS_BUCKET` set (checked in that order), a sample uses that bucket; each
/// sample makes its client with `ObjectStorageClient.Configuration.environment(storage.vendor)`, which reads the
/// vendor's endpoint, region and keys as `objstore` does. Otherwise this starts the embedded `LocalObjectServer` on
/// `127.0.0.1`, speaking OSS, and sets `OSS_ENDPOINT`, `OSS_REGION` and the OSS keys in the process's environment
/// to point at it, so the sample's own lines are the same either way. Samples only create and delete keys under
/// ``prefix``.
public struct SampleStorage: Sendable, CustomStringConvertible {
    /// The vendor whose environment variables name the endpoint, region and keys.
    public var vendor: StorageVendor
    /// The bucket the sample works in.
    public var bucket: String
    /// The key prefix the sample owns, e.g. `swift-object-storage-samples/PresignURL/`.
    public var prefix: String
    /// Whether this is the embedded server.
    public var isEmbedded: Bool { self.embeddedServerCredentials != nil }
    /// On the embedded server, the development key pair it accepts (the samples use it to stand in for
    /// an STS token or a profile file's keys); `nil` for a real bucket.
    public var embeddedServerCredentials: Credentials?
    /// A directory for the sample's scratch files: `swift-object-storage-samples-<uid>` inside the system's temporary
    /// directory, the user's own (mode 0700), kept between runs so that a paused sample resumes.
    public var scratchDirectory: String

    /// `embedded OSS-dialect server at http://127.0.0.1:PORT, bucket samples` or `OSS bucket B at https://...`.
    public var description: String {
        let endpoint = (try? ObjectStorageClient.Configuration.environment(self.vendor).endpoint.description) ?? "?"
        if self.isEmbedded { return "embedded OSS-dialect server at \(endpoint), bucket \(self.bucket)" }
        return "\(self.vendor.description.uppercased()) bucket \(self.bucket) at \(endpoint)"
    }

    /// Connects to the bucket named by the environment, or starts the embedded server, and runs `body`.
    ///
    /// - Parameters:
    ///   - sample: The sample's name (the last component of ``prefix``).
    ///   - announce: Whether to print which storage is used first (a sample whose first line is read by a
    ///     script prints ``description`` itself, after it).
    ///   - isolation: The caller's actor.
    ///   - body: The sample.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or an error starting the embedded server.
    public static func run<Result>(
        _ sample: String,
        announce: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SampleStorage) async throws -> Result
    ) async throws -> Result {
        let environment = ProcessInfo.processInfo.environment
        let scratch = try Self.privateScratchDirectory()
        let prefix = "swift-object-storage-samples/\(sample)/"
        if let remote = RemoteBucket(environment: environment) {
            let storage = SampleStorage(
                vendor: remote.vendor,
                bucket: remote.bucket,
                prefix: prefix,
                embeddedServerCredentials: nil,
                scratchDirectory: scratch
            )
            if announce { print("Using the \(storage)\n") }
            return try await body(storage)
        }
        let embedded = try await EmbeddedServer.start(dataDirectory: scratch + "/server")
        do {
            let storage = SampleStorage(
                vendor: .oss,
                bucket: "samples",
                prefix: prefix,
                embeddedServerCredentials: EmbeddedServer.credentials,
                scratchDirectory: scratch
            )
            embedded.exportEnvironment()
            try await storage.createBucketIfNeeded()
            if announce {
                print("Using the \(storage)")
                print("(set OSS_BUCKET, OBS_BUCKET or AWS_BUCKET and the vendor's keys to use a real bucket)\n")
            }
            let result = try await body(storage)
            await embedded.stop()
            return result
        } catch {
            await embedded.stop()
            throw error
        }
    }

    private func createBucketIfNeeded() async throws {
        do {
            let client = ObjectStorageClient(configuration: try .environment(self.vendor))
            try await client.createBucket(bucket: self.bucket)
        } catch let error as ServiceError
            where error.code == .bucketAlreadyOwnedByYou || error.code == .bucketAlreadyExists
        {
            return
        }
    }
}

/// A bucket named by the environment.
private struct RemoteBucket {
    var vendor: StorageVendor
    var bucket: String

    init?(environment: [String: String]) {
        let named: [(String, StorageVendor)] = [("OSS_BUCKET", .oss), ("OBS_BUCKET", .obs), ("AWS_BUCKET", .s3)]
        guard
            let (bucket, vendor) = named.lazy.compactMap({ variable, vendor in
                environment[variable].flatMap { $0.isEmpty ? nil : ($0, vendor) }
            }).first
        else { return nil }
        self.vendor = vendor
        self.bucket = bucket
    }
}

extension SampleStorage {
    /// The user's own scratch directory in the system's temporary directory, created (mode 0700) when missing. A
    /// predictable name in a shared directory is someone else's to plant first: it is used only when it is a real
    /// directory (not a link) that this user owns and no one else may enter.
    private static func privateScratchDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/swift-object-storage-samples-\(getuid())"
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw SampleError("cannot create the scratch directory \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
            info.st_mode & 0o077 == 0
        else {
            throw SampleError("refusing the scratch directory \(path): it is not a private directory of this user")
        }
        return path
    }
}

/// A sample's set-up failure, as a sentence.
struct SampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

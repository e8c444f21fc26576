//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorage
import ObjectStorageSigning

/// `objstore cp SRC DST`: local → remote, remote → local or remote → remote (same service).
struct CopyCommand: AsyncParsableCommand, DirectoryTransferCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "cp",
        abstract: "Copy a file to an object, an object to a file, or an object to another object.",
        discussion: """
            A destination ending in '/' (or a bucket URL, or an existing local directory) receives the \
            source's last path component as its name. Downloads land in a temporary file that is renamed \
            into place only when complete. Remote → remote copies in one service are server-side; between \
            two services (oss:// to obs://, s3:// to oss://...) the bytes stream through objstore, part by \
            part, and each service's endpoint and region come from its own variables (OSS_ENDPOINT, \
            OBS_ENDPOINT, AWS_ENDPOINT_URL...), not from --endpoint.

            Uploads, downloads and remote copies larger than one part run in parallel parts (a remote copy \
            with UploadPartCopy, so objects of any size copy) and keep a checkpoint by default (a remote \
            copy's in the temporary directory): Ctrl-C pauses (exit 130) and rerunning the same command \
            resumes. On a terminal a progress bar is drawn on \
            standard error. At the end one line on standard output reports the transfer, in the aws-cli idiom \
            with its figures: 'upload: big.iso to s3://b/big.iso (1.2 GiB, 1288490188 bytes in 9.81 s at \
            131.34 MB/s; verified: CRC-64/NVME)'; a resumed transfer adds what it reused.

            '-' as the source uploads standard input, of unknown length, in parts of --part-size, \
            --concurrency at a time (one PUT when it fits in one part; Ctrl-C or a failure aborts the \
            upload). '-' as the destination writes the object to standard output, in order, from \
            parallel ranged GETs that fail if the object is replaced meanwhile. Neither keeps a checkpoint.
            """
    )

    @Argument(help: "A local file, - (standard input) or oss://BUCKET/KEY, obs://BUCKET/KEY, s3://BUCKET/KEY")
    var source: String

    @Argument(help: "A local path, - (standard output) or a remote URL")
    var destination: String

    @Option(help: "The Content-Type of an uploaded object (default: set by the service).")
    var contentType: String?

    @Option(help: "Download or copy this version of the source object (`ls --versions` lists them).")
    var versionID: String?

    @Flag(
        name: .shortAndLong,
        help: """
            Copy a whole directory to a prefix (cp -r DIR URL/), a prefix to a directory (cp -r URL/ DIR, \
            created if missing), or a prefix to a prefix (cp -r URL/ URL/: server-side within one service, \
            streamed between two). Keys that would land outside the directory are skipped and reported. A \
            manifest records each finished object, so rerunning the same command after Ctrl-C or a crash \
            skips what is done. Exit status 1 when an object failed, 2 when names were skipped. With \
            --no-clobber the service refuses to overwrite an existing key, in the write itself: the object is \
            reported as skipped and kept, and the exit status stays 0.
            """
    )
    var recursive = false

    @OptionGroup(title: "Transfer Options")
    var transfer: TransferFlags

    @OptionGroup(title: "Directory Options (with --recursive)")
    var directoryFlags: DirectoryFlags

    @OptionGroup var remote: RemoteOptions

    @OptionGroup(title: "Output Options") var output: OutputFlags

    func run() async throws {
        if versionID != nil, try recursive || usesStandardStreams || ObjectURL(parsing: source) == nil {
            throw CLIError.usage(
                "cp: --version-id names a version of a remote source object, copied or downloaded alone"
            )
        }
        if usesStandardStreams { return try await runStandardStreams() }
        // `cp --recursive DIR URL/` or `cp --recursive URL/ DIR` (see ``DirectoryTransfer``).
        if recursive { return try await self.runDirectoryTransfer("cp", mode: .copy) }
        if let flag = directoryFlags.firstGiven {
            throw CLIError.usage("cp: \(flag) applies to cp --recursive and sync only")
        }
        let plan = try CopyPlan(source: source, destination: destination)
        // A copy takes --tags (they replace the source's); the other upload options are an upload's alone.
        let refused = transfer.uploadOnlyFlags.filter { !(plan.isCopy && $0 == "--tags") }
        if !plan.isUpload, let flag = refused.first ?? (contentType == nil ? nil : "--content-type") {
            throw CLIError.usage("cp: \(flag) applies to uploads only")
        }
        try transfer.checkTags("cp", for: plan.destinationProvider)
        try transfer.checkNoClobber(command: "cp", destination: plan.isDownload ? nil : plan.destinationProvider)
        let factory = ClientFactory(options: remote, bandwidthLimit: transfer.limitRate?.bytes)
        let streamedSourceProvider = try plan.streamedSourceProvider(options: remote)
        let client = try await factory.makeClient(for: plan.destinationProvider)
        var streamedSource: ObjectStorageClient?
        if let streamedSourceProvider { streamedSource = try await factory.makeClient(for: streamedSourceProvider) }
        let sourceClient = streamedSource
        let contentType = self.contentType
        let flags = self.transfer
        let output = self.output
        let namesDirectory = destination.hasSuffix("/")
        let versionID = self.versionID
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: plan.destinationProvider)) {
            func transferring(
                _ verb: String,
                from: String,
                to: String,
                _ transfer: (ProgressBar) async throws -> String
            ) async throws {
                try await CopyTransfer.reported(verb, from: from, to: to, flags: flags, output: output, transfer)
            }
            switch plan.direction {
            case .upload(let path, let target):
                try await transferring("upload", from: path, to: RemoteLocation.text(target)) { bar in
                    try await CopyTransfer.upload(
                        file: path,
                        to: target,
                        contentType: contentType,
                        flags: flags,
                        client: client,
                        bar: bar
                    )
                }
            case .download(let origin, let path):
                try await transferring("download", from: RemoteLocation.text(origin), to: path) { bar in
                    try await CopyTransfer.download(
                        from: origin,
                        versionID: versionID,
                        toFile: path,
                        createsDirectory: namesDirectory,
                        flags: flags,
                        client: client,
                        bar: bar
                    )
                }
            case .copy(let origin, let target):
                let (from, to) = (RemoteLocation.text(origin), RemoteLocation.text(target))
                try await transferring("copy", from: from, to: to) { bar in
                    try await CopyTransfer.copy(
                        from: origin,
                        versionID: versionID,
                        to: target,
                        flags: flags,
                        client: client,
                        sourceClient: sourceClient,
                        bar: bar
                    )
                }
            }
        }
    }
}

/// What `cp` will do, with destination names resolved and local paths checked.
struct CopyPlan: Sendable {
    enum Direction: Sendable {
        case upload(path: String, to: ObjectURL)
        case download(from: ObjectURL, path: String)
        case copy(from: ObjectURL, to: ObjectURL)
    }

    var direction: Direction

    var isUpload: Bool {
        if case .upload = direction { return true }
        return false
    }

    var isCopy: Bool {
        if case .copy = direction { return true }
        return false
    }

    var isDownload: Bool {
        if case .download = direction { return true }
        return false
    }

    /// The vendor of the client that writes (or, for a download, reads) the transfer.
    var destinationProvider: StorageVendor {
        switch direction {
        case .upload(_, let target): target.vendor
        case .download(let origin, _): origin.vendor
        case .copy(_, let target): target.vendor
        }
    }

    /// For a copy between two services, the source's vendor: its bytes stream through this process, read by a
    /// client of its own. Each service's endpoint and region then come from its own variables, never from
    /// `--endpoint` or `--region`, which would name one endpoint for two services.
    ///
    /// - Throws: ``CLIError`` `.usage` when `--endpoint` or `--region` is given for such a copy.
    func streamedSourceProvider(options: RemoteOptions) throws(CLIError) -> StorageVendor? {
        guard case .copy(let origin, let target) = direction, origin.vendor != target.vendor else { return nil }
        if options.service.endpoint != nil || options.service.region != nil {
            throw .usage(
                "cp: --endpoint and --region name one service's endpoint; a copy from \(origin.vendor) to "
                    + "\(target.vendor) reads each service's endpoint and region from its environment variables"
            )
        }
        return origin.vendor
    }

    init(source: String, destination: String, fileManager: FileManager = .default) throws(CLIError) {
        let remoteSource = try ObjectURL(parsing: source)
        let remoteDestination = try ObjectURL(parsing: destination)
        switch (remoteSource, remoteDestination) {
        case (nil, nil):
            throw .usage("cp: neither '\(source)' nor '\(destination)' is a remote URL; use cp(1) for local copies")
        case (nil, let target?):
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: source, isDirectory: &isDirectory) else {
                throw CLIError(status: .notFound, message: "cp: '\(source)': no such file")
            }
            guard !isDirectory.boolValue else {
                throw .usage("cp: '\(source)' is a directory; add --recursive (-r) to copy every file under it")
            }
            guard fileManager.isReadableFile(atPath: source) else {
                throw .invalidInput("cp: '\(source)': permission denied")
            }
            direction = .upload(path: source, to: Self.named(target, after: source))
        case (let origin?, nil):
            let key = try Self.objectKey(origin, source)
            var path = destination
            var isDirectory: ObjCBool = false
            if destination.hasSuffix("/")
                || (fileManager.fileExists(atPath: destination, isDirectory: &isDirectory) && isDirectory.boolValue)
            {
                let name = RemoteLocation.lastComponent(key)
                guard !name.isEmpty, name != ".", name != ".." else {
                    throw .usage("cp: '\(source)' has no file name to use in '\(destination)'")
                }
                path = destination.hasSuffix("/") ? destination + name : destination + "/" + name
            }
            direction = .download(from: origin, path: path)
        case (let origin?, let target?):
            let key = try Self.objectKey(origin, source)
            direction = .copy(from: origin, to: Self.named(target, after: key))
        }
    }

    /// The key of a remote source, which must name an object.
    private static func objectKey(_ location: ObjectURL, _ text: String) throws(CLIError) -> String {
        guard let key = location.key, !key.hasSuffix("/") else {
            let what = location.key == nil ? "a bucket" : "a prefix"
            throw .usage(
                "cp: '\(text)' names \(what), not an object; add --recursive (-r) to copy every object under it"
            )
        }
        return key
    }

    /// The destination itself, or, for a bucket or a key ending in '/', with `name`'s last component added.
    private static func named(_ target: ObjectURL, after name: String) -> ObjectURL {
        let key = target.key ?? ""
        guard key.isEmpty || key.hasSuffix("/") else { return target }
        return ObjectURL(
            vendor: target.vendor,
            bucket: target.bucket,
            key: key + RemoteLocation.lastComponent(name)
        )
    }
}

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
#endif

/// `cp - URL` (standard input to an object) and `cp URL -` (an object to standard output).
extension CopyCommand {
    /// Whether `source` or `destination` is `-`, standard input or output.
    var usesStandardStreams: Bool { source == "-" || destination == "-" }

    /// Runs `cp - URL` or `cp URL -`. Neither keeps a checkpoint; `cp URL -` writes nothing but the object's
    /// bytes to standard output.
    func runStandardStreams() async throws {
        Self.returnPartBuffersToTheSystem()
        if recursive { throw CLIError.usage("cp --recursive: '-' is not a directory") }
        if transfer.checkpointFile != nil { throw CLIError.usage("cp: '-' is a stream and keeps no checkpoint") }
        let usage = CLIError.usage("cp: '-' goes with a remote URL naming an object: cp - URL, or cp URL -")
        if source == "-" {
            guard destination != "-", let target = try ObjectURL(parsing: destination), Self.namesObject(target) else {
                throw usage
            }
            try transfer.checkNoClobber(command: "cp", destination: target.vendor)
            try await upload(to: target)
        } else {
            guard let origin = try ObjectURL(parsing: source), Self.namesObject(origin) else { throw usage }
            if let flag = transfer.uploadOnlyFlags.first ?? (contentType == nil ? nil : "--content-type") {
                throw CLIError.usage("cp: \(flag) applies to uploads only")
            }
            try transfer.checkNoClobber(command: "cp", destination: nil)
            try await download(from: origin)
        }
    }

    /// Keeps glibc's malloc from holding on to freed part buffers: by default it raises its mmap threshold to
    /// the size of the largest freed block (up to 32 MiB), after which parts come from its arenas and their
    /// memory stays counted in the process's RSS long after they are sent. Fixed at its initial 128 KiB, every
    /// part is a mapping of its own, given back when freed, so memory stays within `concurrency × partSize`.
    private static func returnPartBuffersToTheSystem() {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which the Glibc module does not import; M_MMAP_THRESHOLD is -3.
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallocOption.self)(-3, 128 * 1024)
        #endif
    }

    private static func namesObject(_ location: ObjectURL) -> Bool {
        guard let key = location.key else { return false }
        return !key.isEmpty && !key.hasSuffix("/")
    }

    /// The transfer options for a stream: the flags', without a checkpoint.
    private var streamOptions: TransferOptions {
        var options = transfer.options
        options.enableCheckpoint = false
        return options
    }

    private func upload(to target: ObjectURL) async throws {
        let factory = ClientFactory(options: remote, bandwidthLimit: transfer.limitRate?.bytes)
        let client = try await factory.makeClient(for: target.vendor)
        let attributes = transfer.uploadAttributes(contentType: contentType)
        let options = streamOptions
        let output = self.output
        let flags = self.transfer
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: target.vendor)) {
            // Not drawn (the length is unknown): it times the transfer for the line that reports it.
            let timer = ProgressBar(label: "upload", isTerminal: false, output: output.level)
            let result: TransferResult
            do {
                result = try await client.uploadStream(
                    StandardInputBytes(),
                    bucket: target.bucket,
                    key: target.key ?? "",
                    attributes: attributes,
                    options: options
                )
            } catch let error where flags.isKept(error) {
                return TransferFlags.reportKept(RemoteLocation.text(target), output: output)
            }
            output.report("upload: - to \(RemoteLocation.text(target)) (\(timer.figures(result)))")
        }
    }

    private func download(from origin: ObjectURL) async throws {
        let factory = ClientFactory(options: remote, bandwidthLimit: transfer.limitRate?.bytes)
        let client = try await factory.makeClient(for: origin.vendor)
        let options = streamOptions
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: origin.vendor)) {
            try await OrderedDownload.run(from: origin, options: options, client: client)
        }
    }
}

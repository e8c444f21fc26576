//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorage
import ObjectStorageSigning

/// The `cp` options that tune the resumable upload and download engines.
struct TransferFlags: ParsableArguments, Sendable {
    @Option(help: "The part size in bytes, or with a K, M or G suffix (1024-based), e.g. 8M.")
    var partSize: ByteCount?

    @Option(
        help:
            "How many parts to transfer at once (1–\(TransferOptions.maximumConcurrency); default \(TransferOptions.defaultConcurrency))."
    )
    var concurrency: Int?

    @Flag(
        inversion: .prefixedNo,
        help: "Keep a checkpoint so that an interrupted transfer (Ctrl-C) resumes when rerun."
    )
    var checkpoint = true

    @Option(
        help:
            "The most bytes per second the command moves, all objects and parts together, e.g. 20M (1024-based; at least 1K)."
    )
    var limitRate: ByteCount?

    @Option(
        help:
            "Where to keep the checkpoint (default: beside the local file; for a remote copy, in the temporary directory)."
    )
    var checkpointFile: String?

    @Flag(
        help: """
            Never overwrite an object: the service refuses each write whose key exists (S3 If-None-Match: *, OSS \
            x-oss-forbid-overwrite), and the object is reported as skipped. Not for downloads, nor for OBS, which \
            has no such write.
            """
    )
    var noClobber = false

    @Option(
        help: """
            How a transfer is checked end to end: full (the default: every check the service allows, reading a \
            download back once where nothing else proves it), streamed (only checks made as the bytes arrive, \
            never a second read), off. The summary says what was verified.
            """
    )
    var checksumMode: ChecksumMode = .full

    @Flag(help: "Upload only: send each part's Content-MD5 so the service verifies it.")
    var md5 = false

    @Option(help: "Upload only: the object's storage class (e.g. STANDARD, IA).")
    var storageClass: String?

    @Option(help: "Upload only: the object's canned ACL (e.g. private, public-read).")
    var acl: String?

    @Option(name: .customLong("meta"), help: "Upload only: user metadata KEY=VALUE (repeatable).")
    var metadata: [MetadataPair] = []

    @Option(
        help:
            "Upload or copy: the object's tags, 'KEY=VALUE&KEY2=VALUE2' (URL-encoded, as S3's x-amz-tagging); a copy gets these instead of its source's."
    )
    var tags: TagSet?

    func validate() throws {
        if let concurrency, !(1...TransferOptions.maximumConcurrency).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and \(TransferOptions.maximumConcurrency)")
        }
        if let limitRate, limitRate.bytes < 1024 {
            throw ValidationError("--limit-rate must be at least 1K (1024 bytes per second), not \(limitRate.bytes)")
        }
        var seen: Set<String> = []
        for pair in metadata where !seen.insert(pair.key.lowercased()).inserted {
            throw ValidationError("--meta '\(pair.key)' is given more than once")
        }
    }

    /// The engines' options, the same for both directions. The checkpoint is on unless `--no-checkpoint`:
    /// a command line is rerun after a Ctrl-C, so `cp` opts in where the SDK leaves the choice to the caller.
    var options: TransferOptions {
        var options = TransferOptions(enableCheckpoint: checkpoint, checkpointFilePath: checkpointFile)
        if let partSize { options.partSize = partSize.bytes }
        if let concurrency { options.concurrency = concurrency }
        options.enableMD5Check = md5
        options.integrityCheck = checksumMode.integrityCheck
        if noClobber { options.writeCondition = .ifAbsent }
        return options
    }

    /// The attributes an uploaded object gets from these flags and `--content-type`.
    ///
    /// - Parameter contentType: The `--content-type` value, if any.
    /// - Returns: The attributes.
    func uploadAttributes(contentType: String?) -> UploadAttributes {
        var attributes = UploadAttributes(contentType: contentType)
        attributes.storageClass = storageClass.map { StorageClass(rawValue: $0) }
        attributes.acl = acl.map { ObjectACL(rawValue: $0) }
        attributes.metadata = Dictionary(metadata.map { ($0.key, $0.value) }) { first, _ in first }
        attributes.tags = tags?.tags
        return attributes
    }

    /// Refuses `--tags` the vendor would refuse, before anything is sent.
    func checkTags(_ command: String, for vendor: StorageVendor) throws(CLIError) {
        try tags?.check(command + ": --tags", for: vendor)
    }

    /// The first of these flags given, by name, if any: for a command that transfers only when told to (`restore`
    /// with a destination).
    var firstGiven: String? {
        if partSize != nil { return "--part-size" }
        if concurrency != nil { return "--concurrency" }
        if !checkpoint { return "--no-checkpoint" }
        if limitRate != nil { return "--limit-rate" }
        if checkpointFile != nil { return "--checkpoint-file" }
        if noClobber { return "--no-clobber" }
        if checksumMode != .full { return "--checksum-mode" }
        return uploadOnlyFlags.first
    }

    /// The options that only apply to uploads, by flag name, when any is set.
    var uploadOnlyFlags: [String] {
        var flags: [String] = []
        if md5 { flags.append("--md5") }
        if storageClass != nil { flags.append("--storage-class") }
        if acl != nil { flags.append("--acl") }
        if !metadata.isEmpty { flags.append("--meta") }
        if tags != nil { flags.append("--tags") }
        return flags
    }
}

/// A byte count written as digits with an optional K, M or G (1024-based) suffix: `65536`, `64K`, `8M`, `1G`.
struct ByteCount: ExpressibleByArgument, Sendable, Hashable {
    var bytes: Int64

    init(bytes: Int64) {
        self.bytes = bytes
    }

    init?(argument: String) {
        var digits = Substring(argument.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        switch digits.last {
        case "K": multiplier = 1 << 10
        case "M": multiplier = 1 << 20
        case "G": multiplier = 1 << 30
        default: break
        }
        if multiplier != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int64(digits), value > 0 else {
            return nil
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }
}

/// One `--meta KEY=VALUE`.
struct MetadataPair: ExpressibleByArgument, Sendable, Hashable {
    var key: String
    var value: String

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "=") else { return nil }
        let key = String(argument[..<equals])
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        self.key = key
        value = String(argument[argument.index(after: equals)...])
    }
}

/// One `--tags 'KEY=VALUE&KEY2=VALUE2'`: decoded as a URL query, each key once.
struct TagSet: ExpressibleByArgument, Sendable, Hashable {
    var tags: [String: String]

    init?(argument: String) {
        guard let pairs = ObjectTagRules.tags(fromHeader: argument) else { return nil }
        var tags: [String: String] = [:]
        for (key, value) in pairs {
            guard tags.updateValue(value, forKey: key) == nil else { return nil }
        }
        self.tags = tags
    }

    /// Refuses tags the vendor would refuse, before anything is sent.
    ///
    /// - Parameters:
    ///   - context: What the message starts with, e.g. `cp: --tags`.
    ///   - vendor: The vendor the tags are written to.
    func check(_ context: String, for vendor: StorageVendor) throws(CLIError) {
        let pairs = tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        if let violation = ObjectTagRules(vendor: vendor).violation(in: pairs) {
            throw .invalidInput("\(context): \(violation)")
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

/// `--checksum-mode`: the CLI's names for ``TransferOptions/IntegrityCheck``.
enum ChecksumMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case full, streamed, off

    var integrityCheck: TransferOptions.IntegrityCheck {
        switch self {
        case .full: return .full
        case .streamed: return .streamed
        case .off: return .off
        }
    }
}

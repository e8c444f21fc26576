//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import Logging
import ObjectStorageLocalServer
import ObjectStorageSigning

/// `objstore serve`: the local OSS/OBS/S3 server as a process.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local object-storage server that speaks OSS, OBS and S3 and verifies their signatures.",
        discussion: """
            Prints exactly one line, `listening on http://HOST:PORT` (`https` with --tls-certificate), on \
            standard output when ready, then on \
            standard error one `export` line per dialect (S3, OSS, OBS) that points objstore at the server: \
            endpoint, region and key pair (a secret configured with --access-key-id appears as the shell \
            expansion that reads it, never in the clear). Stops cleanly on SIGINT or SIGTERM.

            Data: in --data DIR (kept), in memory with --memory, else in a new temporary directory, named on \
            standard error and removed when the server stops on SIGINT or SIGTERM.

            Credentials: the development key pair unless --access-key-id names another key; its secret is read \
            from the file given with --access-key-secret-file (trailing newlines dropped) or from the \
            OBJSTORE_SERVE_ACCESS_KEY_SECRET environment variable, never from the command line, where every \
            user of the machine could read it in the process list.

            Request log: at info level, one line per request on standard error, after the response:
              TIMESTAMP info objstore.serve: bucket=B dialect=D key=K method=M operation=OP outcome=O \
            received=N request-id=ID sent=N status=S [ObjectStorageLocalServer] request
            Fields are space-separated name=value pairs in this order; bucket and key are percent-encoded \
            (so no value holds a space), received/sent count body bytes, status is `none` when a fault \
            closed the connection before a response, outcome is complete, closed-by-fault or write-failed. \
            Queries, headers, signatures and secrets are never logged.

            Faults (--fault SPEC, repeatable; rules apply in order and several can fire on one request):
              SPEC = comma-separated key=value pairs:
                op=GetObject[|UploadPart...]   operation names (default: any)
                bucket=B, key=K                filters (optional)
                when=always | nth:N | first:N | p:0.25   (default always; p: draws from --fault-seed)
              and exactly one fault:
                status=503[:SlowDown] [retry-after=SECONDS] | close-after=BYTES | delay-headers=MILLIS | \
            delay-chunks=MILLIS | bandwidth=BYTES_PER_SECOND | replace=random:SIZE | drop=response \
            (served, then the connection closes without the answer)
              Numbers are decimal digits only; MILLIS ≤ 3600000, retry-after ≤ 86400, SIZE ≤ 67108864 (64 MiB).
              Example: --fault 'op=GetObject,when=nth:1,status=503:SlowDown,retry-after=1'
            """
    )

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    // Unconditional, so that `--port -1` reaches validate() as -1 rather than "Missing value".
    @Option(parsing: .unconditional, help: "The port to bind, 0...65535; 0 picks a free port.")
    var port = 0

    @Option(help: "The data directory, created if missing and kept (default: a new temporary directory).")
    var data: String?

    @Flag(help: "Keep objects in memory instead of a directory.")
    var memory = false

    @Option(help: "The dialect of unsigned requests: oss, obs or s3.")
    var defaultDialect = "s3"

    @Option(help: "The accepted access key id (default: the development key).")
    var accessKeyID: String?

    @Option(
        help: ArgumentHelp(
            "A file holding the secret of --access-key-id (else OBJSTORE_SERVE_ACCESS_KEY_SECRET is read).",
            valueName: "path"
        )
    )
    var accessKeySecretFile: String?

    @Flag(help: "Accept unsigned requests and do not check signatures.")
    var anonymous = false

    @Option(
        name: .customLong("region"),
        help: ArgumentHelp(
            "A vendor's region, VENDOR=REGION (repeatable): what the server reports and V4 credential scopes of "
                + "that vendor must name; oss=cn-hangzhou, obs=cn-north-4 and s3=us-east-1 by default.",
            valueName: "vendor=region"
        )
    )
    var regionSettings: [String] = []

    @Option(help: "The base domain of virtual-hosted addressing (BUCKET.DOMAIN).")
    var domain = "localhost"

    @Option(help: "The log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(
        name: .customLong("fault"),
        help: ArgumentHelp(
            "Inject a fault (repeatable): op=OPS,bucket=B,key=K,when=WHEN and one of status=, close-after=, "
                + "delay-headers=, delay-chunks=, bandwidth=, replace=, drop=.",
            valueName: "spec"
        )
    )
    var faults: [String] = []

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS only, with the certificate chain in this PEM file (needs --tls-key); clients must trust "
                + "its issuer.",
            valueName: "file"
        )
    )
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --tls-certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(help: "The seed of probabilistic fault triggers (when=p:P).")
    var faultSeed: UInt64 = 0x5EED

    @Option(
        help: ArgumentHelp(
            "Apply the buckets' lifecycle rules every AGE (30s, 1m), counting each as a day: rules of N days act "
                + "after N times AGE. Without it, rules are kept but never applied.",
            valueName: "AGE"
        )
    )
    var lifecycleDay: Age?

    @Option(
        help: ArgumentHelp(
            "How long a restore of an archived object takes (RestoreObject): until then it stays unreadable.",
            valueName: "AGE"
        )
    )
    var restoreDelay: Age?

    /// Applies lifecycle rules every `day`, each counted as a day, and says on standard error what they changed.
    private static func applyLifecycle(_ server: LocalObjectServer, every day: Duration) async throws {
        while true {
            try await Task.sleep(for: day)
            let report = try server.applyLifecycle(asOf: Date(), dayLength: day)
            for object in report.expiredObjects { printError("objstore: lifecycle expired \(object)") }
            for version in report.removedVersions { printError("objstore: lifecycle removed \(version)") }
            for transition in report.transitions { printError("objstore: lifecycle moved \(transition)") }
            for upload in report.abortedUploads { printError("objstore: lifecycle aborted \(upload)") }
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535 (0 picks a free port), not \(port).")
        }
        guard !(memory && data != nil) else {
            throw ValidationError("--memory and --data cannot be combined: objects are kept in one or the other.")
        }
        guard StorageVendor(scheme: defaultDialect) != nil else {
            throw ValidationError("--default-dialect must be oss, obs or s3")
        }
        guard accessKeyID != nil || accessKeySecretFile == nil else {
            throw ValidationError("--access-key-secret-file needs --access-key-id")
        }
        guard !(anonymous && accessKeyID != nil) else {
            throw ValidationError("--anonymous cannot be combined with --access-key-id")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-certificate and --tls-key go together: give both or neither.")
        }
        for spec in faults { _ = try ServeFaultSpec.parse(spec) }
        if let lifecycleDay, lifecycleDay.seconds < 1 {
            throw ValidationError("--lifecycle-day must be at least 1s")
        }
    }

    func run() async throws {
        var configuredLogger = Logger(label: "objstore.serve")
        configuredLogger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let logger = configuredLogger
        let credentials: Credentials
        let exportedSecret: ServeExports.Secret
        if let accessKeyID {
            let secret = try ServeSecret.load(
                file: accessKeySecretFile,
                environment: ProcessInfo.processInfo.environment
            )
            credentials = Credentials(accessKeyID: accessKeyID, secretAccessKey: secret)
            exportedSecret = .expansion(
                accessKeySecretFile.map { ServeExports.fileExpansion(Self.absolutePath($0)) }
                    ?? ServeExports.variableExpansion(ServeSecret.environmentVariable)
            )
            printError("objstore: accepting access key id \(accessKeyID)")
        } else {
            credentials = LocalObjectServer.developmentCredentials
            exportedSecret = .development(credentials.secretAccessKey)
            if !anonymous {
                printError(
                    "objstore: development key pair (not for production): access key id "
                        + "\(credentials.accessKeyID), secret \(credentials.secretAccessKey)"
                )
            }
        }
        let dataDirectory = try ServeDataDirectory(memory: memory, data: data)
        printError("objstore: \(dataDirectory.summary)")
        var configuration = LocalObjectServer.Configuration(
            port: port,
            storage: dataDirectory.storage,
            authentication: anonymous ? .anonymous : .credentials([credentials]),
            regions: try Self.regions(regionSettings)
        )
        configuration.host = host
        configuration.defaultVendor = StorageVendor(scheme: defaultDialect) ?? .s3
        configuration.domain = domain
        if let restoreDelay { configuration.restoreDelay = .seconds(Int64(restoreDelay.seconds)) }
        if let tlsCertificate, let tlsKey {
            configuration.tls = (
                try Self.readPEM(tlsCertificate, "--tls-certificate"), try Self.readPEM(tlsKey, "--tls-key")
            )
        }
        let injector = FaultInjector(seed: faultSeed)
        for spec in faults { injector.add(try ServeFaultSpec.parse(spec)) }
        let server = LocalObjectServer(configuration: configuration, faults: injector, logger: logger)
        let host = self.host
        let scheme = configuration.scheme
        let regions = (StorageVendor.s3, StorageVendor.oss, StorageVendor.obs)
        let serverConfiguration = configuration
        let accessKeyID = credentials.accessKeyID
        let anonymous = self.anonymous
        let lifecycleDay = self.lifecycleDay.map { Duration.milliseconds(Int64($0.seconds * 1000)) }
        do {
            // Each task says whether it was the server's; when the server stops, the lifecycle timer stops too.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await server.runUntilTerminated(logger: logger)
                    return true
                }
                if let lifecycleDay {
                    group.addTask {
                        _ = try await server.waitUntilRunning()
                        try await Self.applyLifecycle(server, every: lifecycleDay)
                        return false
                    }
                }
                group.addTask {
                    let port = try await server.waitUntilRunning()
                    FileHandle.standardOutput.write(Data("listening on \(scheme)://\(host):\(port)\n".utf8))
                    let exports = ServeExports(
                        endpoint: ServeExports.endpoint(host: host, port: port, scheme: scheme),
                        regions: [regions.0, regions.1, regions.2].map { ($0, serverConfiguration.region(for: $0)) },
                        accessKeyID: accessKeyID,
                        secret: exportedSecret
                    )
                    printError(
                        anonymous
                            ? "objstore: signatures are not checked; to point objstore at this server, paste one line:"
                            : "objstore: to point objstore at this server, paste one line (or all three):"
                    )
                    for line in exports.lines { printError(line) }
                    return false
                }
                while let wasServer = try await group.next() {
                    if wasServer { group.cancelAll() }
                }
            }
        } catch {
            dataDirectory.removeIfTemporary()
            throw error
        }
        dataDirectory.removeIfTemporary()
    }

    /// The bytes of a PEM file named by `option`.
    static func readPEM(_ path: String, _ option: String) throws(CLIError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput("\(option): cannot read '\(path)'.")
        }
        return [UInt8](data)
    }

    /// `path` made absolute against the working directory, so that a printed `cat PATH` works from anywhere.
    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Where `objstore serve` keeps objects: memory, the `--data` directory, or a temporary directory of its
/// own that it removes when it stops.
struct ServeDataDirectory {
    /// The server's storage.
    var storage: LocalObjectServer.Storage
    /// The temporary directory this process created, if any; the only directory it ever removes.
    var temporary: TemporaryDataDirectory?
    /// A sentence for standard error saying where the data is.
    var summary: String

    /// Chooses the storage, creating a new temporary directory (mode 0700) when neither `memory` nor `data`
    /// is given.
    ///
    /// - Parameters:
    ///   - memory: `--memory`.
    ///   - data: `--data`.
    /// - Throws: ``CLIError`` (exit 1) when the temporary directory cannot be created.
    init(memory: Bool, data: String?) throws(CLIError) {
        if memory {
            storage = .memory
            summary = "data in memory, lost when the server stops"
        } else if let data {
            storage = .directory(data)
            summary = "data in \(data)"
        } else {
            let directory: TemporaryDataDirectory
            do {
                directory = try TemporaryDataDirectory.create(prefix: "objstore-serve-")
            } catch {
                throw CLIError(
                    status: .failure,
                    message: "Cannot create a temporary data directory \(error.path) (give one with --data DIR)."
                )
            }
            storage = .directory(directory.path)
            temporary = directory
            summary =
                "data in \(directory.path), a new temporary directory removed when the server stops (--data DIR keeps it)"
        }
    }

    /// Removes the temporary directory, if this process created one.
    func removeIfTemporary() {
        temporary?.remove()
    }
}

extension ServeCommand {
    /// The regions of `--region VENDOR=REGION` settings.
    ///
    /// - Throws: ``CLIError`` for a setting that is not `VENDOR=REGION` with a known vendor.
    static func regions(_ settings: [String]) throws(CLIError) -> [StorageVendor: String] {
        var regions: [StorageVendor: String] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let vendor = StorageVendor(scheme: parts[0]), !parts[1].isEmpty else {
                throw .invalidInput(
                    "serve: --region takes VENDOR=REGION, such as oss=cn-shanghai or s3=eu-west-1, not '\(setting)'"
                )
            }
            regions[vendor] = parts[1]
        }
        return regions
    }
}

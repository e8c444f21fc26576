//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import NIOCore
import ObjectStorage
import ObjectStorageSigning

/// `objstore api METHOD URL`: any request of the vendor's REST API, signed and sent through the SDK's
/// ``ObjectStorageClient/send(_:logger:)``.
struct ApiCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Send any request of the vendor's REST API, signed, and print the answer.",
        discussion: """
            URL is oss://[BUCKET[/KEY]][?QUERY], or the same with obs:// or s3://. Here, unlike in the other \
            commands, everything after the first '?' is the query: a sub-resource alone (oss://bucket/?lifecycle) \
            or name=value pairs joined by '&', taken as written. The answer's body goes to standard output as \
            it arrives; with --json, one JSON object holds the status, the headers and the body (as text, or \
            in base64 when it is not UTF-8). An answer that is not 2xx is an error naming the vendor's code \
            and request id (exit status 2 for a missing bucket or key, 1 otherwise).
            """
    )

    /// The most bytes read from standard input, or printed as JSON: both are held in memory.
    static let inMemoryLimit = 256 << 20

    @Argument(help: "GET, HEAD, PUT, POST, DELETE or OPTIONS.")
    var method: String

    @Argument(help: "oss://[BUCKET[/KEY]][?QUERY], obs://… or s3://…")
    var url: String

    @Option(name: .customLong("query"), help: "A query parameter, name=value or name (repeatable).")
    var queries: [String] = []

    @Option(name: .customLong("header"), help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(help: "Send this file as the body; '-' sends standard input (up to 256 MiB).")
    var bodyFile: String?

    @Flag(help: "Print the status, the headers and the body as one JSON object.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        let (vendor, request) = try self.request()
        let body: UploadBody? =
            switch bodyFile {
            case nil: nil
            case "-": .bytes(try await Self.standardInput())
            case let path?: .file(path: path)
            }
        let json = self.json
        try await ClientFactory(options: remote).run(on: vendor) { client in
            var request = request
            request.body = body
            let response = try await client.send(request, logger: nil)
            if json {
                try JSONOutput.print(try await ApiAnswer(response))
            } else {
                for try await chunk in response.body { try StandardOutput.send(chunk) }
            }
        }
    }

    /// The vendor the URL names, and the request without its body.
    private func request() throws(CLIError) -> (StorageVendor, ServiceRequest) {
        let (target, urlQuery) = Self.split(url)
        let vendor: StorageVendor
        var request = ServiceRequest(method: method)
        if let bare = [StorageVendor.oss, .obs, .s3].first(where: { target.lowercased() == "\($0)://" }) {
            vendor = bare  // the service itself: ListBuckets
        } else {
            let location = try RemoteLocation.any(target)
            (vendor, request.bucket, request.key) = (location.vendor, location.bucket, location.key)
        }
        let pairs = urlQuery.map { $0.split(separator: "&").map(String.init) } ?? []
        for text in pairs + queries {
            let parameter = try SigningContext.queryParameter(text)
            request.query[parameter.name] = parameter.value ?? ""
        }
        for text in headers {
            let header = try SigningContext.header(text)
            request.headers[header.name] = header.value
        }
        return (vendor, request)
    }

    /// `url` cut at its first `?`: the target and the query.
    private static func split(_ url: String) -> (String, String?) {
        guard let mark = url.firstIndex(of: "?") else { return (url, nil) }
        return (String(url[..<mark]), String(url[url.index(after: mark)...]))
    }

    /// Standard input, read whole: a body held in memory can be sent again on a retry.
    private static func standardInput() async throws -> ByteBuffer {
        var collected = ByteBuffer()
        for try await chunk in StandardInputBytes() {
            guard chunk.readableBytes <= inMemoryLimit - collected.readableBytes else {
                throw CLIError.usage("api: standard input is longer than 256 MiB; give the body as a file")
            }
            collected.writeImmutableBuffer(chunk)
        }
        return collected
    }
}

/// What `api --json` prints.
private struct ApiAnswer: Encodable {
    var status: Int
    /// Header names in lower case; repeated headers joined with `, `.
    var headers: [String: String]
    /// The body as text, when it is UTF-8.
    var body: String?
    /// The body in base64, when it is not UTF-8.
    var bodyBase64: String?

    init(_ response: ServiceResponse) async throws {
        status = response.status
        headers = [:]
        for (name, value) in response.headers {
            let name = name.lowercased()
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        let bytes = try await response.body.collect(upTo: ApiCommand.inMemoryLimit).readableBytesView
        if let text = String(validating: bytes, as: UTF8.self) {
            body = text
        } else {
            bodyBase64 = ByteEncoding.base64(bytes)
        }
    }
}

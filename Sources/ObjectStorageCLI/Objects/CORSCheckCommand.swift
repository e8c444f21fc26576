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
import Synchronization

/// `objstore cors check URL --origin O --method M [--header H]`: the browser's preflight, replayed, and why it
/// passes or fails.
struct CORSCheckCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Send the preflight a browser would send, and say why the service allows or refuses it.",
        discussion: """
            The preflight is sent unsigned, as a browser sends it: OPTIONS with Origin, \
            Access-Control-Request-Method and Access-Control-Request-Headers. The first line gives the service's \
            answer; the next ones read the bucket's rules (which needs the credentials a 'cors get' needs) and say \
            which rule admits the request or, when none does, which one comes closest and what it lacks. Exit \
            status 0 when the service allows the request, 1 when it refuses it.

            URL may also be a presigned URL (http:// or https://), as the page uses it: the preflight goes to it, \
            and the check also finds what a browser reports as "CORS" though the URL itself is wrong: an expiry \
            that has passed, or an answer refusing it before its signature is checked (another region or bucket, \
            found by a GET of its first byte, which changes nothing). The URL is never printed.
            """
    )

    @Argument(
        help:
            "oss://BUCKET[/KEY], obs://BUCKET[/KEY], s3://BUCKET[/KEY], or the presigned URL the page sends its request to"
    )
    var url: String

    @Option(help: "The page's origin, e.g. https://app.example.com.")
    var origin: String

    @Option(help: "The method the page sends: GET, PUT, POST, DELETE or HEAD.")
    var method: String

    @Option(name: .customLong("header"), help: "A request header the page sets, e.g. Content-Type (repeatable).")
    var headers: [String] = []

    @Flag(help: "Print one JSON object instead of sentences.")
    var json = false

    @OptionGroup var remote: RemoteOptions

    func validate() throws {
        guard CORSConfiguration.methods.contains(method) else {
            throw ValidationError("--method must be one of GET, PUT, POST, DELETE, HEAD, not '\(method)'")
        }
    }

    func run() async throws {
        let request = CORSRequest(origin: origin, method: method, headers: headers)
        if url.hasPrefix("http://") || url.hasPrefix("https://") {
            try await self.checkPresignedURL(request)
            return
        }
        let location = try RemoteLocation.any(url)
        let json = self.json
        let factory = ClientFactory(options: remote)
        let client = try await factory.makeClient(for: location.vendor)
        var anonymous = client.configuration
        anonymous.credentials = nil
        let browser = ObjectStorageClient(configuration: anonymous)
        let refused = Mutex(false)
        try await RemoteFailure.run(endpoint: factory.endpointChoice(for: location.vendor)) {
            let answer = try await Self.preflight(request, to: location, through: browser)
            // The rules, when the credentials may read them; the answer stands on its own otherwise.
            let rules: Result<CORSConfiguration?, any Error>
            do {
                rules = .success(try await client.getBucketCORS(bucket: location.bucket))
            } catch {
                rules = .failure(error)
            }
            let verdict = CORSVerdict(request: request, answer: answer, rules: rules)
            try Self.show(verdict, json: json)
            refused.withLock { $0 = !verdict.passes }
        }
        if refused.withLock({ $0 }) { throw ExitCode(1) }
    }

    /// `cors check` of a presigned URL: the preflight sent to it, and what is wrong with the URL itself.
    private func checkPresignedURL(_ request: CORSRequest) async throws {
        let headers = Self.preflightHeaders(request)
        let host = URLComponents(string: url)?.host ?? "the URL's host"
        let preflight: PlainHTTP.Reply
        do {
            preflight = try await PlainHTTP.fetch(url, method: "OPTIONS", headers: headers)
        } catch {
            throw CLIError(status: .failure, message: "cors check: cannot reach \(host): \(error)")
        }
        let answer = CORSVerdict.Answer(
            status: Int(preflight.status),
            code: preflight.errorCode,
            message: preflight.errorMessage,
            granted: preflight.headers.filter { $0.name.lowercased().hasPrefix("access-control-") }
        )
        // A GET of the first byte: refused for its signature when the URL is for another method, but only after the
        // service has checked the bucket, the region and the expiry, which is what this is for.
        let replay = try? await PlainHTTP.fetch(url, method: "GET", headers: ["Range": "bytes=0-0"])
        var verdict = CORSVerdict(request: request, answer: answer, rules: nil)
        verdict.urlProblems = PresignedURLCheck(url: url, now: Date()).findings(replay: replay)
        try Self.show(verdict, json: json)
        if !verdict.passes { throw ExitCode(1) }
    }

    /// Sends the preflight unsigned and returns the service's answer.
    private static func preflight(
        _ request: CORSRequest,
        to location: ObjectURL,
        through browser: ObjectStorageClient
    ) async throws -> CORSVerdict.Answer {
        let headers = preflightHeaders(request)
        do {
            let response = try await browser.send(
                ServiceRequest(method: "OPTIONS", bucket: location.bucket, key: location.key, headers: headers)
            )
            _ = try await response.body.collect(upTo: 1 << 20)
            let granted = response.headers.filter { $0.name.lowercased().hasPrefix("access-control-") }
            return CORSVerdict.Answer(status: response.status, code: nil, message: nil, granted: granted)
        } catch let error as ServiceError {
            return CORSVerdict.Answer(
                status: error.statusCode,
                code: "\(error.code)",
                message: error.message,
                granted: []
            )
        }
    }

    /// The headers of a browser's preflight for `request`.
    private static func preflightHeaders(_ request: CORSRequest) -> [String: String] {
        var headers = ["Origin": request.origin, "Access-Control-Request-Method": request.method]
        if !request.headers.isEmpty {
            headers["Access-Control-Request-Headers"] = request.headers.joined(separator: ", ")
        }
        return headers
    }

    /// Prints the verdict: one JSON object, or its sentences.
    private static func show(_ verdict: CORSVerdict, json: Bool) throws {
        if json {
            try JSONOutput.print(verdict.report)
        } else {
            for line in verdict.sentences { printLine(line) }
        }
    }
}

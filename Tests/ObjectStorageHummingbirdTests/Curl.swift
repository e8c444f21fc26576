//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One HTTP exchange made with the `curl` command, as a browser or a script would make it: the status, the
/// headers (names lowercased) and the body bytes.
struct CurlResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    /// The value of a header, by its name in any case.
    subscript(header name: String) -> String? { self.headers[name.lowercased()] }
}

enum Curl {
    /// Whether `curl` can be run here.
    static let isAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// Runs `curl` for `url`: `--path-as-is` so that `..` reaches the server as written.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: `GET` or `HEAD`.
    ///   - headers: Request headers, `Name: value`.
    ///   - maxTime: The most seconds the transfer may take (curl fails with status 28 past it).
    /// - Returns: The response.
    static func run(
        _ url: String,
        method: String = "GET",
        headers: [String] = [],
        maxTime: Int = 30
    ) async throws -> CurlResponse {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headerFile = directory.appendingPathComponent("headers").path
        let bodyFile = directory.appendingPathComponent("body").path
        var arguments = ["-sS", "--path-as-is", "--max-time", "\(maxTime)", "-D", headerFile, "-o", bodyFile]
        arguments += method == "HEAD" ? ["-I"] : ["-X", method]
        for header in headers { arguments += ["-H", header] }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        // Waits without blocking a thread of the cooperative pool, which the app under test needs.
        let status = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else { throw CurlError(status: status) }
        let head = try String(contentsOfFile: headerFile, encoding: .utf8)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first,
            let status = statusLine.split(separator: " ").dropFirst().first.flatMap({
                Int($0)
            })
        else { throw CurlError(status: -1) }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        // `curl -I` writes the headers to the output file too, and reads no body after a HEAD's headers.
        let body =
            method == "HEAD" ? [] : (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map { [UInt8]($0) } ?? []
        return CurlResponse(status: status, headers: fields, body: body)
    }
}

struct CurlError: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "curl failed with status \(self.status)" }
}

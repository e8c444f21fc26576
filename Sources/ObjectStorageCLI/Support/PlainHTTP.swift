//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ObjectStorageSigning

/// Fetches URLs with a plain HTTP client and no credentials, as a script, `curl` or a browser would (presigned URLs,
/// for the demo and `cors check`): no signing, no retry, the body read up to 1 MiB.
enum PlainHTTP {
    /// What came back.
    struct Reply: Sendable {
        var status: UInt
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        var contentLength: Int64?
        /// The `<Code>` of an XML error body, if any.
        var errorCode: String?
        /// The `<Message>` of an XML error body, if any.
        var errorMessage: String?
    }

    /// Sends `method` to `url` with `headers`, reading at most 1 MiB of the body.
    static func fetch(_ url: String, method: String, headers: [String: String] = [:]) async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "host" {
            request.headers.add(name: name, value: value)
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let text = String(buffer: body)
        func element(_ name: String) -> String? {
            guard let start = text.range(of: "<\(name)>"),
                let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
            else { return nil }
            return String(text[start.upperBound..<end.lowerBound])
        }
        return Reply(
            status: response.status.code,
            headers: response.headers.map { ($0.name, $0.value) },
            body: Array(buffer: body),
            contentLength: response.headers.first(name: "content-length").flatMap { Int64($0) },
            errorCode: element("Code"),
            errorMessage: element("Message")
        )
    }

    /// Changes the last character of the signature parameter's value, keeping the URL well formed.
    static func tamperedSignature(_ url: String) -> String {
        let names = ["x-oss-signature=", "X-Amz-Signature=", "Signature="]
        guard let name = names.first(where: { url.contains($0) }), let range = url.range(of: name) else { return url }
        let valueEnd = url[range.upperBound...].firstIndex(of: "&") ?? url.endIndex
        guard valueEnd > range.upperBound else { return url }
        let last = url.index(before: valueEnd)
        let replacement: Character = url[last] == "a" ? "b" : "a"
        return url.replacingCharacters(in: last...last, with: String(replacement))
    }
}

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

/// Signed and presigned requests sent with a plain HTTP client, as any script or browser would.
struct DemoHTTP {
    struct Reply {
        var url: String
        var status: UInt
        var body: ByteBuffer
        var contentLength: String?
        var errorCode: String?
    }

    var endpoint: Endpoint
    var signer: RequestSigner
    var credentials: Credentials

    /// Sends a header-signed request.
    func send(method: String, bucket: String, key: String?, body: ByteBuffer?) async throws -> Reply {
        let request = SigningRequest(method: method, endpoint: endpoint, addressing: .path, bucket: bucket, key: key)
        let signed = try signer.sign(request, credentials: credentials, at: Date())
        var outgoing = HTTPClientRequest(url: signed.url)
        outgoing.method = .init(rawValue: method)
        for header in signed.headers where header.name.lowercased() != "host" {
            outgoing.headers.add(name: header.name, value: header.value)
        }
        if let body { outgoing.body = .bytes(body) }
        return try await execute(outgoing)
    }

    /// Presigns a URL and fetches it with no credentials at all; `tamper` flips one character of
    /// the signature first.
    func fetchPresigned(method: String, bucket: String, key: String, tamper: Bool = false) async throws -> Reply {
        let request = SigningRequest(method: method, endpoint: endpoint, addressing: .path, bucket: bucket, key: key)
        let presigned = try signer.presign(request, credentials: credentials, expires: .seconds(300), at: Date())
        let url = tamper ? Self.tamperedSignature(presigned.url) : presigned.url
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = .init(rawValue: method)
        var reply = try await execute(outgoing)
        reply.url = url
        return reply
    }

    private func execute(_ request: HTTPClientRequest) async throws -> Reply {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let text = String(buffer: body)
        let code = text.range(of: "<Code>").flatMap { start in
            text.range(of: "</Code>").map { end in String(text[start.upperBound..<end.lowerBound]) }
        }
        return Reply(
            url: request.url,
            status: response.status.code,
            body: body,
            contentLength: response.headers.first(name: "content-length"),
            errorCode: code
        )
    }

    /// Changes the last character of the signature parameter's value, keeping it well formed.
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

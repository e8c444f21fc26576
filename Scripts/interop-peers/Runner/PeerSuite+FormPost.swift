//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import NIOHTTP1

extension PeerSuite {
    /// A peer's answer to a posted form.
    struct FormAnswer {
        var status: Int
        var text: String

        /// The text of the first `<name>` element of an XML answer.
        func element(_ name: String) -> String? {
            guard let open = self.text.firstRange(of: "<\(name)>"),
                let close = self.text[open.upperBound...].firstRange(of: "</\(name)>")
            else { return nil }
            return String(self.text[open.upperBound..<close.lowerBound])
        }
    }

    /// Posts `fields` in order and then `file` as a browser's `multipart/form-data` upload named `upload.bin`.
    static func postForm(_ url: String, fields: [(String, String)], file: [UInt8]) async throws -> FormAnswer {
        let boundary = "----interop-peers-form-5d1c"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload.bin\"\r\n".utf8
        )
        body += Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + file
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let text = try await response.body.collect(upTo: 1 << 20)
        return FormAnswer(status: Int(response.status.code), text: String(buffer: text))
    }
}

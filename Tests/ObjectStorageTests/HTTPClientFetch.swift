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

/// Fetches a URL with plain AsyncHTTPClient (no signing), as a browser would a presigned URL; header names lowercased.
enum HTTPClientFetch {
    static func get(_ url: String) async throws -> (status: Int, body: [UInt8], headers: [String: String]) {
        let request = HTTPClientRequest(url: url)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { first, second in
            "\(first),\(second)"
        }
        return (Int(response.status.code), Array(body.readableBytesView), headers)
    }
}

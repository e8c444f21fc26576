//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging

/// The parts of a request that are safe to log or to put in an error: method, host and path. Never the query
/// string (presigned URLs carry their signature there) and never a header.
struct RequestContext: Sendable {
    var method: String
    var host: String
    var path: String

    init(method: String, url: String) {
        self.method = method
        let (host, afterAuthority) = URLAuthority.split(url)
        self.host = String(host)
        let pathEnd = afterAuthority.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? afterAuthority.endIndex
        let path = afterAuthority[..<pathEnd]
        self.path = path.isEmpty ? "/" : String(path)
    }

    /// Metadata for log lines about this request.
    var metadata: Logger.Metadata {
        ["http.method": "\(self.method)", "http.host": "\(self.host)", "http.path": "\(self.path)"]
    }
}

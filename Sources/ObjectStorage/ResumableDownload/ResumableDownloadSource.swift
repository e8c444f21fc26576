//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Logging
import NIOCore
import NIOHTTP1
import ObjectStorageCheckpoint
import ObjectStorageTransport

/// Where a resumable download reads from: a bucket and key through the client's signed requests,
/// or a presigned GET URL sent as is.
enum ResumableDownloadSource: Sendable {
    case object(bucket: String, key: String)
    case presigned(url: String)

    /// What the probe learned, plus whether the server ignores `Range`.
    struct Probe: Sendable {
        var object: DownloadCheckpoint.ObjectState
        var ignoresRange: Bool
        /// Response headers, for dialect-specific checks (encryption).
        var headers: HTTPHeaders
    }
}

/// The parts of a `Content-Range: bytes first-last/total` header.
struct ContentRange: Hashable, Sendable {
    var first: Int64
    var last: Int64
    var total: Int64?

    /// Parses `bytes first-last/total` (total may be `*`); `nil` for anything else (`bytes */total`).
    init?(_ header: String) {
        var text = Substring(header.trimmingASCIIWhitespace())
        guard text.lowercased().hasPrefix("bytes") else { return nil }
        text = text.dropFirst(5).drop { $0 == " " || $0 == "=" }
        guard let dash = text.firstIndex(of: "-"), let slash = text.firstIndex(of: "/"), dash < slash,
            let first = Int64(text[..<dash]), let last = Int64(text[text.index(after: dash)..<slash]),
            first >= 0, last >= first
        else { return nil }
        let totalText = text[text.index(after: slash)...]
        self.first = first
        self.last = last
        if totalText == "*" {
            self.total = nil
        } else {
            guard let total = Int64(totalText), total > last else { return nil }
            self.total = total
        }
    }

    /// The total of `bytes */total` (an unsatisfiable-range answer).
    static func unsatisfiedTotal(_ header: String) -> Int64? {
        let text = header.trimmingASCIIWhitespace()
        guard text.lowercased().hasPrefix("bytes */") else { return nil }
        return Int64(text.dropFirst(8))
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}

extension ResumableDownloadSource {
    /// The GET of this source, with `range`, pinned by `ifMatch` and (for an object) `versionID`: an operation of the
    /// client's, or the presigned URL sent as it is.
    func get(range: String?, ifMatch: String?, versionID: String?) -> OperationRequest {
        var operation: OperationRequest
        switch self {
        case .object(let bucket, let key):
            operation = OperationRequest(name: "GetObject", method: .GET, bucket: bucket, key: key)
            operation.query("versionId", versionID)
        case .presigned(let url):
            operation = .presignedGET(url)
        }
        operation.header("Range", range)
        operation.header("If-Match", ifMatch)
        return operation
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// CRC64 values are stored as decimal strings (the form of the `x-oss-hash-crc64ecma` header), so
// no JSON reader ever rounds them through a double.

extension KeyedEncodingContainer {
    mutating func encodeCRC64(_ value: UInt64?, forKey key: Key) throws {
        try self.encodeIfPresent(value.map { String($0) }, forKey: key)
    }
}

extension KeyedDecodingContainer {
    func decodeCRC64IfPresent(forKey key: Key) throws -> UInt64? {
        guard let text = try self.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = UInt64(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: self,
                debugDescription: "a CRC64 must be a decimal string"
            )
        }
        return value
    }

    func decodeCRC64(forKey key: Key) throws -> UInt64 {
        guard let value = try self.decodeCRC64IfPresent(forKey: key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(codingPath: self.codingPath, debugDescription: "missing CRC64")
            )
        }
        return value
    }
}

/// Checks shared by both checkpoint kinds before a save and after a load.
enum CheckpointRules {
    /// Whether an endpoint string could carry a credential: a query or fragment (a presigned URL's
    /// signature) or user info (`user:password@host`). An endpoint is `scheme://host[:port]`, so
    /// none of `?`, `#` or `@` belongs in it anywhere.
    static func endpointProblem(_ endpoint: String) -> String? {
        endpoint.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) ? "endpoint" : nil
    }

    /// Whether `path` is absolute and normalised (no `.`/`..` components, no empty ones).
    static func isAbsoluteNormalised(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.count > 1, !path.hasSuffix("/"), !path.utf8.contains(0) else { return false }
        return !path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).contains {
            $0.isEmpty || $0 == "." || $0 == ".."
        }
    }
}

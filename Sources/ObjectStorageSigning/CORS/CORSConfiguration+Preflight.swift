//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a cross-origin request asks of a bucket: the page's origin, the method, and the request headers a
/// preflight lists in `Access-Control-Request-Headers`.
package struct CORSRequest: Sendable, Hashable {
    package var origin: String
    package var method: String
    package var headers: [String]

    package init(origin: String, method: String, headers: [String] = []) {
        self.origin = origin
        self.method = method
        self.headers = headers
    }

    /// The header names of an `Access-Control-Request-Headers` value: comma-separated, trimmed, none empty.
    package static func headerNames(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }
}

/// What one rule lacks to admit a request.
package struct CORSShortfall: Sendable, Hashable {
    /// The rule's position, from 0.
    package var index: Int
    package var rejectsOrigin: Bool
    package var rejectsMethod: Bool
    /// The requested headers that none of the rule's allowed headers matches.
    package var rejectedHeaders: [String]

    /// How far the rule is from admitting the request: the number of things it lacks.
    package var distance: Int {
        (self.rejectsOrigin ? 1 : 0) + (self.rejectsMethod ? 1 : 0) + self.rejectedHeaders.count
    }
}

extension CORSConfiguration {
    /// The first rule that admits `request` (its origin, its method and every requested header), as the services
    /// choose it; `nil` when none does.
    package func firstRule(admitting request: CORSRequest) -> Int? {
        self.rules.indices.first { self.shortfall(of: $0, for: request).distance == 0 }
    }

    /// What rule `index` lacks to admit `request`.
    package func shortfall(of index: Int, for request: CORSRequest) -> CORSShortfall {
        let rule = self.rules[index]
        let rejectedHeaders = request.headers.filter { header in
            !rule.allowedHeaders.contains { Self.matches(pattern: $0.lowercased(), header.lowercased()) }
        }
        return CORSShortfall(
            index: index,
            rejectsOrigin: !rule.allowedOrigins.contains { Self.matches(pattern: $0, request.origin) },
            rejectsMethod: !rule.allowedMethods.contains(request.method),
            rejectedHeaders: rejectedHeaders
        )
    }

    /// The rule that comes closest to admitting `request` (the fewest things lacking; the first of equals), or
    /// `nil` without rules.
    package func closestRule(to request: CORSRequest) -> CORSShortfall? {
        self.rules.indices.map { self.shortfall(of: $0, for: request) }.min { $0.distance < $1.distance }
    }

    /// Whether `value` matches `pattern`, in which one `*` stands for any run of characters.
    package static func matches(pattern: String, _ value: String) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == value }
        let head = pattern[..<star]
        let tail = pattern[pattern.index(after: star)...]
        return value.count >= head.count + tail.count && value.hasPrefix(head) && value.hasSuffix(tail)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

/// What `cors check` found: the service's answer to the preflight and what the bucket's rules say of it.
struct CORSVerdict {
    /// The service's answer to the preflight.
    struct Answer {
        var status: Int
        var code: String?
        var message: String?
        /// The `Access-Control-*` headers of the answer.
        var granted: [(name: String, value: String)]

        /// Whether a browser would go on: a 2xx that names an allowed origin.
        var isAllowed: Bool {
            (200..<300).contains(self.status)
                && self.granted.contains { $0.name.lowercased() == "access-control-allow-origin" }
        }
    }

    struct Report: Encodable {
        var allowed: Bool
        var status: Int
        var code: String?
        var headers: [String: String]
        /// The rule (from 1) that admits the request, by the rules as the services evaluate them.
        var rule: Int?
        /// When none admits it: the closest rule (from 1) and what it lacks.
        var closestRule: Int?
        var lacks: [String]?
        /// Why the rules could not be read, if they could not.
        var rulesUnreadable: String?
        /// What is wrong with a presigned URL itself, as sentences.
        var urlProblems: [String]?
    }

    let request: CORSRequest
    let answer: Answer
    /// The bucket's rules; `nil` when they were not read (a presigned URL names no bucket the CLI can ask).
    let rules: Result<CORSConfiguration?, any Error>?
    /// What ``PresignedURLCheck`` found wrong with a presigned URL.
    var urlProblems: [String] = []

    private var configuration: CORSConfiguration? { try? self.rules?.get() }

    /// Whether a browser would go through: the preflight passes and the URL itself is sound.
    var passes: Bool { self.answer.isAllowed && self.urlProblems.isEmpty }

    /// What rule `shortfall` lacks, as phrases: `the origin https://a`, `the method PUT`, `the header X-Foo`.
    private func lacks(_ shortfall: CORSShortfall) -> [String] {
        var lacks: [String] = []
        if shortfall.rejectsOrigin { lacks.append("the origin \(self.request.origin)") }
        if shortfall.rejectsMethod { lacks.append("the method \(self.request.method)") }
        for header in shortfall.rejectedHeaders { lacks.append("the header \(header)") }
        return lacks
    }

    private func name(_ index: Int) -> String {
        let id = self.configuration?.rules[index].id.map { " (\($0))" } ?? ""
        return "rule \(index + 1)\(id)"
    }

    var report: Report {
        let admitting = self.configuration?.firstRule(admitting: self.request)
        let closest = admitting == nil ? self.configuration?.closestRule(to: self.request) : nil
        var unreadable: String?
        if case .failure(let error)? = self.rules { unreadable = "\(error)" }
        return Report(
            allowed: self.answer.isAllowed,
            status: self.answer.status,
            code: self.answer.code,
            headers: Dictionary(self.answer.granted.map { ($0.name, $0.value) }) { first, _ in first },
            rule: admitting.map { $0 + 1 },
            closestRule: closest.map { $0.index + 1 },
            lacks: closest.map(self.lacks),
            rulesUnreadable: unreadable,
            urlProblems: self.urlProblems.isEmpty ? nil : self.urlProblems
        )
    }

    var sentences: [String] {
        let asked =
            "\(self.request.method) from \(self.request.origin)"
            + (self.request.headers.isEmpty ? "" : " with \(self.request.headers.joined(separator: ", "))")
        var lines: [String] = []
        if self.answer.isAllowed {
            lines.append("allowed: the service answers the preflight of \(asked) with \(self.answer.status)")
            for header in self.answer.granted { lines.append("  \(header.name): \(header.value)") }
        } else {
            let code = self.answer.code.map { " \($0)" } ?? ""
            let message = self.answer.message.map { ": \($0)" } ?? ""
            lines.append(
                "refused: the service answers the preflight of \(asked) with \(self.answer.status)\(code)\(message)"
            )
        }
        lines += self.urlProblems
        switch self.rules {
        case nil:
            break
        case .failure(let error):
            lines.append("the bucket's rules cannot be read to say why (\(error))")
        case .success(nil)?:
            lines.append(
                "the bucket has no CORS rules, so the service refuses every preflight; "
                    + "set some with 'objstore cors set URL FILE'"
            )
        case .success(let configuration?)?:
            if let index = configuration.firstRule(admitting: self.request) {
                lines.append("\(self.name(index)) admits it")
                if !self.answer.isAllowed {
                    lines.append(
                        "the service refused what its rules admit: it does not evaluate them as S3, OSS and OBS do"
                    )
                }
            } else if let closest = configuration.closestRule(to: self.request) {
                let lacks = self.lacks(closest)
                lines.append(
                    "no rule admits it; \(self.name(closest.index)) comes closest but does not allow "
                        + Self.list(lacks)
                )
            }
        }
        return lines
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func list(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}

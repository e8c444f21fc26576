//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import ObjectStorageLocalServer

/// One `objstore serve --fault SPEC` value, parsed into a ``FaultRule``.
///
/// `SPEC` is a comma-separated list of `key=value` pairs:
/// - `op=GetObject[|UploadPart…]` — operation names as ``Operation`` spells them (default: any);
/// - `bucket=B`, `key=K` — optional filters;
/// - `when=always | nth:N | first:N | p:0.25` — the trigger (default `always`);
/// - exactly one fault: `status=503[:SlowDown]` (with an optional `retry-after=SECONDS`),
///   `close-after=BYTES`, `delay-headers=MILLIS`, `delay-chunks=MILLIS`, `bandwidth=BYTES_PER_SECOND`,
///   `replace=random:SIZE` or `drop=response` (serve the request, then close the connection without the answer).
///
/// Numbers are decimal digits only (no sign, space or exponent) and bounded: delays by ``longestDelay``,
/// `retry-after` by ``longestRetryAfter`` and `SIZE` by ``largestReplacement``.
struct ServeFaultSpec {
    /// The keys that name a fault; a spec has exactly one of them.
    static let faultKeys = ["status", "close-after", "delay-headers", "delay-chunks", "bandwidth", "replace", "drop"]
    static let filterKeys = ["op", "bucket", "key", "when", "retry-after"]

    /// The largest `replace=random:SIZE`, 64 MiB: each firing holds a fresh SIZE bytes in memory, and
    /// concurrent requests each fire (at 1 GiB, eight parallel GETs would have held 8 GiB).
    static let largestReplacement = 64 << 20

    /// The longest `delay-headers=` or `delay-chunks=`, one hour in milliseconds: a longer delay is a hung
    /// server, and the client's own timeouts have long fired.
    static let longestDelay = 3_600_000

    /// The largest `retry-after=`, one day in seconds.
    static let longestRetryAfter = 86_400

    /// Parses one spec.
    ///
    /// - Parameter spec: The `--fault` value.
    /// - Returns: The rule.
    /// - Throws: `ValidationError` naming the spec and what is wrong with it.
    static func parse(_ spec: String) throws(ValidationError) -> FaultRule {
        func invalid(_ reason: String) -> ValidationError { ValidationError("--fault '\(spec)': \(reason)") }
        var fields: [String: String] = [:]
        for item in spec.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else {
                throw invalid("'\(item)' is not key=value")
            }
            let name = item[..<equals].lowercased()
            let value = String(item[item.index(after: equals)...])
            guard faultKeys.contains(name) || filterKeys.contains(name) else {
                throw invalid(
                    "unknown key '\(name)' (known: \((filterKeys + faultKeys).joined(separator: ", ")))"
                )
            }
            guard fields[name] == nil else { throw invalid("'\(name)' given twice") }
            fields[name] = value
        }
        let faults = faultKeys.filter { fields[$0] != nil }
        guard faults.count == 1, let faultKey = faults.first, let faultValue = fields[faultKey] else {
            throw invalid("needs exactly one of \(faultKeys.joined(separator: ", ")); found \(faults.count)")
        }
        if fields["retry-after"] != nil, faultKey != "status" {
            throw invalid("retry-after goes with status=")
        }
        var rule = FaultRule(fault: .internalError)
        if let operations = fields["op"] {
            for name in operations.split(separator: "|", omittingEmptySubsequences: false) {
                guard let operation = ServiceOperation.known.first(where: { $0.name == name }) else {
                    throw invalid(
                        "unknown operation '\(name)' (known: \(ServiceOperation.known.map(\.name).joined(separator: ", ")))"
                    )
                }
                rule.operations.insert(operation)
            }
        }
        if let bucket = fields["bucket"] {
            guard !bucket.isEmpty else { throw invalid("bucket= is empty") }
            rule.bucket = bucket
        }
        if let key = fields["key"] {
            guard !key.isEmpty else { throw invalid("key= is empty") }
            rule.key = key
        }
        if let when = fields["when"] {
            guard let trigger = trigger(when) else {
                throw invalid("when='\(when)' is not always, nth:N, first:N (N ≥ 1) or p:P (0 ≤ P ≤ 1, decimal)")
            }
            rule.trigger = trigger
        }
        switch faultKey {
        case "status":
            let retryAfter = try fields["retry-after"].map { text throws(ValidationError) in
                try number(text, key: "retry-after", spec: spec, in: 0...longestRetryAfter)
            }
            let parts = faultValue.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let status = wholeNumber(parts[0]), (400...599).contains(status) else {
                throw invalid("status='\(faultValue)' is not an HTTP error status 400…599, optionally :CODE")
            }
            let code = parts.count > 1 ? String(parts[1]) : defaultCode(status)
            guard !code.isEmpty, code.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }) else {
                throw invalid("error code '\(code)' must be letters and digits")
            }
            rule.fault = .error(status: status, code: code, message: message(code), retryAfterSeconds: retryAfter)
        case "close-after":
            let bytes = try number(faultValue, key: faultKey, spec: spec, in: 0...Int.max)
            rule.fault = .closeConnection(afterBodyBytes: Int64(bytes))
        case "delay-headers":
            let delay = try number(faultValue, key: faultKey, spec: spec, in: 0...longestDelay)
            rule.fault = .delayBeforeHeaders(.milliseconds(delay))
        case "delay-chunks":
            let delay = try number(faultValue, key: faultKey, spec: spec, in: 0...longestDelay)
            rule.fault = .delayBetweenChunks(.milliseconds(delay))
        case "bandwidth":
            rule.fault = .bandwidthLimit(
                bytesPerSecond: try number(faultValue, key: faultKey, spec: spec, in: 1...Int.max)
            )
        case "drop":
            guard faultValue == "response" else { throw invalid("drop='\(faultValue)' is not response") }
            rule.fault = .dropResponse
        default:
            guard faultValue.hasPrefix("random:"),
                let size = wholeNumber(faultValue.dropFirst("random:".count)),
                (0...largestReplacement).contains(size)
            else {
                throw invalid("replace='\(faultValue)' is not random:SIZE (0 ≤ SIZE ≤ \(largestReplacement))")
            }
            rule.fault = .replaceContent(randomBytes: size)
        }
        return rule
    }

    /// `text` as a whole number in `range`.
    ///
    /// - Throws: `ValidationError` naming the spec, the key and the range unless `text` is decimal digits
    ///   only (no sign, space or fraction) and its value is in `range`.
    private static func number(
        _ text: String,
        key: String,
        spec: String,
        in range: ClosedRange<Int>
    ) throws(ValidationError) -> Int {
        guard let value = wholeNumber(text), range.contains(value) else {
            let bounds =
                range.upperBound == .max ? "at least \(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
            throw ValidationError("--fault '\(spec)': \(key)='\(text)' is not a whole number \(bounds)")
        }
        return value
    }

    /// `text` as decimal digits only (`+5`, ` 5` and `5.0` are not), within `Int`; `nil` otherwise.
    static func wholeNumber(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int(text)
    }

    /// `text` as a probability written `0.25`, `1` or `.5`: digits with at most one point (no sign,
    /// exponent, `nan` or hexadecimal float), in 0…1.
    static func probability(_ text: some StringProtocol) -> Double? {
        let digits = text.utf8.filter { $0 &- UInt8(ascii: "0") < 10 }.count
        let points = text.utf8.filter { $0 == UInt8(ascii: ".") }.count
        guard digits > 0, points <= 1, digits + points == text.utf8.count, let value = Double(String(text)) else {
            return nil
        }
        return (0...1).contains(value) ? value : nil
    }

    private static func trigger(_ text: String) -> FaultRule.Trigger? {
        if text == "always" { return .always }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "nth": return wholeNumber(parts[1]).flatMap { $0 >= 1 ? .nth($0) : nil }
        case "first": return wholeNumber(parts[1]).flatMap { $0 >= 1 ? .first($0) : nil }
        case "p": return probability(parts[1]).map { .probability($0) }
        default: return nil
        }
    }

    private static func defaultCode(_ status: Int) -> String {
        switch status {
        case 400: "InvalidRequest"
        case 403: "AccessDenied"
        case 404: "NoSuchKey"
        case 409: "OperationAborted"
        case 429: "TooManyRequests"
        case 500: "InternalError"
        case 501: "NotImplemented"
        case 503: "ServiceUnavailable"
        default: "InjectedFault"
        }
    }

    private static func message(_ code: String) -> String {
        switch code {
        case "SlowDown", "TooManyRequests": "Please reduce your request rate."
        case "InternalError": "We encountered an internal error. Please try again."
        case "ServiceUnavailable": "Service is unable to handle request."
        default: "Injected by objstore serve --fault."
        }
    }
}

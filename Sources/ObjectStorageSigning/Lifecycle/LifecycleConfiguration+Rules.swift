//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Why a service refuses a lifecycle configuration.
package enum LifecycleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document's structure: an unknown element, a missing one, a value of the wrong kind (`MalformedXML`).
    case malformed(String)
    /// A value the service does not accept (S3 and OBS `InvalidArgument`, OSS `InvalidArgument`).
    case invalid(String)
    /// A combination S3 refuses as `InvalidRequest` (OSS and OBS as `InvalidArgument`).
    case conflict(String)
    /// A feature the service has that this SDK does not model.
    case unmodelled(String)
    /// Something the vendor does not have (tags on OBS, a date for aborting uploads outside OSS).
    case unsupported(String)

    package var description: String {
        switch self {
        case .malformed(let message), .invalid(let message), .conflict(let message), .unsupported(let message):
            message
        case .unmodelled(let message): "\(message), which this SDK does not model"
        }
    }
}

extension LifecycleConfiguration {
    /// The most rules a bucket keeps: 1,000 on each service.
    package static let maximumRules = 1000

    /// The largest document the services accept, in bytes.
    package static let maximumDocumentSize = 1 << 20

    /// The storage classes a transition may name, per vendor.
    package static func storageClasses(for vendor: StorageVendor) -> Set<String> {
        switch vendor.kind {
        case .s3: ["STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"]
        case .oss: ["IA", "Archive", "ColdArchive", "DeepColdArchive"]
        case .obs: ["WARM", "COLD", "DEEP_ARCHIVE"]
        }
    }

    /// The first reason `vendor` would refuse this configuration, or `nil`.
    package func violation(for vendor: StorageVendor) -> LifecycleViolation? {
        guard !self.rules.isEmpty else { return .malformed("the lifecycle configuration has no rule") }
        guard self.rules.count <= Self.maximumRules else {
            return .invalid(
                "the configuration has \(self.rules.count) lifecycle rules, but a bucket keeps at most 1000"
            )
        }
        var ids: Set<String> = []
        for (index, rule) in self.rules.enumerated() {
            let name = "lifecycle rule \(index + 1)" + (rule.id.map { " ('\($0)')" } ?? "")
            if let id = rule.id {
                guard id.count <= 255 else { return .invalid("\(name) has an ID longer than 255 characters") }
                guard ids.insert(id).inserted else {
                    return .invalid("rule IDs must be unique, and '\(id)' names more than one rule")
                }
            }
            if let violation = Self.violation(of: rule, named: name, for: vendor) { return violation }
        }
        if vendor.kind == .obs, let overlap = self.overlappingPrefixes() {
            return .conflict("the prefixes '\(overlap.0)' and '\(overlap.1)' overlap; OBS takes one rule per prefix")
        }
        return nil
    }

    private static func violation(
        of rule: LifecycleRule,
        named name: String,
        for vendor: StorageVendor
    ) -> LifecycleViolation? {
        if !rule.tags.isEmpty, vendor.kind == .obs {
            return .unsupported("\(name) filters by tags, which OBS lifecycle rules do not")
        }
        if rule.removesExpiredDeleteMarkers, vendor.kind == .obs {
            return .unsupported("\(name) removes expired delete markers, which OBS lifecycle rules do not")
        }
        if case .date = rule.abortIncompleteUploads, vendor.kind != .oss {
            return .unsupported("\(name) aborts uploads on a date; \(vendor.name) counts days only")
        }
        let hasAction =
            rule.expiration != nil || rule.removesExpiredDeleteMarkers || !rule.transitions.isEmpty
            || rule.noncurrentVersionExpirationDays != nil || !rule.noncurrentVersionTransitions.isEmpty
            || rule.abortIncompleteUploads != nil
        guard hasAction else { return .conflict("\(name) has no action; at least one is needed") }
        var days: [(String, Int)] = []
        if case .days(let count) = rule.expiration { days.append(("Expiration", count)) }
        if case .days(let count) = rule.abortIncompleteUploads { days.append(("the upload abort", count)) }
        if let count = rule.noncurrentVersionExpirationDays { days.append(("NoncurrentVersionExpiration", count)) }
        for transition in rule.transitions + rule.noncurrentVersionTransitions {
            if case .days(let count) = transition.time { days.append(("a transition", count)) }
        }
        if let (element, count) = days.first(where: { $0.1 < 1 }) {
            return .invalid("\(name) gives \(element) \(count) days; days must be a positive integer")
        }
        if !rule.tags.isEmpty, rule.abortIncompleteUploads != nil || rule.removesExpiredDeleteMarkers {
            return .conflict("\(name) filters by tags, which cannot be used to abort uploads or remove delete markers")
        }
        let classes = Self.storageClasses(for: vendor)
        for transition in rule.transitions + rule.noncurrentVersionTransitions {
            guard classes.contains(transition.storageClass) else {
                return .invalid(
                    "\(name) moves objects to '\(transition.storageClass)', which is not a \(vendor.name) storage class "
                        + "a rule can name (\(classes.sorted().joined(separator: ", ")))"
                )
            }
            if case .days(let count) = transition.time, count < 30,
                ["STANDARD_IA", "ONEZONE_IA", "WARM"].contains(transition.storageClass), vendor.kind != .oss
            {
                return .invalid(
                    "\(name) moves objects to \(transition.storageClass) after \(count) days; it takes at least 30"
                )
            }
        }
        if case .days(let expiry) = rule.expiration,
            let later = rule.transitions.first(where: {
                if case .days(let count) = $0.time { count >= expiry } else { false }
            })
        {
            return .invalid(
                "\(name) expires objects after \(expiry) days, but moves them to \(later.storageClass) no earlier; "
                    + "the expiration must come later than every transition"
            )
        }
        return nil
    }

    /// Two rules whose prefixes overlap (one starts with the other), if any.
    private func overlappingPrefixes() -> (String, String)? {
        let prefixes = self.rules.map(\.prefix)
        for (index, prefix) in prefixes.enumerated() {
            for other in prefixes[(index + 1)...] where prefix.hasPrefix(other) || other.hasPrefix(prefix) {
                return (prefix, other)
            }
        }
        return nil
    }
}

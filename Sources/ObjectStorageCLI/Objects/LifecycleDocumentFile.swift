//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning

/// aws-cli's JSON form of a lifecycle configuration (`{"Rules": [...]}`), which `lifecycle set` reads and
/// `lifecycle get --json` prints.
struct LifecycleDocumentFile: Codable {
    struct Tag: Codable {
        var key: String
        var value: String

        enum CodingKeys: String, CodingKey {
            case key = "Key"
            case value = "Value"
        }
    }

    struct Filter: Codable {
        struct And: Codable {
            var prefix: String?
            var tags: [Tag]?

            enum CodingKeys: String, CodingKey {
                case prefix = "Prefix"
                case tags = "Tags"
            }
        }

        var prefix: String?
        var tag: Tag?
        var and: And?

        enum CodingKeys: String, CodingKey {
            case prefix = "Prefix"
            case tag = "Tag"
            case and = "And"
        }
    }

    struct Time: Codable {
        var days: Int?
        var date: String?
        var expiredObjectDeleteMarker: Bool?
        var noncurrentDays: Int?
        var storageClass: String?
        var daysAfterInitiation: Int?

        enum CodingKeys: String, CodingKey {
            case days = "Days"
            case date = "Date"
            case expiredObjectDeleteMarker = "ExpiredObjectDeleteMarker"
            case noncurrentDays = "NoncurrentDays"
            case storageClass = "StorageClass"
            case daysAfterInitiation = "DaysAfterInitiation"
        }
    }

    struct Rule: Codable {
        var id: String?
        var filter: Filter?
        var prefix: String?
        var status: String
        var expiration: Time?
        var transitions: [Time]?
        var noncurrentVersionExpiration: Time?
        var noncurrentVersionTransitions: [Time]?
        var abortIncompleteMultipartUpload: Time?

        enum CodingKeys: String, CodingKey {
            case id = "ID"
            case filter = "Filter"
            case prefix = "Prefix"
            case status = "Status"
            case expiration = "Expiration"
            case transitions = "Transitions"
            case noncurrentVersionExpiration = "NoncurrentVersionExpiration"
            case noncurrentVersionTransitions = "NoncurrentVersionTransitions"
            case abortIncompleteMultipartUpload = "AbortIncompleteMultipartUpload"
        }
    }

    var rules: [Rule]

    enum CodingKeys: String, CodingKey {
        case rules = "Rules"
    }

    init(_ configuration: LifecycleConfiguration) {
        self.rules = configuration.rules.map { rule in
            let tags = rule.tags.sorted { $0.key < $1.key }.map { Tag(key: $0.key, value: $0.value) }
            let filter: Filter =
                switch (rule.prefix.isEmpty, tags.count) {
                case (_, 0): Filter(prefix: rule.prefix)
                case (true, 1): Filter(tag: tags[0])
                default: Filter(and: Filter.And(prefix: rule.prefix.isEmpty ? nil : rule.prefix, tags: tags))
                }
            var expiration = rule.expiration.map { Self.time($0) }
            if rule.removesExpiredDeleteMarkers { expiration = Time(expiredObjectDeleteMarker: true) }
            return Rule(
                id: rule.id,
                filter: filter,
                status: rule.isEnabled ? "Enabled" : "Disabled",
                expiration: expiration,
                transitions: rule.transitions.isEmpty
                    ? nil : rule.transitions.map { Self.time($0.time, storageClass: $0.storageClass) },
                noncurrentVersionExpiration: rule.noncurrentVersionExpirationDays.map { Time(noncurrentDays: $0) },
                noncurrentVersionTransitions: rule.noncurrentVersionTransitions.isEmpty
                    ? nil
                    : rule.noncurrentVersionTransitions.map {
                        guard case .days(let days) = $0.time else { return Time(storageClass: $0.storageClass) }
                        return Time(noncurrentDays: days, storageClass: $0.storageClass)
                    },
                abortIncompleteMultipartUpload: rule.abortIncompleteUploads.flatMap {
                    guard case .days(let days) = $0 else { return nil }
                    return Time(daysAfterInitiation: days)
                }
            )
        }
    }

    private static func time(_ time: LifecycleTime, storageClass: String? = nil) -> Time {
        switch time {
        case .days(let days): Time(days: days, storageClass: storageClass)
        case .date(let date): Time(date: date.iso8601, storageClass: storageClass)
        }
    }

    /// The typed configuration.
    ///
    /// - Throws: A sentence naming the rule and the value that is wrong.
    func configuration() throws(CLIError) -> LifecycleConfiguration {
        var rules: [LifecycleRule] = []
        for (index, entry) in self.rules.enumerated() {
            let name = "lifecycle rule \(index + 1)"
            guard entry.status == "Enabled" || entry.status == "Disabled" else {
                throw .invalidInput("lifecycle: \(name) has the Status '\(entry.status)', not Enabled or Disabled")
            }
            var rule = LifecycleRule(id: entry.id, isEnabled: entry.status == "Enabled")
            rule.prefix = entry.filter?.prefix ?? entry.filter?.and?.prefix ?? entry.prefix ?? ""
            for tag in (entry.filter?.tag.map { [$0] } ?? []) + (entry.filter?.and?.tags ?? []) {
                rule.tags[tag.key] = tag.value
            }
            if let expiration = entry.expiration {
                if expiration.expiredObjectDeleteMarker == true {
                    rule.removesExpiredDeleteMarkers = true
                } else {
                    rule.expiration = try Self.time(expiration, name: "\(name)'s Expiration")
                }
            }
            for transition in entry.transitions ?? [] {
                rule.transitions.append(
                    LifecycleTransition(
                        after: try Self.time(transition, name: "\(name)'s Transition"),
                        storageClass: try Self.storageClass(transition, name: name)
                    )
                )
            }
            rule.noncurrentVersionExpirationDays = entry.noncurrentVersionExpiration?.noncurrentDays
            for transition in entry.noncurrentVersionTransitions ?? [] {
                guard let days = transition.noncurrentDays else {
                    throw .invalidInput("lifecycle: \(name) has a NoncurrentVersionTransition without NoncurrentDays")
                }
                rule.noncurrentVersionTransitions.append(
                    LifecycleTransition(after: .days(days), storageClass: try Self.storageClass(transition, name: name))
                )
            }
            if let abort = entry.abortIncompleteMultipartUpload {
                guard let days = abort.daysAfterInitiation else {
                    throw .invalidInput(
                        "lifecycle: \(name)'s AbortIncompleteMultipartUpload has no DaysAfterInitiation"
                    )
                }
                rule.abortIncompleteUploads = .days(days)
            }
            rules.append(rule)
        }
        return LifecycleConfiguration(rules: rules)
    }

    private static func time(_ time: Time, name: String) throws(CLIError) -> LifecycleTime {
        switch (time.days, time.date) {
        case (.some(let days), .none): return .days(days)
        case (.none, .some(let text)):
            guard let date = LifecycleDate(text) else {
                throw .invalidInput("lifecycle: \(name) has the Date '\(text)', which is not a midnight UTC date")
            }
            return .date(date)
        default: throw .invalidInput("lifecycle: \(name) needs Days or a Date, one of them")
        }
    }

    private static func storageClass(_ time: Time, name: String) throws(CLIError) -> String {
        guard let storageClass = time.storageClass else {
            throw .invalidInput("lifecycle: \(name) has a transition without a StorageClass")
        }
        return storageClass
    }

    /// Reads the configuration in `bytes`: aws-cli's JSON when it starts with `{`, the services' XML otherwise.
    ///
    /// - Parameter name: The file's name, as messages show it.
    /// - Throws: ``CLIError/invalidInput(_:)`` naming the file and, where the parser knows it, the line.
    static func read(_ bytes: [UInt8], name: String) throws(CLIError) -> LifecycleConfiguration {
        let file = ConfigurationFile(bytes: bytes, name: name, command: "lifecycle", kind: "lifecycle configuration")
        if file.isJSON { return try file.decodeJSON(LifecycleDocumentFile.self).configuration() }
        let root = try file.xmlRoot()
        do {
            return try LifecycleConfiguration(document: root)
        } catch {
            throw .invalidInput("lifecycle: \(name) is not a lifecycle configuration: \(error)")
        }
    }
}

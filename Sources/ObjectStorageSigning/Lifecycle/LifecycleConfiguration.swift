//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A bucket's lifecycle configuration: rules that expire objects, move them to colder storage classes, remove
/// old versions and abort abandoned multipart uploads, which the service applies about once a day.
///
/// ```swift
/// let logs = LifecycleRule(
///     id: "logs",
///     prefix: "logs/",
///     expiration: .days(90),
///     transitions: [LifecycleTransition(after: .days(30), storageClass: "STANDARD_IA")]
/// )
/// let uploads = LifecycleRule(id: "abandoned-uploads", abortIncompleteUploads: .days(7))
/// let configuration = LifecycleConfiguration(rules: [logs, uploads])
/// ```
public struct LifecycleConfiguration: Sendable, Hashable {
    /// The rules. A service applies every rule whose filter an object matches.
    public var rules: [LifecycleRule]

    /// Creates a configuration.
    ///
    /// - Parameter rules: The rules.
    public init(rules: [LifecycleRule]) {
        self.rules = rules
    }
}

/// One lifecycle rule: which objects (a key prefix, and on S3 and OSS tags), and what happens to them when.
///
/// Days count from an object's creation (its last modification), from the moment a version became noncurrent, or
/// from an upload's initiation; the services act at the first midnight UTC after that many days.
public struct LifecycleRule: Sendable, Hashable {
    /// The rule's name (at most 255 characters; the service names a rule without one).
    public var id: String?
    /// Whether the service applies the rule.
    public var isEnabled: Bool
    /// The key prefix the rule applies to; empty for the whole bucket.
    public var prefix: String
    /// Tags an object must all carry for the rule to apply (S3 and OSS; OBS filters by prefix only).
    public var tags: [String: String]
    /// When the current version expires: deleted, or hidden behind a delete marker in a versioned bucket. A
    /// date means different things per vendor: on S3 and OBS every matching object expires once the date has
    /// passed; on OSS (`CreatedBeforeDate`) the objects last modified before it do.
    public var expiration: LifecycleTime?
    /// Whether a delete marker with no version left behind it is removed (S3 and OSS).
    public var removesExpiredDeleteMarkers: Bool
    /// When the current version moves to another storage class.
    public var transitions: [LifecycleTransition]
    /// Days after which a noncurrent version is removed for good.
    public var noncurrentVersionExpirationDays: Int?
    /// When noncurrent versions move to another storage class (their time in days only).
    public var noncurrentVersionTransitions: [LifecycleTransition]
    /// When an incomplete multipart upload is aborted and its parts removed (a date only on OSS).
    public var abortIncompleteUploads: LifecycleTime?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - id: The rule's name.
    ///   - isEnabled: Whether the service applies it.
    ///   - prefix: The key prefix it applies to; empty for the whole bucket.
    ///   - tags: Tags an object must carry (S3 and OSS).
    ///   - expiration: When the current version expires.
    ///   - removesExpiredDeleteMarkers: Whether lone delete markers are removed (S3 and OSS).
    ///   - transitions: When the current version changes storage class.
    ///   - noncurrentVersionExpirationDays: Days after which noncurrent versions are removed.
    ///   - noncurrentVersionTransitions: When noncurrent versions change storage class.
    ///   - abortIncompleteUploads: When incomplete multipart uploads are aborted.
    public init(
        id: String? = nil,
        isEnabled: Bool = true,
        prefix: String = "",
        tags: [String: String] = [:],
        expiration: LifecycleTime? = nil,
        removesExpiredDeleteMarkers: Bool = false,
        transitions: [LifecycleTransition] = [],
        noncurrentVersionExpirationDays: Int? = nil,
        noncurrentVersionTransitions: [LifecycleTransition] = [],
        abortIncompleteUploads: LifecycleTime? = nil
    ) {
        self.id = id
        self.isEnabled = isEnabled
        self.prefix = prefix
        self.tags = tags
        self.expiration = expiration
        self.removesExpiredDeleteMarkers = removesExpiredDeleteMarkers
        self.transitions = transitions
        self.noncurrentVersionExpirationDays = noncurrentVersionExpirationDays
        self.noncurrentVersionTransitions = noncurrentVersionTransitions
        self.abortIncompleteUploads = abortIncompleteUploads
    }
}

/// When a lifecycle action happens: a number of days after the event it counts from, or a date.
public enum LifecycleTime: Sendable, Hashable {
    /// This many days after the object's creation, the version becoming noncurrent or the upload's initiation.
    case days(Int)
    /// On this date (midnight UTC).
    case date(LifecycleDate)
}

/// A move to another storage class.
public struct LifecycleTransition: Sendable, Hashable {
    /// When the move happens.
    public var time: LifecycleTime
    /// The vendor's name of the class: S3 `STANDARD_IA`, `ONEZONE_IA`, `INTELLIGENT_TIERING`, `GLACIER_IR`,
    /// `GLACIER`, `DEEP_ARCHIVE`; OSS `IA`, `Archive`, `ColdArchive`, `DeepColdArchive`; OBS `WARM`, `COLD`,
    /// `DEEP_ARCHIVE`.
    public var storageClass: String

    /// Creates a transition.
    ///
    /// - Parameters:
    ///   - time: When the move happens.
    ///   - storageClass: The vendor's name of the class to move to.
    public init(after time: LifecycleTime, storageClass: String) {
        self.time = time
        self.storageClass = storageClass
    }
}

/// A calendar date in UTC, as lifecycle rules take it (the services accept midnight only).
public struct LifecycleDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Midnight UTC of the date.
    package let midnight: SigningTimestamp

    /// Reads `2026-12-31`, or the services' `2026-12-31T00:00:00.000Z` and `2026-12-31T00:00:00Z`; `nil` for
    /// anything else, a time other than midnight included.
    ///
    /// - Parameter text: The date.
    public init?(_ text: String) {
        let time = text.utf8.dropFirst(10)
        guard time.isEmpty || time.elementsEqual("T00:00:00Z".utf8) || time.elementsEqual("T00:00:00.000Z".utf8)
        else { return nil }
        let fields = text.utf8.prefix(10).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
            fields.allSatisfy({ $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let year = Int64(String(decoding: fields[0], as: UTF8.self)),
            let month = Int64(String(decoding: fields[1], as: UTF8.self)),
            let day = Int64(String(decoding: fields[2], as: UTF8.self)),
            let midnight = SigningTimestamp(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        else { return nil }
        self.midnight = midnight
    }

    /// `2026-12-31`.
    public var description: String { String(self.iso8601.prefix(10)) }

    /// The date as the services write it: `2026-12-31T00:00:00.000Z`.
    package var iso8601: String { self.midnight.iso8601() }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A date.
    ///   - rhs: Another date.
    /// - Returns: Whether `lhs` is the earlier.
    public static func < (lhs: LifecycleDate, rhs: LifecycleDate) -> Bool { lhs.midnight < rhs.midnight }
}

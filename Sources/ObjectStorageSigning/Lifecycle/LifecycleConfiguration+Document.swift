//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension LifecycleConfiguration {
    /// The document as `vendor` takes it: S3 puts prefix and tags in `<Filter>` and names its abort element
    /// `AbortIncompleteMultipartUpload`; OSS keeps `<Prefix>` and `<Tag>` in the rule, writes a date as
    /// `CreatedBeforeDate` and aborts in `AbortMultipartUpload`; OBS keeps `<Prefix>` and writes `<Date>`.
    package func document(for vendor: StorageVendor) -> [UInt8] {
        var xml = XMLWriter()
        xml.open(
            "LifecycleConfiguration",
            namespace: vendor.kind == .s3 ? "http://s3.amazonaws.com/doc/2006-03-01/" : nil
        )
        for rule in self.rules {
            xml.element("Rule") { xml in Self.write(rule, for: vendor, into: &xml) }
        }
        xml.close("LifecycleConfiguration")
        return xml.bytes
    }

    private static func write(_ rule: LifecycleRule, for vendor: StorageVendor, into xml: inout XMLWriter) {
        let tags = rule.tags.sorted { $0.key < $1.key }
        xml.element("ID", rule.id)
        if vendor.kind == .s3 {
            xml.element("Filter") { xml in
                switch (rule.prefix.isEmpty, tags.count) {
                case (_, 0): xml.element("Prefix", rule.prefix)
                case (true, 1): Self.write(tag: tags[0], into: &xml)
                default:
                    xml.element("And") { xml in
                        if !rule.prefix.isEmpty { xml.element("Prefix", rule.prefix) }
                        for tag in tags { Self.write(tag: tag, into: &xml) }
                    }
                }
            }
        } else {
            xml.element("Prefix", rule.prefix)
        }
        xml.element("Status", rule.isEnabled ? "Enabled" : "Disabled")
        if vendor.kind == .oss { for tag in tags { Self.write(tag: tag, into: &xml) } }
        for transition in rule.transitions {
            xml.element("Transition") { xml in
                Self.write(transition.time, for: vendor, into: &xml)
                xml.element("StorageClass", transition.storageClass)
            }
        }
        if rule.expiration != nil || rule.removesExpiredDeleteMarkers {
            xml.element("Expiration") { xml in
                if let expiration = rule.expiration { Self.write(expiration, for: vendor, into: &xml) }
                if rule.removesExpiredDeleteMarkers { xml.element("ExpiredObjectDeleteMarker", "true") }
            }
        }
        for transition in rule.noncurrentVersionTransitions {
            xml.element("NoncurrentVersionTransition") { xml in
                if case .days(let days) = transition.time { xml.element("NoncurrentDays", String(days)) }
                xml.element("StorageClass", transition.storageClass)
            }
        }
        if let days = rule.noncurrentVersionExpirationDays {
            xml.element("NoncurrentVersionExpiration") { xml in xml.element("NoncurrentDays", String(days)) }
        }
        if let abort = rule.abortIncompleteUploads {
            if vendor.kind == .oss {
                xml.element("AbortMultipartUpload") { xml in Self.write(abort, for: vendor, into: &xml) }
            } else if case .days(let days) = abort {
                xml.element("AbortIncompleteMultipartUpload") { xml in
                    xml.element("DaysAfterInitiation", String(days))
                }
            }
        }
    }

    private static func write(tag: (key: String, value: String), into xml: inout XMLWriter) {
        xml.element("Tag") { xml in
            xml.element("Key", tag.key)
            xml.element("Value", tag.value)
        }
    }

    private static func write(_ time: LifecycleTime, for vendor: StorageVendor, into xml: inout XMLWriter) {
        switch time {
        case .days(let days): xml.element("Days", String(days))
        case .date(let date): xml.element(vendor.kind == .oss ? "CreatedBeforeDate" : "Date", date.iso8601)
        }
    }

    /// Reads a parsed document in any vendor's form.
    ///
    /// - Throws: ``LifecycleViolation/malformed(_:)`` for another root, an element the services do not know, a
    ///   value that is not what its element holds, or both days and a date in one element;
    ///   ``LifecycleViolation/invalid(_:)`` for a date that is not midnight UTC; ``LifecycleViolation/unmodelled(_:)``
    ///   for a feature a service has that this type does not hold (S3's size filters, OSS's access-time rules),
    ///   rather than drop it.
    package init(document root: XMLNode) throws(LifecycleViolation) {
        guard root.name == "LifecycleConfiguration" else {
            throw .malformed("the document's root is <\(root.name)>, not <LifecycleConfiguration>")
        }
        var rules: [LifecycleRule] = []
        for node in root.children {
            guard node.name == "Rule" else {
                throw .malformed("<LifecycleConfiguration> has an element <\(node.name)> the services do not know")
            }
            rules.append(try Self.rule(node, number: rules.count + 1))
        }
        self.init(rules: rules)
    }

    /// Elements of features the services have and ``LifecycleRule`` does not hold: S3's size filters and kept
    /// versions, OSS's access-time rules and exclusions.
    private static let unmodelled: Set<String> = [
        "ObjectSizeGreaterThan", "ObjectSizeLessThan", "NewerNoncurrentVersions", "IsAccessTime",
        "ReturnToStdWhenVisit", "AllowSmallFile", "Not",
    ]

    private static func rule(_ node: XMLNode, number: Int) throws(LifecycleViolation) -> LifecycleRule {
        let name = "lifecycle rule \(number)"
        var rule = LifecycleRule()
        var hasStatus = false
        for child in node.children {
            switch child.name {
            case "ID": rule.id = child.text
            case "Prefix": rule.prefix = child.text
            case "Filter": try Self.filter(child, into: &rule, name: name)
            case "Status":
                guard child.text == "Enabled" || child.text == "Disabled" else {
                    throw .malformed("\(name) has the Status '\(child.text)', not Enabled or Disabled")
                }
                rule.isEnabled = child.text == "Enabled"
                hasStatus = true
            case "Tag":
                let (key, value) = try Self.tag(child, name: name)
                rule.tags[key] = value
            case "Expiration":
                for part in child.children where Self.unmodelled.contains(part.name) {
                    throw .unmodelled("\(name)'s Expiration has <\(part.name)>")
                }
                if let marker = child["ExpiredObjectDeleteMarker"] {
                    guard marker == "true" || marker == "false" else {
                        throw .malformed("\(name) has ExpiredObjectDeleteMarker '\(marker)', not true or false")
                    }
                    rule.removesExpiredDeleteMarkers = marker == "true"
                    if child.children.count > 1 {
                        throw .malformed("\(name)'s Expiration has ExpiredObjectDeleteMarker with days or a date")
                    }
                } else {
                    rule.expiration = try Self.time(child, daysElement: "Days", name: "\(name)'s Expiration")
                }
            case "Transition":
                rule.transitions.append(
                    LifecycleTransition(
                        after: try Self.time(child, daysElement: "Days", name: "\(name)'s Transition"),
                        storageClass: try Self.storageClass(child, name: name)
                    )
                )
            case "NoncurrentVersionTransition":
                rule.noncurrentVersionTransitions.append(
                    LifecycleTransition(
                        after: .days(try Self.days(child, "NoncurrentDays", name: name)),
                        storageClass: try Self.storageClass(child, name: name)
                    )
                )
            case "NoncurrentVersionExpiration":
                if let part = child.children.first(where: { Self.unmodelled.contains($0.name) }) {
                    throw .unmodelled("\(name)'s NoncurrentVersionExpiration has <\(part.name)>")
                }
                rule.noncurrentVersionExpirationDays = try Self.days(child, "NoncurrentDays", name: name)
            case "AbortIncompleteMultipartUpload":
                rule.abortIncompleteUploads = .days(try Self.days(child, "DaysAfterInitiation", name: name))
            case "AbortMultipartUpload":
                rule.abortIncompleteUploads = try Self.time(
                    child,
                    daysElement: "Days",
                    name: "\(name)'s AbortMultipartUpload"
                )
            default:
                if Self.unmodelled.contains(child.name) { throw .unmodelled("\(name) has <\(child.name)>") }
                throw .malformed("\(name) has an element <\(child.name)> the services do not know")
            }
        }
        guard hasStatus else { throw .malformed("\(name) has no Status") }
        return rule
    }

    private static func filter(_ node: XMLNode, into rule: inout LifecycleRule, name: String) throws(LifecycleViolation)
    {
        let parts =
            node.children.count == 1 && node.children[0].name == "And" ? node.children[0].children : node.children
        if node.children.count > 1 { throw .malformed("\(name)'s Filter has more than one condition outside <And>") }
        for part in parts {
            switch part.name {
            case "Prefix": rule.prefix = part.text
            case "Tag":
                let (key, value) = try Self.tag(part, name: name)
                rule.tags[key] = value
            default:
                if Self.unmodelled.contains(part.name) { throw .unmodelled("\(name)'s Filter has <\(part.name)>") }
                throw .malformed("\(name)'s Filter has an element <\(part.name)> the services do not know")
            }
        }
    }

    private static func tag(_ node: XMLNode, name: String) throws(LifecycleViolation) -> (String, String) {
        guard let key = node["Key"], let value = node["Value"] else {
            throw .malformed("\(name) has a Tag without a Key or a Value")
        }
        return (key, value)
    }

    private static func storageClass(_ node: XMLNode, name: String) throws(LifecycleViolation) -> String {
        guard let storageClass = node["StorageClass"], !storageClass.isEmpty else {
            throw .malformed("\(name) has a transition without a StorageClass")
        }
        return storageClass
    }

    private static func days(_ node: XMLNode, _ element: String, name: String) throws(LifecycleViolation) -> Int {
        guard let text = node[element] else { throw .malformed("\(name)'s <\(node.name)> has no \(element)") }
        guard let days = Int(text) else {
            throw .malformed("\(name)'s \(element) is '\(text)', which is not a whole number")
        }
        return days
    }

    /// `Days`, or a date (`Date`, OSS's `CreatedBeforeDate`), not both.
    private static func time(
        _ node: XMLNode,
        daysElement: String,
        name: String
    ) throws(LifecycleViolation) -> LifecycleTime {
        let dateText = node["Date"] ?? node["CreatedBeforeDate"]
        switch (node[daysElement], dateText) {
        case (.some, .some): throw .malformed("\(name) has both Days and a date; it takes one")
        case (.none, .none): throw .malformed("\(name) has neither Days nor a date")
        case (.some, .none): return .days(try Self.days(node, daysElement, name: name))
        case (.none, .some(let text)):
            guard let date = LifecycleDate(text) else {
                throw .invalid(
                    "\(name) has the date '\(text)'; a date must be midnight UTC, as 2026-12-31T00:00:00.000Z"
                )
            }
            return .date(date)
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The `CORSConfiguration` document of `PUT`/`GET ?cors`, the same root, rule and element names for the three
/// vendors (S3 qualifies it with its namespace; OSS adds `ResponseVary` after the rules).
extension CORSConfiguration {
    /// The rule elements, in the order the services write them.
    private static let ruleElements: Set<String> = [
        "ID", "AllowedOrigin", "AllowedMethod", "AllowedHeader", "ExposeHeader", "MaxAgeSeconds",
    ]

    /// The document as `vendor` takes it.
    package func document(for vendor: StorageVendor) -> [UInt8] {
        var xml = XMLWriter()
        xml.open("CORSConfiguration", namespace: vendor.kind == .s3 ? "http://s3.amazonaws.com/doc/2006-03-01/" : nil)
        for rule in self.rules {
            xml.element("CORSRule") { xml in
                xml.element("ID", rule.id)
                for origin in rule.allowedOrigins { xml.element("AllowedOrigin", origin) }
                for method in rule.allowedMethods { xml.element("AllowedMethod", method) }
                for header in rule.allowedHeaders { xml.element("AllowedHeader", header) }
                for header in rule.exposeHeaders { xml.element("ExposeHeader", header) }
                xml.element("MaxAgeSeconds", rule.maxAgeSeconds.map { String($0) })
            }
        }
        xml.element("ResponseVary", self.responseVary.map { $0 ? "true" : "false" })
        xml.close("CORSConfiguration")
        return xml.bytes
    }

    /// Reads a parsed document.
    ///
    /// - Throws: ``CORSViolation/malformed(_:)`` for another root, an element no vendor documents, or a value
    ///   that is not what its element holds (a `MaxAgeSeconds` that is not an integer, a `ResponseVary` that is
    ///   not `true` or `false`).
    package init(document root: XMLNode) throws(CORSViolation) {
        guard root.name == "CORSConfiguration" else {
            throw .malformed("the document's root is <\(root.name)>, not <CORSConfiguration>")
        }
        var rules: [CORSRule] = []
        var responseVary: Bool?
        for node in root.children {
            switch node.name {
            case "CORSRule":
                rules.append(try Self.rule(node, number: rules.count + 1))
            case "ResponseVary":
                switch node.text {
                case "true": responseVary = true
                case "false": responseVary = false
                default: throw .malformed("ResponseVary is '\(node.text)', not true or false")
                }
            default:
                throw .malformed("<CORSConfiguration> has an element <\(node.name)> the services do not know")
            }
        }
        self.init(rules: rules, responseVary: responseVary)
    }

    private static func rule(_ node: XMLNode, number: Int) throws(CORSViolation) -> CORSRule {
        if let unknown = node.children.first(where: { !Self.ruleElements.contains($0.name) }) {
            throw .malformed("CORS rule \(number) has an element <\(unknown.name)> the services do not know")
        }
        var maxAge: Int?
        if let text = node["MaxAgeSeconds"] {
            guard let seconds = Int(text) else {
                throw .malformed("CORS rule \(number) has MaxAgeSeconds '\(text)', which is not a whole number")
            }
            maxAge = seconds
        }
        guard node.children("MaxAgeSeconds").count <= 1, node.children("ID").count <= 1 else {
            throw .malformed("CORS rule \(number) has more than one MaxAgeSeconds or ID")
        }
        return CORSRule(
            id: node["ID"],
            allowedOrigins: node.children("AllowedOrigin").map(\.text),
            allowedMethods: node.children("AllowedMethod").map(\.text),
            allowedHeaders: node.children("AllowedHeader").map(\.text),
            exposeHeaders: node.children("ExposeHeader").map(\.text),
            maxAgeSeconds: maxAge
        )
    }
}

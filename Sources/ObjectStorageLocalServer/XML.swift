//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Builds the small XML documents the server sends.
struct XMLWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    mutating func open(_ name: String, namespace: String? = nil) {
        if let namespace {
            text += "<\(name) xmlns=\"\(namespace)\">"
        } else {
            text += "<\(name)>"
        }
    }

    mutating func close(_ name: String) { text += "</\(name)>" }

    mutating func append(raw: String) { text += raw }

    mutating func element(_ name: String, _ value: String) {
        text += "<\(name)>\(XMLWriter.escape(value))</\(name)>"
    }

    mutating func element(_ name: String, _ value: String?) {
        if let value { element(name, value) }
    }

    mutating func element(_ name: String, _ body: (inout XMLWriter) -> Void) {
        open(name)
        body(&self)
        close(name)
    }

    static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

/// A parsed XML element: enough of XML 1.0 for the request documents of the object-storage APIs
/// (elements, text, entity and character references, CDATA; attributes and namespaces are ignored).
struct XMLElement: Sendable {
    var name: String
    var children: [XMLElement] = []
    var text = ""

    func child(_ name: String) -> XMLElement? { children.first { $0.name == name } }

    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The deepest nesting a request document may have (the root element is at depth 1), as in the SDK's
    /// parser. Parsing never recurses; the bound keeps the tree shallow, so that freeing it (which recurses
    /// through `children`) cannot exhaust the stack either.
    static let maximumDepth = 64

    /// The largest request document accepted, in bytes.
    static let maximumDocumentSize = 4 << 20

    /// Parses a document; `nil` if it is not well formed, nests deeper than ``maximumDepth`` or is larger
    /// than ``maximumDocumentSize`` (callers answer `MalformedXML`).
    static func parse(_ bytes: [UInt8]) -> XMLElement? {
        guard bytes.count <= maximumDocumentSize else { return nil }
        var parser = XMLMiniParser(bytes: bytes)
        return parser.parseDocument()
    }
}

private struct XMLMiniParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() -> XMLElement? {
        var root: XMLElement?
        var stack: [XMLElement] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                if hasPrefix("<?") {
                    guard skip(past: "?>") else { return nil }
                } else if hasPrefix("<!--") {
                    guard skip(past: "-->") else { return nil }
                } else if hasPrefix("<![CDATA[") {
                    index += 9
                    let start = index
                    guard skip(past: "]]>"), !stack.isEmpty else { return nil }
                    stack[stack.count - 1].text += String(decoding: bytes[start..<index - 3], as: UTF8.self)
                } else if hasPrefix("<!") {
                    guard skip(past: ">") else { return nil }
                } else if hasPrefix("</") {
                    index += 2
                    guard let name = readName(), skip(past: ">"), let element = stack.popLast(), element.name == name
                    else { return nil }
                    if stack.isEmpty {
                        guard root == nil else { return nil }
                        root = element
                    } else {
                        stack[stack.count - 1].children.append(element)
                    }
                } else {
                    index += 1
                    guard let name = readName() else { return nil }
                    let tagStart = index
                    guard skip(past: ">"), stack.count < XMLElement.maximumDepth else { return nil }
                    let selfClosing = index - 2 >= tagStart && bytes[index - 2] == UInt8(ascii: "/")
                    let element = XMLElement(name: name)
                    if selfClosing {
                        if stack.isEmpty {
                            guard root == nil else { return nil }
                            root = element
                        } else {
                            stack[stack.count - 1].children.append(element)
                        }
                    } else {
                        stack.append(element)
                    }
                }
            } else {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
                let raw = String(decoding: bytes[start..<index], as: UTF8.self)
                if stack.isEmpty {
                    guard raw.allSatisfy(\.isWhitespace) else { return nil }
                } else {
                    guard let decoded = decodeEntities(raw) else { return nil }
                    stack[stack.count - 1].text += decoded
                }
            }
        }
        return stack.isEmpty ? root : nil
    }

    func hasPrefix(_ prefix: String) -> Bool {
        let p = Array(prefix.utf8)
        return index + p.count <= bytes.count && Array(bytes[index..<index + p.count]) == p
    }

    mutating func skip(past terminator: String) -> Bool {
        let t = Array(terminator.utf8)
        while index + t.count <= bytes.count {
            if bytes[index] == t[0] && Array(bytes[index..<index + t.count]) == t {
                index += t.count
                return true
            }
            index += 1
        }
        return false
    }

    mutating func readName() -> String? {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: " ") || b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "\t")
                || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
            {
                break
            }
            index += 1
        }
        guard index > start else { return nil }
        let qualified = String(decoding: bytes[start..<index], as: UTF8.self)
        if let colon = qualified.lastIndex(of: ":") {
            return String(qualified[qualified.index(after: colon)...])
        }
        return qualified
    }

    func decodeEntities(_ raw: String) -> String? {
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { return nil }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                guard entity.hasPrefix("#") else { return nil }
                let number = entity.dropFirst()
                let value =
                    number.hasPrefix("x") || number.hasPrefix("X")
                    ? UInt32(number.dropFirst(), radix: 16) : UInt32(number, radix: 10)
                guard let value, let scalar = Unicode.Scalar(value) else { return nil }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semi)...]
        }
        result += rest
        return result
    }
}

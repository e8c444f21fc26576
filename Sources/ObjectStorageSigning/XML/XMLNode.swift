//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A parsed XML element: the small subset of XML 1.0 the object-storage APIs use, in answers (read by the client)
/// and in request documents (read by the local server): elements, text, character and entity references, CDATA;
/// attributes and namespaces are read and ignored.
///
/// What `ServiceResponse.xml(upTo:)` of ObjectStorage returns for an answer the client does not decode itself.
///
/// A hand-written parser rather than `XMLParser`: on Linux that lives in FoundationXML, which
/// pulls in full Foundation and needs libxml2 at run time, for documents this simple.
public struct XMLNode: Sendable {
    /// The local name (any `prefix:` removed).
    public var name: String
    /// The concatenated text directly inside this element.
    public var text: String
    /// The child elements, in document order.
    public var children: [XMLNode]

    /// The deepest nesting a document may have (the root element is at depth 1). The bound keeps parsing and
    /// freeing the tree (both recurse) far from the end of the stack, whatever the input.
    package static let maximumDepth = 64

    package init(name: String, text: String = "", children: [XMLNode] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child named `name`.
    ///
    /// - Parameter name: The local name.
    /// - Returns: The child, or `nil` when there is none.
    public func child(_ name: String) -> XMLNode? {
        self.children.first { $0.name == name }
    }

    /// Every child named `name`.
    ///
    /// - Parameter name: The local name.
    /// - Returns: The children, in document order.
    public func children(_ name: String) -> [XMLNode] {
        self.children.filter { $0.name == name }
    }

    /// The text of the first child named `name`.
    ///
    /// - Parameter name: The local name.
    /// - Returns: The child's text, or `nil` when there is no such child.
    public subscript(_ name: String) -> String? {
        self.child(name)?.text
    }

    /// Parses a document and returns its root element.
    ///
    /// - Throws: ``XMLSyntaxError`` for a document that is not well formed, holds anything but whitespace,
    ///   comments and processing instructions after its root element, or nests deeper than ``maximumDepth``.
    package static func parse<Bytes: Collection>(_ bytes: Bytes) throws(XMLSyntaxError) -> XMLNode
    where Bytes.Element == UInt8 {
        var parser = XMLTreeParser(bytes: Array(bytes))
        do {
            return try parser.parseDocument()
        } catch {
            var located = error
            located.line =
                1
                + parser.bytes.prefix(min(parser.index, parser.bytes.count)).reduce(0) {
                    $1 == UInt8(ascii: "\n") ? $0 + 1 : $0
                }
            throw located
        }
    }
}

/// A recursive-descent parser over UTF-8 bytes.
private struct XMLTreeParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(XMLSyntaxError) -> XMLNode {
        if self.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { self.index = 3 }
        try self.skipMisc()
        guard self.peek() == UInt8(ascii: "<") else { throw Self.error("no root element") }
        let root = try self.parseElement()
        try self.skipMisc()
        guard self.index == self.bytes.count else { throw Self.error("content after the root element") }
        return root
    }

    /// Skips whitespace, the declaration, comments, processing instructions and a document type declaration.
    private mutating func skipMisc() throws(XMLSyntaxError) {
        while true {
            self.skipWhitespace()
            if self.hasPrefix("<?") {
                try self.skip(past: "?>")
            } else if self.hasPrefix("<!--") {
                try self.skip(past: "-->")
            } else if self.hasPrefix("<!") {
                try self.skip(past: ">")
            } else {
                return
            }
        }
    }

    private mutating func parseElement() throws(XMLSyntaxError) -> XMLNode {
        self.depth += 1
        defer { self.depth -= 1 }
        guard self.depth <= XMLNode.maximumDepth else { throw Self.error("elements nested too deeply") }
        self.index += 1  // <
        let qualifiedName = self.readName()
        guard !qualifiedName.isEmpty else { throw Self.error("an element without a name") }
        var node = XMLNode(name: self.localName(qualifiedName), text: "", children: [])
        // Attributes: read and ignored.
        while true {
            self.skipWhitespace()
            guard let byte = self.peek() else { throw Self.error("unterminated start tag") }
            if byte == UInt8(ascii: "/") {
                guard self.hasPrefix("/>") else { throw Self.error("malformed start tag") }
                self.index += 2
                return node
            }
            if byte == UInt8(ascii: ">") {
                self.index += 1
                break
            }
            _ = self.readName()
            self.skipWhitespace()
            guard self.peek() == UInt8(ascii: "=") else { throw Self.error("malformed attribute") }
            self.index += 1
            self.skipWhitespace()
            guard let quote = self.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw Self.error("unquoted attribute value")
            }
            self.index += 1
            while let next = self.peek(), next != quote { self.index += 1 }
            guard self.peek() == quote else { throw Self.error("unterminated attribute value") }
            self.index += 1
        }
        var text: [UInt8] = []
        while true {
            guard let byte = self.peek() else {
                throw Self.error("unterminated element <\(self.string(qualifiedName))>")
            }
            if byte == UInt8(ascii: "<") {
                if self.hasPrefix("</") {
                    self.index += 2
                    let closing = self.readName()
                    guard self.bytes[closing].elementsEqual(self.bytes[qualifiedName]) else {
                        throw Self.error("</\(self.string(closing))> closes <\(self.string(qualifiedName))>")
                    }
                    self.skipWhitespace()
                    guard self.peek() == UInt8(ascii: ">") else { throw Self.error("malformed end tag") }
                    self.index += 1
                    node.text = String(decoding: text, as: UTF8.self)
                    return node
                } else if self.hasPrefix("<![CDATA[") {
                    self.index += 9
                    let start = self.index
                    try self.skip(past: "]]>")
                    text.append(contentsOf: self.bytes[start..<(self.index - 3)])
                } else if self.hasPrefix("<!--") {
                    try self.skip(past: "-->")
                } else if self.hasPrefix("<?") {
                    try self.skip(past: "?>")
                } else {
                    node.children.append(try self.parseElement())
                }
            } else if byte == UInt8(ascii: "&") {
                try self.readReference(into: &text)
            } else {
                // A run of character data, up to the next markup or reference, appended at once.
                let start = self.index
                while let next = self.peek(), next != UInt8(ascii: "<"), next != UInt8(ascii: "&") { self.index += 1 }
                text.append(contentsOf: self.bytes[start..<self.index])
            }
        }
    }

    private mutating func readReference(into text: inout [UInt8]) throws(XMLSyntaxError) {
        let start = self.index + 1
        guard let end = self.bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw Self.error("unterminated entity reference")
        }
        let name = String(decoding: self.bytes[start..<end], as: UTF8.self)
        self.index = end + 1
        switch name {
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "amp": text.append(UInt8(ascii: "&"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            guard name.hasPrefix("#") else { throw Self.error("unknown entity &\(name);") }
            let digits = name.dropFirst()
            let value: UInt32? =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value) else {
                throw Self.error("invalid character reference &\(name);")
            }
            text.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }

    /// Reads a name and returns where its bytes are (empty when none is there).
    private mutating func readName() -> Range<Int> {
        let start = self.index
        while let byte = self.peek(),
            !(byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
                || byte == UInt8(ascii: "="))
        {
            self.index += 1
        }
        return start..<self.index
    }

    /// The name at `range` without its namespace prefix (what follows the last `:`).
    private func localName(_ range: Range<Int>) -> String {
        let name = self.bytes[range]
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return String(decoding: local, as: UTF8.self)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: self.bytes[range], as: UTF8.self)
    }

    private func peek() -> UInt8? {
        self.index < self.bytes.count ? self.bytes[self.index] : nil
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard self.index + count <= self.bytes.count else { return false }
        return prefix.withUTF8Buffer { prefixBytes in
            prefixBytes.elementsEqual(self.bytes[self.index..<(self.index + count)])
        }
    }

    private mutating func skipWhitespace() {
        while let byte = self.peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        {
            self.index += 1
        }
    }

    private mutating func skip(past terminator: StaticString) throws(XMLSyntaxError) {
        while self.index < self.bytes.count {
            if self.hasPrefix(terminator) {
                self.index += terminator.utf8CodeUnitCount
                return
            }
            self.index += 1
        }
        throw Self.error("unterminated construct")
    }

    private static func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(message: message)
    }
}

/// Why a document is not the XML ``XMLNode`` reads.
package struct XMLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `</b> closes <a>`.
    package var message: String
    /// The line (from 1) where the parser stopped.
    package var line: Int?

    /// `malformed XML: MESSAGE`.
    package var description: String { "malformed XML: \(self.message)" }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Builds a small XML document (a request body of the client's, an answer of the local server's) with escaped text.
package struct XMLWriter {
    /// The document so far, starting with its declaration.
    package private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    package init() {}

    /// Opens element `name`, with a default namespace if given.
    package mutating func open(_ name: String, namespace: String? = nil) {
        if let namespace {
            self.text += "<\(name) xmlns=\"\(Self.escape(namespace))\">"
        } else {
            self.text += "<\(name)>"
        }
    }

    /// Closes element `name`.
    package mutating func close(_ name: String) { self.text += "</\(name)>" }

    /// Appends markup as it is: the caller vouches that it is well formed.
    package mutating func append(raw: String) { self.text += raw }

    /// Appends `<name>value</name>`, the value escaped.
    package mutating func element(_ name: String, _ value: String) {
        self.text += "<\(name)>\(Self.escape(value))</\(name)>"
    }

    /// Appends `<name>value</name>` when there is a value.
    package mutating func element(_ name: String, _ value: String?) {
        if let value { self.element(name, value) }
    }

    /// Appends element `name` with the content `body` writes.
    package mutating func element(_ name: String, _ body: (inout XMLWriter) -> Void) {
        self.open(name)
        body(&self)
        self.close(name)
    }

    /// The document's UTF-8 bytes.
    package var bytes: [UInt8] { Array(self.text.utf8) }

    /// `value` as element text: markup characters as entities, and control characters other than tab and line
    /// feed as character references (a carriage return would otherwise be read back as a line feed).
    package static func escape(_ value: String) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" {
                    result += "&#\(scalar.value);"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

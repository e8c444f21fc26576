//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

/// The one XML reader and writer, shared by the client (answers) and the local server (request documents).
@Suite struct XMLDocumentTests {
    @Test func aServiceAnswerParsesWithItsPrologueNamespacesAndReferences() throws {
        let answer =
            Array([0xEF, 0xBB, 0xBF])
            + Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- a comment --><s3:ListBucketResult xmlns:s3="http://s3.amazonaws.com/doc/2006-03-01/">
                  <Name>b</Name><Contents><Key>a&amp;b&#x41;&#66;<![CDATA[<c>]]></Key></Contents>
                  <Contents><Key/></Contents>
                </s3:ListBucketResult>
                """.utf8
            )
        let root = try XMLNode.parse(answer)
        #expect(root.name == "ListBucketResult")
        #expect(root["Name"] == "b")
        #expect(root.children("Contents").map { $0["Key"] } == ["a&bAB<c>", ""])
    }

    @Test(arguments: [
        ("<a></b>", "</b> closes <a>"),
        ("<a/><b/>", "content after the root element"),
        ("<a/>text", "content after the root element"),
        ("<a>&bogus;</a>", "unknown entity &bogus;"),
        ("<a>&#1114112;</a>", "invalid character reference &#1114112;"),
        ("  ", "no root element"),
    ])
    func aMalformedDocumentIsRefusedSayingWhy(document: String, reason: String) {
        #expect {
            try XMLNode.parse(Array(document.utf8))
        } throws: { error in
            (error as? XMLSyntaxError)?.message == reason
        }
    }

    @Test func textWithMarkupAndControlCharactersRoundTrips() throws {
        let awkward = "a<b>&\"c'\r\n\td\u{1}é"
        var writer = XMLWriter()
        writer.open("Delete", namespace: "http://example.com/a&b")
        writer.element("Key", awkward)
        writer.element("VersionId", nil as String?)
        writer.element("Object") { $0.element("Key", "k") }
        writer.close("Delete")
        #expect(
            writer.text.hasPrefix(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Delete xmlns=\"http://example.com/a&amp;b\">"
            )
        )
        let root = try XMLNode.parse(writer.bytes)
        #expect(root["Key"] == awkward)
        #expect(root.child("VersionId") == nil)
        #expect(root.child("Object")?["Key"] == "k")
    }
}

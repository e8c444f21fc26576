//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

/// Hex and base64: RFC 4648 test vectors, round trips and malformed input.
struct CryptoByteEncodingTests {
    /// RFC 4648 section 10.
    @Test(arguments: [
        ("", "", ""),
        ("f", "Zg==", "66"),
        ("fo", "Zm8=", "666F"),
        ("foo", "Zm9v", "666F6F"),
        ("foob", "Zm9vYg==", "666F6F62"),
        ("fooba", "Zm9vYmE=", "666F6F6261"),
        ("foobar", "Zm9vYmFy", "666F6F626172"),
    ])
    func rfc4648Vectors(text: String, base64: String, base16: String) {
        let bytes = Array(text.utf8)
        #expect(ByteEncoding.base64(bytes) == base64)
        #expect(ByteEncoding.bytes(fromBase64: base64) == bytes)
        #expect(ByteEncoding.hex(bytes, uppercase: true) == base16)
        #expect(ByteEncoding.hex(bytes) == base16.lowercased())
        #expect(ByteEncoding.bytes(fromHex: base16) == bytes)
        #expect(ByteEncoding.bytes(fromHex: base16.lowercased()) == bytes)
    }

    @Test func roundTripsEveryByteAtEveryLengthModuloThree() {
        let all = [UInt8](0...255)
        for length in [0, 1, 2, 3, 64, 254, 255, 256] {
            let bytes = Array(all.prefix(length))
            #expect(ByteEncoding.bytes(fromBase64: ByteEncoding.base64(bytes)) == bytes)
            #expect(ByteEncoding.bytes(fromHex: ByteEncoding.hex(bytes)) == bytes)
            #expect(ByteEncoding.bytes(fromHex: ByteEncoding.hex(bytes, uppercase: true)) == bytes)
        }
    }

    @Test func encodesKnownBinary() {
        // Content-MD5 of "" as OSS and S3 expect it.
        let md5OfEmpty: [UInt8] = [
            0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04, 0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e,
        ]
        #expect(ByteEncoding.base64(md5OfEmpty) == "1B2M2Y8AsgTpgAmY7PhCfg==")
        #expect(ByteEncoding.hex(md5OfEmpty) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(ByteEncoding.base64([0xfb, 0xff, 0xbf]) == "+/+/")
        #expect(ByteEncoding.bytes(fromBase64: "+/+/") == [0xfb, 0xff, 0xbf])
        #expect(ByteEncoding.bytes(fromHex: "00fFaB") == [0x00, 0xff, 0xab])
    }

    @Test func base64WithoutPaddingIsAccepted() {
        #expect(ByteEncoding.bytes(fromBase64: "Zg") == Array("f".utf8))
        #expect(ByteEncoding.bytes(fromBase64: "Zm8") == Array("fo".utf8))
    }

    @Test(arguments: [
        "Zm9v!",  // character outside the alphabet
        "Zm9v YmFy",  // whitespace
        "Zm9v\nYmFy",  // line break
        "Zm9vYmFy-_",  // base64url alphabet
        "Zg==Zg==",  // data after padding
        "Zg=g",  // data after padding
        "Z",  // a single character cannot hold a byte
        "Zm9vY",  // dangling sixth character
        "Zm9vYmFyé",  // non-ASCII
    ])
    func base64RejectsMalformedInput(_ text: String) {
        #expect(ByteEncoding.bytes(fromBase64: text) == nil)
    }

    @Test(arguments: ["0", "abc", "0g", "zz", "0x00", " 00", "é0"])
    func hexRejectsMalformedInput(_ text: String) {
        #expect(ByteEncoding.bytes(fromHex: text) == nil)
    }
}

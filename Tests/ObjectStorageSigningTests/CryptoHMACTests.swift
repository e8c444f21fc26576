//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

/// HMAC test cases from RFC 4231 (SHA-256) and RFC 2202 (SHA-1, MD5).
struct CryptoHMACTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let message: [UInt8]
        let mac: String
        var testDescription: String { name }

        init(_ name: String, key: [UInt8], message: [UInt8], mac: String) {
            (self.name, self.key, self.message, self.mac) = (name, key, message, mac)
        }

        init(_ name: String, key: [UInt8], message: String, mac: String) {
            self.init(name, key: key, message: Array(message.utf8), mac: mac)
        }
    }

    static let twentyOnes = [UInt8](repeating: 0x0b, count: 20)
    static let jefe = Array("Jefe".utf8)
    static let jefeMessage = "what do ya want for nothing?"
    static let counting = [UInt8](1...25)
    static let largerKeyMessage = "Test Using Larger Than Block-Size Key - Hash Key First"

    static let sha256Cases: [Case] = [
        Case(
            "RFC 4231 case 1",
            key: twentyOnes,
            message: "Hi There",
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        Case(
            "RFC 4231 case 2",
            key: jefe,
            message: jefeMessage,
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        Case(
            "RFC 4231 case 3",
            key: [UInt8](repeating: 0xaa, count: 20),
            message: [UInt8](repeating: 0xdd, count: 50),
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        Case(
            "RFC 4231 case 4",
            key: counting,
            message: [UInt8](repeating: 0xcd, count: 50),
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        Case(
            "RFC 4231 case 6 (131-byte key)",
            key: [UInt8](repeating: 0xaa, count: 131),
            message: largerKeyMessage,
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        Case(
            "RFC 4231 case 7 (131-byte key, 152-byte message)",
            key: [UInt8](repeating: 0xaa, count: 131),
            message: "This is a test using a larger than block-size key and a larger than block-size data."
                + " The key needs to be hashed before being used by the HMAC algorithm.",
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    static let sha1Cases: [Case] = [
        Case("RFC 2202 case 1", key: twentyOnes, message: "Hi There", mac: "b617318655057264e28bc0b6fb378c8ef146be00"),
        Case("RFC 2202 case 2", key: jefe, message: jefeMessage, mac: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        Case(
            "RFC 2202 case 3",
            key: [UInt8](repeating: 0xaa, count: 20),
            message: [UInt8](repeating: 0xdd, count: 50),
            mac: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"
        ),
        Case(
            "RFC 2202 case 4",
            key: counting,
            message: [UInt8](repeating: 0xcd, count: 50),
            mac: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"
        ),
        Case(
            "RFC 2202 case 6 (80-byte key)",
            key: [UInt8](repeating: 0xaa, count: 80),
            message: largerKeyMessage,
            mac: "aa4ae5e15272d00e95705637ce8a3b55ed402112"
        ),
        Case(
            "RFC 2202 case 7 (80-byte key, 73-byte message)",
            key: [UInt8](repeating: 0xaa, count: 80),
            message: "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
            mac: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"
        ),
    ]

    @Test(arguments: sha256Cases)
    func hmacSHA256(_ testCase: Case) {
        let mac = Hashing.HMAC<Hashing.SHA256>.authenticationCode(for: testCase.message, key: testCase.key)
        #expect(ByteEncoding.hex(mac) == testCase.mac)
    }

    @Test(arguments: sha1Cases)
    func hmacSHA1(_ testCase: Case) {
        let mac = Hashing.HMAC<Hashing.SHA1>.authenticationCode(for: testCase.message, key: testCase.key)
        #expect(ByteEncoding.hex(mac) == testCase.mac)
    }

    @Test func hmacMD5RFC2202() {
        let first = Hashing.HMAC<Hashing.MD5>.authenticationCode(
            for: "Hi There",
            key: [UInt8](repeating: 0x0b, count: 16)
        )
        #expect(ByteEncoding.hex(first) == "9294727a3638bb1c13f48ef8158bfc9d")
        let second = Hashing.HMAC<Hashing.MD5>.authenticationCode(for: Self.jefeMessage, key: Self.jefe)
        #expect(ByteEncoding.hex(second) == "750c783e6ab0b503eaa86e310a5db738")
    }

    /// RFC 4231 case 5 truncates the output to 128 bits; the full MAC starts with those bytes.
    @Test func hmacSHA256TruncatedCase() {
        let mac = Hashing.HMAC<Hashing.SHA256>.authenticationCode(
            for: "Test With Truncation",
            key: [UInt8](repeating: 0x0c, count: 20)
        )
        #expect(mac.count == 32)
        #expect(ByteEncoding.hex(mac.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func stringAndByteMessagesAgree() {
        let fromString = Hashing.HMAC<Hashing.SHA256>.authenticationCode(for: "Hi There", key: Self.twentyOnes)
        let fromSlice = Hashing.HMAC<Hashing.SHA256>.authenticationCode(
            for: Array("xHi Therex".utf8).dropFirst().dropLast(),
            key: Self.twentyOnes[...]
        )
        #expect(ByteEncoding.hex(fromString) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(fromSlice == fromString)
    }
}

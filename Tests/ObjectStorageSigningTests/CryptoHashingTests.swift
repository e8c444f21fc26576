//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

/// SHA-256, SHA-1 and MD5: published known answers, streaming, and value semantics.
struct CryptoHashingTests {
    static let fox = "The quick brown fox jumps over the lazy dog"
    static let sha256OfABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    /// FIPS 180-2 / RFC 1321 examples and the widely published "quick brown fox" digests.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (fox, "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func sha256KnownAnswers(message: String, digest: String) {
        #expect(ByteEncoding.hex(Hashing.SHA256.hash(message)) == digest)
        #expect(ByteEncoding.hex(Hashing.SHA256.hash(Array(message.utf8))) == digest)
        var hasher = Hashing.SHA256()
        hasher.update(message)
        #expect(ByteEncoding.hex(hasher.finalize()) == digest)
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (fox, "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func sha1KnownAnswers(message: String, digest: String) {
        #expect(ByteEncoding.hex(Hashing.SHA1.hash(message)) == digest)
        var hasher = Hashing.SHA1()
        hasher.update(Array(message.utf8))
        #expect(ByteEncoding.hex(hasher.finalize()) == digest)
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        (fox, "9e107d9d372bb6826bd81d3542a419d6"),
    ])
    func md5KnownAnswers(message: String, digest: String) {
        #expect(ByteEncoding.hex(Hashing.MD5.hash(message)) == digest)
        var hasher = Hashing.MD5()
        hasher.update(message)
        #expect(ByteEncoding.hex(hasher.finalize()) == digest)
    }

    @Test func digestLengths() {
        #expect(Hashing.SHA256.digestByteCount == 32 && Hashing.SHA256.hash("").count == 32)
        #expect(Hashing.SHA1.digestByteCount == 20 && Hashing.SHA1.hash("").count == 20)
        #expect(Hashing.MD5.digestByteCount == 16 && Hashing.MD5.hash("").count == 16)
    }

    /// One million "a" (FIPS 180-2 appendix B.3 / C.3 and the RFC 1321 style long message), fed in odd chunks.
    @Test func streamingInChunksEqualsOneShot() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let expectedSHA256 = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let expectedSHA1 = "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
        let expectedMD5 = "7707d6ae4e027c70eea2a935c2296f21"
        #expect(ByteEncoding.hex(Hashing.SHA256.hash(million)) == expectedSHA256)
        #expect(ByteEncoding.hex(Hashing.SHA1.hash(million)) == expectedSHA1)
        #expect(ByteEncoding.hex(Hashing.MD5.hash(million)) == expectedMD5)
        for chunkSize in [1, 7, 63, 64, 65, 1000, 65_537] {
            #expect(hexOf(Hashing.SHA256.self, million, chunkSize: chunkSize) == expectedSHA256)
            #expect(hexOf(Hashing.SHA1.self, million, chunkSize: chunkSize) == expectedSHA1)
            #expect(hexOf(Hashing.MD5.self, million, chunkSize: chunkSize) == expectedMD5)
        }
    }

    @Test func finalizeDoesNotDisturbContinuedUpdates() {
        var hasher = Hashing.SHA256()
        hasher.update("ab")
        let sha256OfAB = "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603"
        #expect(ByteEncoding.hex(hasher.finalize()) == sha256OfAB)
        hasher.update("c")
        #expect(ByteEncoding.hex(hasher.finalize()) == Self.sha256OfABC)
        #expect(ByteEncoding.hex(hasher.finalize()) == Self.sha256OfABC)

        var md5 = Hashing.MD5()
        md5.update("a")
        _ = md5.finalize()
        md5.update("bc")
        #expect(ByteEncoding.hex(md5.finalize()) == "900150983cd24fb0d6963f7d28e17f72")
    }

    @Test func copiesMidStreamContinueIndependently() {
        var original = Hashing.MD5()
        original.update("The quick brown fox ")
        var copy = original
        copy.update("jumps over the lazy dog")
        original.update("jumps over the lazy cog")
        #expect(ByteEncoding.hex(copy.finalize()) == "9e107d9d372bb6826bd81d3542a419d6")
        // MD5 of "The quick brown fox jumps over the lazy cog" (Wikipedia's avalanche example).
        #expect(ByteEncoding.hex(original.finalize()) == "1055d3e698d289f2af8663725127bd4b")

        var first = Hashing.SHA256()
        first.update("a")
        var second = first
        first.update("bc")
        #expect(ByteEncoding.hex(first.finalize()) == Self.sha256OfABC)
        // The copy still holds only "a".
        let sha256OfA = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
        #expect(ByteEncoding.hex(second.finalize()) == sha256OfA)
        second.update("bc")
        #expect(ByteEncoding.hex(second.finalize()) == Self.sha256OfABC)
    }

    @Test func hashesNonContiguousCollections() {
        let bytes = Array(Self.fox.utf8)
        let chained = bytes[..<10] + bytes[10...]
        #expect(ByteEncoding.hex(Hashing.MD5.hash(chained.lazy.map { $0 })) == "9e107d9d372bb6826bd81d3542a419d6")
    }

    private func hexOf<H: HashAlgorithm>(_ type: H.Type, _ bytes: [UInt8], chunkSize: Int) -> String {
        var hasher = H()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            hasher.update(bytes[start..<end])
            start = end
        }
        return ByteEncoding.hex(hasher.finalize())
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

@testable import ObjectStorageLocalServer

/// The four-lane MD5 kernel, each implementation this CPU runs forced in turn, each lane position.
@Suite("MD5 kernel")
struct MD5KernelTests {
    /// RFC 1321 appendix A.5, digests typed from the RFC.
    static let rfcSuite: [(message: String, digest: String)] = [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "57edf4a22be3c955ac49da2e2107b67a"
        ),
    ]

    /// The implementations this CPU runs (the others fall back to these, so testing them would test these twice).
    static let implementations = MD5Kernel.Implementation.allCases.filter(\.isSupported)

    /// Each RFC message in each lane, with the other lanes idle (`nil`) or busy with other bytes; an idle lane's
    /// state is left as it was.
    @Test(arguments: implementations, 0..<4)
    func rfcSuiteInEachLane(_ implementation: MD5Kernel.Implementation, lane: Int) throws {
        var random = SeededGenerator(seed: 0x5EED_0000 + UInt64(lane))
        for (message, expected) in Self.rfcSuite {
            let bytes = Array(message.utf8)
            let blocks = bytes.count / 64
            var states = [[UInt32]](repeating: MD5Kernel.initialState, count: 4)
            var data = [[UInt8]?](repeating: nil, count: 4)
            data[lane] = bytes
            for other in 0..<4 where other != lane {
                states[other] = (0..<4).map { _ in UInt32.random(in: .min ... .max, using: &random) }
                if other % 2 == 0 { data[other] = randomBytes(blocks * 64, using: &random) }
            }
            let before = states
            MD5Kernel.compress(&states, data, blocks: blocks, implementation: implementation)
            let digest = MD5Kernel.finish(
                states[lane],
                tail: Array(bytes[(blocks * 64)...]),
                length: UInt64(bytes.count)
            )
            #expect(ByteEncoding.hex(digest) == expected, "\(implementation) lane \(lane): \"\(message)\"")
            for other in 0..<4 where data[other] == nil {
                #expect(states[other] == before[other], "idle lane \(other) changed")
            }
        }
    }

    /// Four random messages of the same block count hashed together agree with OpenSSL's MD5, whatever the tail.
    @Test(arguments: implementations)
    func agreesWithOpenSSL(_ implementation: MD5Kernel.Implementation) throws {
        var random = SeededGenerator(seed: 0xA11CE + UInt64(implementation.rawValue))
        for blocks in [0, 1, 2, 3, 17, 1000] {
            let messages = (0..<4).map { _ in
                randomBytes(blocks * 64 + Int.random(in: 0..<64, using: &random), using: &random)
            }
            var states = [[UInt32]](repeating: MD5Kernel.initialState, count: 4)
            MD5Kernel.compress(&states, messages, blocks: blocks, implementation: implementation)
            for lane in 0..<4 {
                let message = messages[lane]
                let digest = MD5Kernel.finish(
                    states[lane],
                    tail: Array(message[(blocks * 64)...]),
                    length: UInt64(message.count)
                )
                #expect(digest == Hashing.MD5.hash(message), "\(implementation) lane \(lane), \(message.count) bytes")
            }
        }
    }

    /// MD5 takes the bit length modulo 2^64: the length field of a (pretend) huge message wraps.
    @Test func bitLengthWrapsModulo2To64() {
        var state = MD5Kernel.initialState
        let digest = MD5Kernel.finish(state, tail: [], length: 0)
        #expect(ByteEncoding.hex(digest) == "d41d8cd98f00b204e9800998ecf8427e")
        // Same padded block as the empty message: a length of 2^61 bytes is 2^64 bits, which wraps to 0.
        state = MD5Kernel.initialState
        #expect(MD5Kernel.finish(state, tail: [], length: 1 << 61) == digest)
    }
}

/// A small deterministic generator (xorshift64*), so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

func randomBytes(_ count: Int, using random: inout SeededGenerator) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = random.next()
        for _ in 0..<min(8, count - index) {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}

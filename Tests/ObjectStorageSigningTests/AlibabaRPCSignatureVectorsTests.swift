//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

/// A signed Alibaba STS request of Fixtures/vectors/sts-vectors.json (Fixtures/sts/generate.py): what Alibaba's
/// Python credentials library or core SDK sent, and the documented signature of the same parameters as Alibaba's
/// core SDK and OpenAPI runtime compute it.
struct AlibabaRPCVector: Decodable, Sendable, CustomTestStringConvertible {
    struct Inputs: Decodable, Sendable {
        /// The secret, unless the library read it from a profile file (then the file's fixed one).
        var access_key_secret: String?
    }

    struct Expected: Decodable, Sendable {
        var method: String
        /// The query as sent (the AWS vectors send a form instead).
        var query: [[String]]?
        var signature: String?
        /// The whole URL, for a GET.
        var url: String?
    }

    struct SpecEncoding: Decodable, Sendable {
        var same_as_library: Bool
        var signature: String
        var string_to_sign: String
        var tea_openapi_signature: String
    }

    var id: String
    var provider: String
    var inputs: Inputs
    var expected: Expected
    var rpc_spec_encoding: SpecEncoding?
    /// The secret the library signed with.
    var secret: String { inputs.access_key_secret ?? Self.fixedSecret }

    var testDescription: String { id }

    /// The parameters sent, without `Signature`.
    var parameters: [(name: String, value: String)] {
        (expected.query ?? []).compactMap { pair in
            guard pair.count == 2, pair[0] != "Signature" else { return nil }
            return (pair[0], pair[1])
        }
    }

    private struct File: Decodable {
        struct Credentials: Decodable {
            var access_key_secret: String
        }
        var credentials: Credentials
        var vectors: [AlibabaRPCVector]
    }

    /// The secret of every vector, which the profile files of some hold.
    static let fixedSecret = "FixedTestAccessKeySecret0123456789ab"

    /// The signed Alibaba vectors.
    static let signed: [AlibabaRPCVector] = all.filter {
        $0.provider == "alibaba-sts" && $0.expected.signature != nil
    }

    /// Every vector of the file.
    static let all: [AlibabaRPCVector] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/vectors/sts-vectors.json")
        do {
            let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
            precondition(file.credentials.access_key_secret == fixedSecret, "the file's fixed secret changed")
            return file.vectors
        } catch {
            fatalError("cannot load \(url.path): \(error)")
        }
    }()
}

@Suite("Alibaba's RPC signature (STS) matches Alibaba's own implementations")
struct AlibabaRPCSignatureVectorsTests {
    @Test func theFileHasSignedVectorsOfBothEncodings() {
        #expect(AlibabaRPCVector.signed.count >= 14)
        #expect(AlibabaRPCVector.signed.contains { $0.rpc_spec_encoding?.same_as_library == false })
    }

    @Test(arguments: AlibabaRPCVector.signed)
    func signatureMatches(_ vector: AlibabaRPCVector) throws {
        let spec = try #require(vector.rpc_spec_encoding)
        let method = vector.expected.method
        let signature = AlibabaRPCSignature.signature(
            method: method,
            parameters: vector.parameters,
            secret: vector.secret
        )
        #expect(AlibabaRPCSignature.stringToSign(method: method, parameters: vector.parameters) == spec.string_to_sign)
        #expect(signature == spec.signature)
        #expect(signature == spec.tea_openapi_signature)
        // The library that sent the request signs the same, but for a value with a space (see the type's comment).
        if spec.same_as_library { #expect(signature == vector.expected.signature) }
    }

    @Test func aSpaceIsPercent20AndTheUnreservedStay() {
        let text = AlibabaRPCSignature.stringToSign(
            method: "GET",
            parameters: [("b", "a b*c~d/é"), ("A", "1")]
        )
        #expect(text == "GET&%2F&A%3D1%26b%3Da%2520b%252Ac~d%252F%25C3%25A9")
    }
}

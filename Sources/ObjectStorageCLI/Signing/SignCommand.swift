//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorageSigning

/// `objstore sign URL`: prints the request line and every header to send, and with `--explain`
/// the canonical request and string-to-sign, to compare with a server's `SignatureDoesNotMatch`.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print a signed request: the request line and every header to send.",
        discussion: """
            URL is oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY (KEY verbatim). With --explain, \
            also prints the canonical request and the string-to-sign.
            """
    )

    @OptionGroup var object: ObjectArgument

    @OptionGroup var options: SigningOptions

    @Option(help: "Hash this file as the payload (S3 SigV4).")
    var bodyFile: String?

    @Option(help: "The payload's SHA-256 as hex (S3 SigV4).")
    var payloadHash: String?

    @Flag(help: "Sign with UNSIGNED-PAYLOAD.")
    var unsignedPayload = false

    @Flag(help: "Also print the canonical request and the string-to-sign.")
    var explain = false

    func validate() throws {
        let payloadFlags = [bodyFile != nil, payloadHash != nil, unsignedPayload].filter { $0 }.count
        if payloadFlags > 1 {
            throw ValidationError("--body-file, --payload-hash and --unsigned-payload exclude each other")
        }
    }

    func run() async throws {
        let location = try object.location()
        let context = try SigningContext(location: location, options: options, versionID: object.versionID)
        let payload = try resolvePayload(for: context.signer.version)
        let signed = try await context.signing { credentials throws(SigningError) in
            try context.signer.sign(context.request, credentials: credentials, at: context.date, payload: payload)
        }
        if options.json {
            var output = SignOutput(
                method: signed.method,
                url: signed.url,
                headers: JSONOutput.dictionary(signed.headers)
            )
            if explain {
                output.canonicalRequest = signed.canonicalRequest
                output.stringToSign = signed.stringToSign
            }
            try JSONOutput.print(output)
            return
        }
        print("\(signed.method) \(signed.url)")
        for header in signed.headers { print("\(header.name): \(header.value)") }
        if explain {
            print("\n--- canonical request ---\n\(signed.canonicalRequest)")
            print("--- string to sign ---\n\(signed.stringToSign)")
        }
    }

    /// The payload hash to sign. Only S3 SigV4 signs a real payload hash; OSS V4 always signs
    /// `UNSIGNED-PAYLOAD`, and the other schemes sign no payload hash at all.
    private func resolvePayload(for version: SignatureVersion) throws(CLIError) -> PayloadHash {
        guard version == .sigV4 else {
            if bodyFile != nil || payloadHash != nil {
                throw .usage("--body-file and --payload-hash apply to S3 SigV4 only; \(version) signs no payload hash")
            }
            return .unsigned
        }
        if unsignedPayload { return .unsigned }
        if let payloadHash {
            let hex = payloadHash.lowercased()
            guard hex.utf8.count == 64, ByteEncoding.bytes(fromHex: hex) != nil else {
                throw .usage("--payload-hash: '\(payloadHash)' is not 64 hex digits")
            }
            return .sha256(hex: hex)
        }
        if let bodyFile { return .sha256(hex: try FileDigest.sha256Hex(ofFileAt: bodyFile)) }
        return .emptySHA256
    }
}

private struct SignOutput: Encodable {
    var method: String
    var url: String
    var headers: [String: String]
    var canonicalRequest: String?
    var stringToSign: String?
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import Foundation
import NIOCore
import ObjectStorage
import ObjectStorageSigning

extension PeerSuite {
    /// A form refused by the peer, and how the local server answers the same form (its tests pin these).
    struct PostRefusal {
        var name: String
        var fields: [(String, String)]
        var file: [UInt8]
        var localServer: (status: Int, code: String)
    }

    /// The SDK's POST policy form in `version` (browser uploads): a form allowing any key under a prefix, 1 to
    /// 1024 bytes, stores the posted file (bytes read back); a tampered policy, an expired one, a file over the
    /// range, a key outside the prefix and a field the policy does not cover are refused with a 4xx and store
    /// nothing. Prints each refusal's status and code where they differ from the local server's.
    func postPolicy(_ version: SignatureVersion) async throws {
        let configuration = try self.settings.configuration(signatureVersion: version)
        let client = ObjectStorageClient(configuration: configuration)
        let prefix = "post-\(version == .awsV2 ? "v2" : "v4")/"
        let form = try await client.presignPost(
            bucket: self.bucket,
            key: prefix + "${filename}",
            expires: .seconds(300),
            contentLength: 1...1024,
            successActionStatus: 201
        )
        let fields = form.fields.map { ($0.name, $0.value) }
        let file = Pattern.bytes(count: 1000, seed: 16)
        let accepted = try await Self.postForm(form.url, fields: fields, file: file)
        try require(accepted.status == 201, "the SDK's form answered \(accepted.status): \(accepted.text.prefix(300))")
        let (_, stored) = try await self.get(prefix + "upload.bin")
        try require(stored == file, "the posted object has other bytes (\(stored.count))")

        let policy = try form.fields.first { $0.name == "policy" }.orFail("the form has no policy")
        let json = String(decoding: try ByteEncoding.bytes(fromBase64: policy.value).orFail("policy"), as: UTF8.self)
        let widened = json.replacing("[\"content-length-range\",1,1024]", with: "[\"content-length-range\",1,4096]")
        let expired = try RequestSigner(version: version, region: self.settings.region).presignPost(
            SigningRequest(method: "POST", endpoint: configuration.endpoint, addressing: .path, bucket: self.bucket),
            key: prefix + "${filename}",
            fields: [],
            conditions: [],
            credentials: Credentials(
                accessKeyID: self.settings.accessKey ?? "",
                secretAccessKey: self.settings.secretKey ?? ""
            ),
            expires: .seconds(60),
            at: Date(timeIntervalSinceNow: -3600)
        )
        let refusals = [
            PostRefusal(
                name: "tampered policy",
                fields: Self.setting("policy", to: ByteEncoding.base64(Array(widened.utf8)), in: fields),
                file: file,
                localServer: (403, "SignatureDoesNotMatch")
            ),
            PostRefusal(
                name: "expired policy",
                fields: expired.fields.map { ($0.name, $0.value) },
                file: file,
                localServer: (403, "AccessDenied")
            ),
            PostRefusal(
                name: "file over the range",
                fields: fields,
                file: file + file,
                localServer: (400, "EntityTooLarge")
            ),
            PostRefusal(
                name: "key outside the prefix",
                fields: Self.setting("key", to: "elsewhere/${filename}", in: fields),
                file: file,
                localServer: (403, "AccessDenied")
            ),
            PostRefusal(
                name: "uncovered field",
                fields: Self.setting("x-amz-meta-extra", to: "1", in: fields),
                file: file,
                localServer: (403, "AccessDenied")
            ),
        ]
        try await client.deleteObject(bucket: self.bucket, key: prefix + "upload.bin")
        for refusal in refusals {
            let answer = try await Self.postForm(form.url, fields: refusal.fields, file: refusal.file)
            let code = answer.element("Code") ?? "(no code)"
            try require((400..<500).contains(answer.status), "\(refusal.name) answered \(answer.status) \(code)")
            if answer.status != refusal.localServer.status || code != refusal.localServer.code {
                print(
                    "  note: \(version) \(refusal.name): \(self.peer.name) answers \(answer.status) \(code), "
                        + "the local server \(refusal.localServer.status) \(refusal.localServer.code)"
                )
            }
            for key in [prefix + "upload.bin", "elsewhere/upload.bin"] {
                try await requireThrows(ServiceError.self, "\(refusal.name) stored \(key)") {
                    _ = try await client.headObject(bucket: self.bucket, key: key)
                }
            }
        }
    }

    /// The fields with `name` set to `value` (added first when absent).
    static func setting(_ name: String, to value: String, in fields: [(String, String)]) -> [(String, String)] {
        guard let index = fields.firstIndex(where: { $0.0 == name }) else { return [(name, value)] + fields }
        var fields = fields
        fields[index].1 = value
        return fields
    }
}

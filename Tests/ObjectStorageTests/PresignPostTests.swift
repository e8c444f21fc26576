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
import NIOHTTP1
import ObjectStorage
import ObjectStorageLocalServer
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// Posts a browser-style `multipart/form-data` form: the fields in order, then the file last.
enum FormPost {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var text: String

        /// The text of the first `<name>` element.
        func element(_ name: String) -> String? {
            guard let open = text.range(of: "<\(name)>"),
                let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
            else { return nil }
            return String(text[open.upperBound..<close.lowerBound])
        }
    }

    static let boundary = "----swift-object-storage-form-7f3a"

    /// A client that reports redirects instead of following them (a form's success redirect points at the app).
    /// Never shut down: it lives as long as the test process.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    static func body(fields: [(String, String)], file: [UInt8], filename: String) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8
        )
        body += file
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    static func post(
        _ url: String,
        fields: [(String, String)],
        file: [UInt8],
        filename: String = "hello.txt"
    ) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        request.body = .bytes(ByteBuffer(bytes: body(fields: fields, file: file, filename: filename)))
        let response = try await client.execute(request, timeout: .seconds(60))
        let collected = try await response.body.collect(upTo: 1 << 20)
        return Response(
            status: Int(response.status.code),
            headers: response.headers,
            text: String(decoding: collected.readableBytesView, as: UTF8.self)
        )
    }

    static func post(_ form: PresignedPost, file: [UInt8], filename: String = "hello.txt") async throws -> Response {
        try await post(form.url, fields: form.fields.map { ($0.name, $0.value) }, file: file, filename: filename)
    }
}

extension PresignedPost {
    /// The fields with `name`'s value replaced (or the field added when absent).
    func postedFields(setting name: String, to value: String) -> [(String, String)] {
        var fields = self.fields.map { ($0.name, $0.value) }
        if let index = fields.firstIndex(where: { $0.0 == name }) {
            fields[index].1 = value
        } else {
            fields.insert((name, value), at: 0)
        }
        return fields
    }
}

@Suite("Browser uploads with POST policy forms, accepted and refused by the local server")
struct PresignPostTests {
    static let dialects =
        ClientDialect.all + [
            ClientDialect(name: "S3 AWS V2", provider: .s3, signature: .awsV2),
            ClientDialect(name: "OBS V4", provider: .obs, signature: .sigV4),
        ]
    static let content = Array("hello from a browser form\n".utf8)

    static func metadataPrefix(_ dialect: ClientDialect) -> String {
        switch dialect.provider {
        case .oss: "x-oss-meta-"
        case .obs where dialect.signature == .obs: "x-obs-meta-"
        default: "x-amz-meta-"
        }
    }

    @Test(arguments: dialects)
    func acceptedFormStoresTheObject(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            var attributes = UploadAttributes(contentType: "text/plain", metadata: ["owner": "ana"])
            attributes.cacheControl = "max-age=60"
            let form = try await client.presignPost(
                bucket: "uploads",
                key: "user/42/${filename}",
                expires: .seconds(600),
                contentLength: 1...1024,
                attributes: attributes,
                successActionStatus: 201
            )
            let response = try await FormPost.post(form, file: Self.content)
            #expect(response.status == 201)
            #expect(response.element("Key") == "user/42/hello.txt")
            #expect(response.element("Bucket") == "uploads")
            let get = try await client.getObject(GetObjectRequest(bucket: "uploads", key: "user/42/hello.txt"))
            #expect(try await get.body.collect(upTo: 1 << 20).bytes == Self.content)
            #expect(get.attributes.contentType == "text/plain")
            #expect(get.attributes.metadata["owner"] == "ana")
            #expect(get.attributes.cacheControl == "max-age=60")
            #expect(response.headers.first(name: "ETag") == get.attributes.etag)
        }
    }

    @Test(arguments: dialects)
    func tamperedPolicyIsRefused(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            let form = try await client.presignPost(bucket: "uploads", key: "a.txt", contentLength: 1...10)
            let policy = try #require(form.fields.first { $0.name == "policy" }?.value)
            let json = String(decoding: try #require(Data(base64Encoded: policy)), as: UTF8.self)
            let widened = json.replacingOccurrences(
                of: "[\"content-length-range\",1,10]",
                with: "[\"content-length-range\",1,1000]"
            )
            #expect(widened != json)
            let tampered = Data(widened.utf8).base64EncodedString()
            let response = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: "policy", to: tampered),
                file: Self.content
            )
            #expect(response.status == 403)
            #expect(response.element("Code") == "SignatureDoesNotMatch")
            await #expect(throws: ServiceError.self) {
                _ = try await client.headObject(bucket: "uploads", key: "a.txt")
            }
        }
    }

    @Test(arguments: dialects)
    func expiredPolicyIsRefused(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, server in
            try await client.createBucket(bucket: "uploads")
            let port = try #require(server.port)
            let region = server.configuration.region(for: dialect.provider)
            let signer = RequestSigner(version: dialect.signature, region: region)
            let credentials = LocalObjectServer.developmentCredentials
            // Signed an hour ago, valid for a minute.
            let form = try signer.presignPost(
                SigningRequest(
                    method: "POST",
                    endpoint: try Endpoint(url: "http://127.0.0.1:\(port)"),
                    bucket: "uploads"
                ),
                key: "a.txt",
                fields: [],
                conditions: [],
                credentials: credentials,
                expires: .seconds(60),
                at: Date(timeIntervalSinceNow: -3600)
            )
            let response = try await FormPost.post(form, file: Self.content)
            #expect(response.status == 403)
            #expect(response.element("Code") == "AccessDenied")
            #expect(response.element("Message")?.contains("Policy expired") == true)
        }
    }

    @Test(arguments: dialects)
    func fileOverTheSizeRangeIsRefusedAndNotStored(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            let form = try await client.presignPost(bucket: "uploads", key: "big.bin", contentLength: 1...10)
            let response = try await FormPost.post(form, file: Array(repeating: 7, count: 11))
            #expect(response.status == 400)
            #expect(response.element("Code") == "EntityTooLarge")
            let small = try await client.presignPost(bucket: "uploads", key: "small.bin", contentLength: 5...10)
            let tooSmall = try await FormPost.post(small, file: [1, 2])
            #expect(tooSmall.status == 400)
            #expect(tooSmall.element("Code") == "EntityTooSmall")
            for key in ["big.bin", "small.bin"] {
                await #expect(throws: ServiceError.self) {
                    _ = try await client.headObject(bucket: "uploads", key: key)
                }
            }
        }
    }

    @Test(arguments: dialects)
    func keyOutsideThePrefixIsRefused(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            let form = try await client.presignPost(bucket: "uploads", key: "user/42/${filename}")
            let response = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: "key", to: "user/43/${filename}"),
                file: Self.content
            )
            #expect(response.status == 403)
            #expect(response.element("Code") == "AccessDenied")
            #expect(response.element("Message")?.contains("Policy Condition failed") == true)
        }
    }

    @Test(arguments: dialects)
    func uncoveredFieldIsRefusedExceptByOSS(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            let form = try await client.presignPost(bucket: "uploads", key: "a.txt")
            let response = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: Self.metadataPrefix(dialect) + "extra", to: "1"),
                file: Self.content
            )
            if dialect.provider == .oss {
                // OSS checks only the conditions the policy states.
                #expect(response.status == 204)
            } else {
                #expect(response.status == 403)
                #expect(response.element("Code") == "AccessDenied")
                #expect(response.element("Message")?.contains("Extra input fields") == true)
            }
            // A field with an x-ignore- prefix needs no condition.
            let ignored = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: "x-ignore-note", to: "1"),
                file: Self.content
            )
            #expect(ignored.status == 204)
        }
    }

    /// `name` with each dash-separated word capitalized: `X-Amz-Meta-Role` for `x-amz-meta-role`.
    static func capitalized(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    @Test(arguments: dialects)
    func repeatedFieldIsRefusedAndNothingStored(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            // The policy states ["eq", "$x-…-meta-role", "viewer"]; a second field of the same name in another case
            // would otherwise pass the condition (checked on the first) and be stored beside it.
            let form = try await client.presignPost(
                bucket: "uploads",
                key: "a.txt",
                attributes: UploadAttributes(metadata: ["role": "viewer"])
            )
            let field = Self.metadataPrefix(dialect) + "role"
            #expect(form.fields.contains { $0.name == field && $0.value == "viewer" })
            let forged = form.fields.map { ($0.name, $0.value) } + [(Self.capitalized(field), "admin")]
            let refused = try await FormPost.post(form.url, fields: forged, file: Self.content)
            #expect(refused.status == 400, "\(refused.text)")
            #expect(refused.element("Code") == "InvalidArgument")
            #expect(refused.element("ArgumentName")?.lowercased() == field)
            await #expect(throws: ServiceError.self) {
                _ = try await client.headObject(bucket: "uploads", key: "a.txt")
            }
            // The same field twice in the same case, and the policy field twice, are refused as well.
            let twice = try await FormPost.post(
                form.url,
                fields: form.fields.map { ($0.name, $0.value) } + [(field, "viewer")],
                file: Self.content
            )
            #expect(twice.status == 400, "\(twice.text)")
            #expect(twice.element("Code") == "InvalidArgument")
            let policy = try #require(form.fields.first { $0.name == "policy" })
            let twoPolicies = try await FormPost.post(
                form.url,
                fields: [(policy.name, policy.value)] + form.fields.map { ($0.name, $0.value) },
                file: Self.content
            )
            #expect(twoPolicies.status == 400, "\(twoPolicies.text)")
            #expect(twoPolicies.element("ArgumentName") == "policy")

            let accepted = try await FormPost.post(form, file: Self.content)
            #expect(accepted.status == 204, "\(accepted.text)")
            let get = try await client.getObject(GetObjectRequest(bucket: "uploads", key: "a.txt"))
            #expect(try await get.body.collect(upTo: 1 << 20).bytes == Self.content)
            #expect(get.attributes.metadata["role"] == "viewer")
        }
    }

    @Test(arguments: [ClientDialect.s3, .ossV4])
    func contentTypePrefixAndRedirect(_ dialect: ClientDialect) async throws {
        try await LocalObjectServer.withRunning(
            vendor: dialect.wire,
            logger: .scanning,
            configureClient: dialect.configure
        ) { client, _ in
            try await client.createBucket(bucket: "uploads")
            let form = try await client.presignPost(
                bucket: "uploads",
                key: "img/${filename}",
                attributes: UploadAttributes(contentType: "image/"),
                successActionRedirect: "http://app.example/done"
            )
            let accepted = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: "Content-Type", to: "image/png"),
                file: Self.content,
                filename: "C:\\photos\\cat.png"
            )
            #expect(accepted.status == 303)
            let location = try #require(accepted.headers.first(name: "Location"))
            #expect(location.hasPrefix("http://app.example/done?bucket=uploads&key=img%2Fcat.png&etag="))
            let head = try await client.headObject(bucket: "uploads", key: "img/cat.png")
            #expect(head.contentType == "image/png")
            let refused = try await FormPost.post(
                form.url,
                fields: form.postedFields(setting: "Content-Type", to: "text/html"),
                file: Self.content
            )
            #expect(refused.status == 403)
            #expect(refused.element("Message")?.contains("Policy Condition failed") == true)
        }
    }

    @Test("S3's form carries tags in its tagging field; OSS and OBS document none, so the form is refused")
    func formWithTags() async throws {
        for dialect in [ClientDialect.s3, .ossV4, .obs] {
            try await LocalObjectServer.withRunning(
                vendor: dialect.wire,
                logger: .scanning,
                configureClient: dialect.configure
            ) { client, _ in
                try await client.createBucket(bucket: "uploads")
                var attributes = UploadAttributes()
                attributes.tags = ["source": "browser", "user": "42"]
                guard dialect.provider == .s3 else {
                    let error = await #expect(throws: ObjectStorageError.self) {
                        try await client.presignPost(bucket: "uploads", key: "t.txt", attributes: attributes)
                    }
                    #expect(error?.code == .unsupported && error?.message.contains("tags in a POST form") == true)
                    return
                }
                let form = try await client.presignPost(
                    bucket: "uploads",
                    key: "t.txt",
                    attributes: attributes,
                    successActionStatus: 201
                )
                #expect(try await FormPost.post(form, file: Self.content).status == 201)
                #expect(try await client.getObjectTagging(bucket: "uploads", key: "t.txt") == attributes.tags)
                // The policy covers the field: another tag set is refused.
                let fields = form.postedFields(setting: "tagging", to: "<Tagging><TagSet></TagSet></Tagging>")
                let tampered = try await FormPost.post(form.url, fields: fields, file: Self.content)
                #expect(tampered.status == 403, "\(tampered.text)")
            }
        }
    }

    @Test func formOfAnAnonymousClientIsRefusedBeforeSigning() async throws {
        let anonymous: (inout ObjectStorageClient.Configuration) -> Void = { $0.credentials = nil }
        _ = try await LocalObjectServer.withRunning(vendor: .s3, logger: .scanning, configureClient: anonymous) {
            client,
            _ in
            await #expect(throws: ObjectStorageError.self) {
                _ = try await client.presignPost(bucket: "uploads", key: "a")
            }
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import ObjectStorage

/// The app's two pages: `GET /` (the upload form and the uploads so far) and `GET /uploaded`, where the bucket
/// redirects the browser after an upload (the same page, naming the key just stored).
///
/// Each page signs a fresh POST policy: any key under ``prefix``, 1 byte to ``maxSize`` bytes, valid for
/// 10 minutes, with a redirect back to this app. The app never receives the file.
struct UploadSite: Sendable {
    /// The client that signs the forms and the download links, and lists the uploads.
    let client: ObjectStorageClient
    /// The bucket the browser posts to.
    let bucket: String
    /// The key prefix of every upload, ending in `/`, e.g. `uploads/`.
    let prefix: String
    /// The largest file the policy allows, in bytes.
    let maxSize: Int64

    /// The routes: `GET /` and `GET /uploaded` (the POST form), `GET /presigned` and `GET /presign?name=` (the
    /// presigned PUT).
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/presigned") { _, _ in PresignedPage() }
        router.get("/presign") { request, _ in
            // The name is the last component the browser gave; the key stays under the prefix.
            let name = request.uri.queryParameters["name"].map(String.init)?.split(separator: "/").last.map(String.init)
            guard let name, !name.isEmpty, name != "..", name != "." else {
                throw HTTPError(.badRequest, message: "name a file: /presign?name=NAME")
            }
            let key = self.prefix + name
            let url = try await self.client.presign(
                bucket: self.bucket,
                key: key,
                method: "PUT",
                expires: .seconds(600),
                headers: ["Content-Type": "application/octet-stream"]
            )
            return PresignedUpload(url: url.url, key: key)
        }
        router.get("/") { request, _ in try await self.page(for: request, uploadedKey: nil) }
        router.get("/uploaded") { request, _ in
            // The bucket appends bucket, key and etag to the redirect; the key is only echoed, escaped.
            try await self.page(for: request, uploadedKey: request.uri.queryParameters["key"].map(String.init))
        }
        return router
    }

    /// The page: a form signed for this browser, then a download link per upload.
    func page(for request: Request, uploadedKey: String?) async throws -> UploadPage {
        let form = try await self.client.presignPost(
            bucket: self.bucket,
            key: self.prefix + "${filename}",
            expires: .seconds(600),
            contentLength: 1...self.maxSize,
            successActionRedirect: try Self.origin(of: request) + "/uploaded"
        )
        return UploadPage(
            form: form,
            maxSize: self.maxSize,
            uploadedKey: uploadedKey,
            uploads: try await self.uploads(),
            prefix: self.prefix
        )
    }

    /// The first 100 uploads, each with a GET URL valid for an hour that needs no credentials.
    func uploads() async throws -> [UploadPage.Upload] {
        var uploads: [UploadPage.Upload] = []
        for try await page in self.client.listObjects(bucket: self.bucket, prefix: self.prefix, maxKeys: 100) {
            for object in page.contents {
                let link = try await self.client.presign(bucket: self.bucket, key: object.key, expires: .seconds(3600))
                uploads.append(UploadPage.Upload(key: object.key, size: object.size, downloadURL: link.url))
            }
            break  // one page is enough for a sample
        }
        return uploads
    }

    /// Sets the bucket's CORS rules so that pages of `origins` may PUT to it with a `Content-Type` and read the
    /// `ETag` of the answer (replacing the rules it had).
    func allowUploads(from origins: [String]) async throws {
        let rule = CORSRule(
            id: "BrowserUploadSample",
            allowedOrigins: origins,
            allowedMethods: ["PUT"],
            allowedHeaders: ["content-type"],
            exposeHeaders: ["ETag"],
            maxAgeSeconds: 60
        )
        try await self.client.putBucketCORS(bucket: self.bucket, CORSConfiguration(rules: [rule]))
    }

    /// `http://HOST:PORT` as the browser reached the app: the bucket's redirect must be an absolute URL.
    ///
    /// - Throws: `HTTPError(.badRequest)` for a request without a plain `host[:port]` authority.
    static func origin(of request: Request) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard let authority = request.head.authority, !authority.isEmpty, authority.allSatisfy(allowed.contains)
        else {
            throw HTTPError(.badRequest, message: "The Host header must name this app as host[:port].")
        }
        return "http://\(authority)"
    }
}

/// The answer of `GET /presign`: where the page sends its PUT, and the key it writes.
struct PresignedUpload: ResponseEncodable {
    var url: String
    var key: String
}

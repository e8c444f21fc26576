//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird
import ObjectStorage

/// The HTML page: a plain form that posts the file to the bucket, then the uploads with their download links.
///
/// Every value interpolated into the HTML (keys, URLs, field values) is escaped with ``escape(_:)``.
struct UploadPage: ResponseGenerator {
    /// An uploaded object and a presigned URL to download it.
    struct Upload: Sendable {
        var key: String
        var size: Int64
        var downloadURL: String
    }

    /// The signed form: its URL and hidden fields.
    var form: PresignedPost
    /// The largest file the policy allows, in bytes.
    var maxSize: Int64
    /// The key the bucket reported after an upload, if the browser came back from one.
    var uploadedKey: String?
    /// The uploads to list.
    var uploads: [Upload]
    /// The prefix left out of the names shown.
    var prefix: String

    /// The page as `text/html`.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"  // each page carries its own signed policy
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: self.html)))
    }

    /// The document.
    var html: String {
        // The fields in the form's order, then the file last: the bucket ignores fields after the file.
        let fields = self.form.fields.map { field in
            #"    <input type="hidden" name="\#(escape(field.name))" value="\#(escape(field.value))">"#
        }
        let notice = self.uploadedKey.map { #"<p id="notice">Uploaded <code>\#(escape($0))</code>.</p>"# } ?? ""
        let items = self.uploads.map { upload in
            let name = upload.key.hasPrefix(self.prefix) ? String(upload.key.dropFirst(self.prefix.count)) : upload.key
            return #"  <li><a class="download" href="\#(escape(upload.downloadURL))">\#(escape(name))</a>"#
                + " (\(upload.size) bytes)</li>"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Upload to the bucket</title></head>
            <body>
            <h1>Upload a file straight to the bucket</h1>
            \(notice)
            <form id="upload" action="\(escape(self.form.url))" method="post" enctype="multipart/form-data">
            \(fields.joined(separator: "\n"))
                <input type="file" name="file" required>
                <button type="submit">Upload</button>
            </form>
            <p>Up to \(self.maxSize) bytes. The file goes to the bucket, never through this app.</p>
            <h2>Uploads</h2>
            <ul id="uploads">
            \(items.isEmpty ? "  <li>none yet</li>" : items.joined(separator: "\n"))
            </ul>
            </body>
            </html>

            """
    }
}

/// `text` with the five characters that are special in HTML text and attribute values escaped.
func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.append(character)
        }
    }
    return escaped
}

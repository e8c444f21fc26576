//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Hummingbird

/// The page of the presigned-PUT flow: the script asks the app for a URL (`GET /presign?name=`), then sends the
/// file to the bucket with `XMLHttpRequest`, a progress bar following the upload. A `PUT` from this page to the
/// bucket is a cross-origin request that needs a preflight: the bucket's CORS rules must admit this origin,
/// `PUT` and the `Content-Type` header, and expose `ETag` for the page to show it.
struct PresignedPage: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Self.html)))
    }

    static let html = """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Upload with a presigned PUT</title></head>
        <body>
        <h1>Upload with a presigned PUT</h1>
        <p>The file goes from this page to the bucket with <code>XMLHttpRequest</code>: the bucket's CORS rules
        must admit this page's origin.</p>
        <input id="file" type="file">
        <progress id="progress" max="100" value="0"></progress>
        <p id="status">Pick a file.</p>
        <script>
        const status = document.getElementById("status");
        const progress = document.getElementById("progress");
        document.getElementById("file").addEventListener("change", async (event) => {
            const file = event.target.files[0];
            if (!file) { return; }
            progress.value = 0;
            status.textContent = "signing…";
            const signed = await (await fetch("/presign?name=" + encodeURIComponent(file.name))).json();
            const request = new XMLHttpRequest();
            request.open("PUT", signed.url);
            request.setRequestHeader("Content-Type", "application/octet-stream");
            request.upload.onprogress = (e) => {
                if (e.lengthComputable) { progress.value = Math.round(100 * e.loaded / e.total); }
            };
            request.onload = () => {
                if (request.status === 200) {
                    progress.value = 100;
                    status.textContent = "uploaded " + signed.key + " (ETag " + request.getResponseHeader("ETag") + ")";
                } else {
                    status.textContent = "failed: the bucket answered " + request.status;
                }
            };
            // The browser gives a page no detail on a refused preflight: only this error.
            request.onerror = () => {
                status.textContent = "failed: the browser refused the request (CORS); try objstore cors check";
            };
            status.textContent = "uploading…";
            request.send(file);
        });
        </script>
        </body>
        </html>

        """
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A small extension → media type table for uploads without an explicit content type.
enum MediaTypes {
    static let fallback = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "txt": "text/plain", "log": "text/plain", "md": "text/markdown", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript",
        "mjs": "text/javascript", "xml": "application/xml", "json": "application/json",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "7z": "application/x-7z-compressed", "wasm": "application/wasm",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "bmp": "image/bmp",
        "tif": "image/tiff", "tiff": "image/tiff", "avif": "image/avif", "heic": "image/heic",
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "flac": "audio/flac", "m4a": "audio/mp4",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "avi": "video/x-msvideo",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "apk": "application/vnd.android.package-archive", "iso": "application/x-iso9660-image",
    ]

    /// The media type for `path`'s extension (case-insensitive), or ``fallback``.
    static func guess(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        let ext = name[name.index(after: dot)...].lowercased()
        return byExtension[ext] ?? fallback
    }
}

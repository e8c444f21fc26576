//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Foundation
import ObjectStorage
import ObjectStorageSigning

/// `objstore presign-post URL`: prints a signed POST policy form for a browser upload.
struct PresignPostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presign-post",
        abstract: "Print a signed POST policy form that lets a browser upload a file to a bucket.",
        discussion: """
            URL is oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY. A URL ending in '/' (or naming only the \
            bucket) allows any key under that prefix: the form's key field is PREFIX/${filename}, which the service \
            completes with the posted file's name. Post the fields in order, then the file in a field named 'file'. \
            Without --json or --html, prints the URL on the first line and one NAME=VALUE field per line, control \
            characters escaped (a newline in a key prints as \\n; --json gives the exact values). \
            Credentials come from the environment or profile files only.
            """
    )

    @Argument(help: "oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY; a trailing '/' allows any key under it.")
    var url: String

    @Option(help: "The largest file the form accepts, in bytes or with a K, M or G suffix (1024-based), e.g. 10M.")
    var maxSize: ByteCount?

    @Option(
        help:
            "The file's content type; a value ending in '/' (e.g. image/) is a prefix the form's own Content-Type field must start with."
    )
    var contentType: String?

    @Option(help: "Seconds the form stays valid (1 to 604800).")
    var expires: Int64 = 600

    @OptionGroup var target: SigningTargetOptions

    @Flag(help: "Print {\"url\": …, \"fields\": {…}} as JSON.")
    var json = false

    @Flag(help: "Print a ready HTML form with a file picker.")
    var html = false

    func validate() throws {
        if json && html { throw ValidationError("--json and --html cannot be used together") }
    }

    func run() async throws {
        guard let location = try ObjectURL(parsing: url) else {
            throw CLIError.usage("URL: '\(url)' is not oss://BUCKET/KEY, obs://BUCKET/KEY or s3://BUCKET/KEY")
        }
        let key = Self.formKey(location.key)
        var bucketLocation = location
        bucketLocation.key = nil
        let context = try SigningContext(
            location: bucketLocation,
            target: target,
            method: "POST"
        )
        var fields: [PresignedPost.Field] = []
        var conditions: [PostPolicy.Condition] = []
        if let contentType {
            if contentType.hasSuffix("/") {
                conditions.append(.startsWith(field: "Content-Type", prefix: contentType))
            } else {
                fields.append(PresignedPost.Field(name: "Content-Type", value: contentType))
            }
        }
        if let maxSize {
            guard maxSize.bytes >= 0 else { throw CLIError.usage("--max-size: must not be negative") }
            conditions.append(.contentLengthRange(0...maxSize.bytes))
        }
        let post = try await context.signing { credentials throws(SigningError) in
            try context.signer.presignPost(
                context.request,
                key: key,
                fields: fields,
                conditions: conditions,
                credentials: credentials,
                expires: .seconds(expires),
                at: context.date
            )
        }
        if json {
            try JSONOutput.print(
                PresignPostOutput(
                    url: post.url,
                    fields: Dictionary(
                        post.fields.map { ($0.name, $0.value) },
                        uniquingKeysWith: { first, _ in first }
                    ),
                    expiresAt: JSONOutput.iso8601(post.expiration)
                )
            )
        } else if html {
            print(Self.htmlForm(post, contentTypePrefix: contentType?.hasSuffix("/") == true ? contentType : nil))
        } else {
            // One line per field: a key or content type holding a newline must not end its line and forge another.
            printLine(post.url)
            for field in post.fields { printLine("\(field.name)=\(field.value)") }
        }
    }

    /// The key field: the key itself, or `PREFIX${filename}` for a prefix (a key ending in `/`, or none).
    static func formKey(_ key: String?) -> String {
        guard let key, !key.isEmpty else { return RequestSigner.filenameVariable }
        return key.hasSuffix("/") ? key + RequestSigner.filenameVariable : key
    }

    /// An HTML form posting the fields and then a picked file. With a content-type prefix, a small script sets
    /// the `Content-Type` field from the picked file (the policy requires it to start with the prefix).
    static func htmlForm(_ post: PresignedPost, contentTypePrefix: String?) -> String {
        var lines = [
            "<form action=\"\(escape(post.url))\" method=\"post\" enctype=\"multipart/form-data\">"
        ]
        for field in post.fields {
            lines.append("  <input type=\"hidden\" name=\"\(escape(field.name))\" value=\"\(escape(field.value))\">")
        }
        if let contentTypePrefix {
            lines.append("  <input type=\"hidden\" name=\"Content-Type\" value=\"\(escape(contentTypePrefix))\">")
            lines.append(
                "  <input type=\"file\" name=\"file\" accept=\"\(escape(contentTypePrefix))*\" "
                    + "onchange=\"this.form.elements['Content-Type'].value = this.files[0] ? this.files[0].type : ''\">"
            )
        } else {
            lines.append("  <input type=\"file\" name=\"file\">")
        }
        lines.append("  <input type=\"submit\" value=\"Upload\">")
        lines.append("</form>")
        return lines.joined(separator: "\n")
    }

    /// Text safe inside a double-quoted HTML attribute.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "\"": result += "&quot;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}

private struct PresignPostOutput: Encodable {
    var url: String
    var fields: [String: String]
    var expiresAt: String
}

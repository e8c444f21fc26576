//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageTestSupport
import Testing

/// A key is whatever the bucket's writer chose: printed as it is, it could end a line early, recolour the terminal or
/// reverse the text after it. Every human-readable line shows such characters escaped; `--json` keeps the exact key.
struct TerminalTextTests {
    /// An escape sequence, a right-to-left override and a line break.
    static let key = "dir/red\u{1B}[31m\u{202E}txt.exe\nline"
    /// The same key as a line shows it.
    static let shown = #"dir/red\u{1B}[31m\u{202E}txt.exe\nline"#

    @Test
    func linesShowControlCharactersInKeysEscaped() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        let scratch = try ObjectsScratch()
        let note = scratch.path("note.txt")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: note))
        try await cli.succeed(["mb", "s3://bkt"])

        let upload = try await cli.run(["cp", note, "s3://bkt/\(Self.key)"])
        #expect(upload.status == 0)
        #expect(reportedTransfer(upload.standardOutput)?.action == "upload: \(note) to s3://bkt/\(Self.shown)")

        let listed = try await cli.succeed(["ls", "--recursive", "s3://bkt"])
        #expect(listed.hasSuffix(" 6 \(Self.shown)\n"))
        #expect(listed.split(separator: "\n").count == 1)
        let json = try await cli.succeed(["ls", "--recursive", "--json", "s3://bkt"])
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        )
        #expect(object["key"] as? String == Self.key)

        let stat = try await cli.succeed(["stat", "s3://bkt/\(Self.key)"])
        #expect(stat.hasPrefix("URL: s3://bkt/\(Self.shown)\nSize: 6\n"))

        // The download refuses the key as a file name; the reason quotes it, escaped.
        let download = try await cli.run(["cp", "--recursive", "s3://bkt/dir/", scratch.path("down")])
        #expect(download.status == 2)
        #expect(download.standardError.contains(#"skipped 'red\u{1B}[31m\u{202E}txt.exe\nline'"#))

        // Debug logs carry the key in their metadata.
        let missing = try await cli.run(["stat", "s3://bkt/\(Self.key)-missing", "--log-level", "debug"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("os.key=\(Self.shown)-missing"))

        let removed = try await cli.run(["rm", "s3://bkt/\(Self.key)"])
        #expect(removed.standardOutput == "delete: s3://bkt/\(Self.shown)\n")

        for result in [upload, download, missing, removed] {
            #expect(!(result.standardOutput + result.standardError).unicodeScalars.contains { $0 == "\u{1B}" })
            #expect(!(result.standardOutput + result.standardError).unicodeScalars.contains { $0 == "\u{202E}" })
        }
        #expect(!(listed + stat).unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    }
}

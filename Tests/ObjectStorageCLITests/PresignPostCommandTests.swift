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

/// `objstore presign-post`: the printed form, posted by curl as a browser would, stores the object in each
/// dialect, and the limits it states are enforced by the local server.
struct PresignPostCommandTests {
    static let curl = URL(fileURLWithPath: "/usr/bin/curl")

    /// Posts `fields` and then `file` with curl; returns the HTTP status and the body.
    static func curlPost(url: String, fields: [(String, String)], file: String) async throws -> (Int, String) {
        var arguments = ["-sS", "-w", "\n%{http_code}", url]
        for (name, value) in fields { arguments += ["--form-string", "\(name)=\(value)"] }
        arguments += ["-F", "file=@\(file)"]
        let result = try await CLIProcess.run(
            executable: curl,
            arguments: arguments,
            environment: CLIProcess.isolatedEnvironment([:]),
            timeLimit: .seconds(60)
        )
        #expect(result.status == 0, "curl: \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    struct Form: Decodable {
        var url: String
        var fields: [String: String]
        var expiresAt: String
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")), arguments: ObjectsDialect.all)
    func jsonFormPostedWithCurlStoresTheObject(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        try await cli.succeed(["mb", dialect.url("drop")])
        let output = try await cli.succeed([
            "presign-post", dialect.url("drop/in/"), "--max-size", "1K", "--content-type", "text/plain", "--json",
        ])
        let form = try JSONDecoder().decode(Form.self, from: Data(output.utf8))
        #expect(form.url == "\(server.endpoint)/drop")
        #expect(form.fields["key"] == "in/${filename}")
        #expect(form.fields["Content-Type"] == "text/plain")
        let scratch = try ObjectsScratch()
        let small = scratch.path("note.txt")
        let content = Array("posted by curl from objstore presign-post\n".utf8)
        #expect(FileManager.default.createFile(atPath: small, contents: Data(content)))
        let fields = form.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let (status, _) = try await Self.curlPost(url: form.url, fields: fields, file: small)
        #expect(status == 204)
        let cat = try await cli.run(["cat", dialect.url("drop/in/note.txt")])
        #expect(cat.status == 0, "\(cat.standardError)")
        #expect(cat.standardOutputBytes == content)

        let large = scratch.path("large.txt")
        #expect(FileManager.default.createFile(atPath: large, contents: Data(repeating: 65, count: 1025)))
        let (refused, body) = try await Self.curlPost(url: form.url, fields: fields, file: large)
        #expect(refused == 400)
        #expect(body.contains("<Code>EntityTooLarge</Code>"))
        let missing = try await cli.run(["stat", dialect.url("drop/in/large.txt")])
        #expect(missing.status != 0)
    }

    @Test(arguments: ObjectsDialect.all)
    func textFormEscapesControlCharactersInEveryValue(_ dialect: ObjectsDialect) async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: dialect)
        // A newline in the key would otherwise end its line and forge a field line of its own.
        let url = dialect.url("drop/a\nkey=evil")
        let signing = ["--date", "2030-01-02T03:04:05Z", "--content-type", "text/plain\u{1B}[2J"]
        let text = try await cli.succeed(["presign-post", url] + signing)
        let json = try await cli.succeed(["presign-post", url, "--json"] + signing)
        let form = try JSONDecoder().decode(Form.self, from: Data(json.utf8))
        #expect(form.fields["key"] == "a\nkey=evil")

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        let expected = [form.url] + form.fields.map { "\($0.key)=\(Self.escaped($0.value))" }
        #expect(lines.dropLast().count == expected.count, "\(text)")
        #expect(lines.first == form.url)
        #expect(Set(lines.dropLast()) == Set(expected), "\(text)")
        #expect(lines.contains("key=a\\nkey=evil"))
        #expect(lines.contains("Content-Type=text/plain\\u{1B}[2J"))
        #expect(!lines.contains { $0.hasPrefix("key=evil") })
        #expect(!text.contains("\u{1B}"))
    }

    /// What the CLI prints for a value holding a newline or an escape, as `ObjectNameRules.escapingControls` writes
    /// them (the two this test uses).
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u{1B}")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func textFormForAnExactKeyAndTheHTMLForm() async throws {
        let server = try await ObjectsLocalServer.start()
        defer { server.stop() }
        let cli = ObjectsCLI(server: server, dialect: .s3)
        try await cli.succeed(["mb", "s3://drop"])
        let output = try await cli.succeed(["presign-post", "s3://drop/exact.bin", "--expires", "60"])
        var lines = output.split(separator: "\n").map(String.init)
        let url = lines.removeFirst()
        let fields = lines.compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
        #expect(fields.first?.0 == "key")
        #expect(fields.first?.1 == "exact.bin")
        #expect(fields.map(\.0).contains("x-amz-signature"))
        let scratch = try ObjectsScratch()
        let file = scratch.path("picked-name.bin")
        #expect(FileManager.default.createFile(atPath: file, contents: Data([0, 1, 2, 3])))
        let (status, _) = try await Self.curlPost(url: url, fields: fields, file: file)
        #expect(status == 204)
        let cat = try await cli.run(["cat", "s3://drop/exact.bin"])
        #expect(cat.standardOutputBytes == [0, 1, 2, 3])

        let html = try await cli.succeed(["presign-post", "s3://drop/", "--content-type", "image/", "--html"])
        #expect(
            html.hasPrefix("<form action=\"\(server.endpoint)/drop\" method=\"post\" enctype=\"multipart/form-data\">")
        )
        #expect(html.contains("<input type=\"hidden\" name=\"key\" value=\"${filename}\">"))
        #expect(html.contains("<input type=\"file\" name=\"file\" accept=\"image/*\""))

        let refused = try await cli.run(["presign-post", "s3://drop/", "--expires", "604801"])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("expiry"))
    }
}

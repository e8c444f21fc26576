//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageTestSupport
import Testing

/// The CLI's exit-status contract: 64 usage (naming the bad flag), 65 invalid input, 77 no credentials.
struct ExitStatusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var environment: [String: String]
        var status: Int32
        /// Text the error message must contain (the flag or variable at fault); `nil` for a success.
        var mentions: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let oss = ["OSS_ACCESS_KEY_ID": "LTAI5tFixedTestAccessKeyId", "OSS_ACCESS_KEY_SECRET": "secret"]

    static let cases: [Case] = [
        Case(arguments: ["presign", "oss://b/k", "--bogus"], environment: oss, status: 64, mentions: "--bogus"),
        Case(
            arguments: ["presign", "oss://b/k", "--method", "PATCH"],
            environment: oss,
            status: 64,
            mentions: "--method"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--signature", "obs"],
            environment: oss,
            status: 64,
            mentions: "--signature"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--expires", "soon"],
            environment: oss,
            status: 64,
            mentions: "--expires"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--date", "yesterday"],
            environment: oss,
            status: 64,
            mentions: "--date"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--header", "NoColon"],
            environment: oss,
            status: 64,
            mentions: "--header"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--endpoint", "https://h/path"],
            environment: oss,
            status: 64,
            mentions: "--endpoint"
        ),
        Case(arguments: ["presign", "ftp://b/k"], environment: oss, status: 64, mentions: "ftp://b/k"),
        Case(
            arguments: ["presign", "oss://bucket-only"],
            environment: oss,
            status: 64,
            mentions: "names a bucket, not an object"
        ),
        Case(
            arguments: ["sign", "s3://b/k", "--payload-hash", "xyz"],
            environment: oss,
            status: 64,
            mentions: "--payload-hash"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--expires", "604801"],
            environment: oss,
            status: 65,
            mentions: "604801"
        ),
        Case(
            arguments: ["presign", "oss://b/k", "--expires", "0"],
            environment: oss,
            status: 65,
            mentions: "--expires"
        ),
        Case(
            arguments: ["presign", "oss://b/" + String(repeating: "k", count: 1100)],
            environment: oss,
            status: 65,
            mentions: "1100 UTF-8 bytes; oss allows 1023"
        ),
        Case(
            arguments: ["presign", "s3://b/" + String(repeating: "k", count: 1025)],
            environment: oss,
            status: 65,
            mentions: "s3 allows 1024"
        ),
        Case(arguments: ["presign", "oss://b/" + String(repeating: "k", count: 1023)], environment: oss, status: 0),
        Case(
            arguments: ["presign", "oss://b/k", "--date", "99999999999999999"],
            environment: oss,
            status: 65,
            mentions: "--date"
        ),
        Case(arguments: ["mirror", "a", "b"], environment: oss, status: 64, mentions: "unknown command 'mirror'"),
        Case(arguments: ["sync", "a", "b"], environment: oss, status: 64, mentions: "one side must be a remote URL"),
        // The port once wrapped (99999 listened on 34463).
        Case(arguments: ["serve", "--memory", "--port", "99999"], environment: [:], status: 64, mentions: "--port"),
        Case(arguments: ["serve", "--memory", "--port", "65536"], environment: [:], status: 64, mentions: "--port"),
        Case(arguments: ["serve", "--memory", "--port", "-1"], environment: [:], status: 64, mentions: "--port"),
        Case(arguments: ["serve", "--memory", "--port=-1"], environment: [:], status: 64, mentions: "--port"),
        Case(
            arguments: ["serve", "--memory", "--port", "99999999999999999999"],
            environment: [:],
            status: 64,
            mentions: "--port"
        ),
        Case(
            arguments: ["serve", "--memory", "--data", "/nonexistent/objstore"],
            environment: [:],
            status: 64,
            mentions: "--memory and --data"
        ),
        Case(arguments: ["cat", "oss://b/k", "--range", "+5-9"], environment: oss, status: 64, mentions: "--range"),
        Case(arguments: ["cat", "oss://b/k", "--range", "5-+9"], environment: oss, status: 64, mentions: "--range"),
        Case(arguments: ["ls"], environment: [:], status: 64, mentions: "objstore ls oss://"),
        // A bucket, a prefix or a directory where one object was expected: the message says what to add.
        Case(
            arguments: ["cp", "oss://b/photos/", "/tmp/x"],
            environment: oss,
            status: 64,
            mentions: "names a prefix, not an object; add --recursive (-r)"
        ),
        Case(
            arguments: ["cp", "oss://b", "/tmp/x"],
            environment: oss,
            status: 64,
            mentions: "names a bucket, not an object; add --recursive (-r)"
        ),
        Case(
            arguments: ["cp", "/", "oss://b/root/"],
            environment: oss,
            status: 64,
            mentions: "'/' is a directory; add --recursive (-r)"
        ),
        Case(arguments: ["ls", "--recursive"], environment: oss, status: 64, mentions: "--recursive"),
        Case(arguments: ["presign", "oss://b/k"], environment: [:], status: 77, mentions: "OSS_ACCESS_KEY_ID"),
        Case(arguments: ["presign", "s3://b/k"], environment: [:], status: 77, mentions: "AWS_ACCESS_KEY_ID"),
        Case(
            arguments: ["presign", "obs://b/k"],
            environment: ["OBS_ACCESS_KEY_ID": "id-without-secret"],
            status: 77,
            mentions: "OBS_SECRET_ACCESS_KEY"
        ),
    ]

    @Test(arguments: cases)
    func exitsWithTheDocumentedStatus(_ testCase: Case) async throws {
        let result = try await CLIProcess.run(
            testCase.arguments,
            environment: CLIProcess.isolatedEnvironment(testCase.environment)
        )
        #expect(result.status == testCase.status, "stderr: \(result.standardError)")
        guard let mentions = testCase.mentions else { return }
        #expect(result.standardError.contains(mentions), "stderr: \(result.standardError)")
        // Ours start with `objstore: ` and the argument parser's with `Error: `; no enum case name such as
        // `invalidArgument:` leaks into either.
        let prefixed = result.standardError.hasPrefix("objstore: ") || result.standardError.hasPrefix("Error: ")
        #expect(prefixed, "stderr: \(result.standardError)")
        #expect(!result.standardError.contains("invalidArgument"), "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.contains("secret"), "a secret reached the error output")
    }

    @Test("--version prints the version on standard output and exits 0")
    func version() async throws {
        let result = try await CLIProcess.run(["--version"], environment: CLIProcess.isolatedEnvironment([:]))
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.standardOutput.hasPrefix("objstore 0."), "\(result.standardOutput)")
    }
}

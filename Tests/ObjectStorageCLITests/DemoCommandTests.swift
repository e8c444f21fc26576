//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

/// `objstore demo` runs end to end on the embedded server and its summary tells the truth.
struct DemoCommandTests {
    @Test func demoVerifiesEverySchemeAndRefusesTamperedURLs() throws {
        let result = try CLIProcess.run(["demo"], environment: CLIProcess.isolatedEnvironment())
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        for scheme in ["OSS V4", "OSS V1", "OBS", "AWS V2", "S3 SigV4"] {
            let row = try #require(lines.first { $0.hasPrefix(scheme + " ") }, "no summary row for \(scheme)")
            #expect(row.contains("200 bytes match"), "\(row)")
            #expect(row.contains("200 length 33"), "\(row)")
            #expect(row.contains("403 SignatureDoesNotMatch"), "\(row)")
        }
        #expect(lines.last == "All schemes verified by the server; tampered URLs refused.")
    }
}

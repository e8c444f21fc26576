//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ConsumerKit

// Usage: ConsumerApp BUCKET FILE KEY (with OSS_ENDPOINT, OSS_REGION and the OSS keys set).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 3 {
    let backups = try Backups.fromEnvironment(bucket: arguments[0])
    let result = try await backups.backUp(arguments[1], as: arguments[2]) {
        print("\(Int($0.fractionCompleted * 100)) %")
    }
    print("uploaded \(result.objectSize) bytes; share: \(try await backups.shareLink(arguments[2]))")
} else {
    print("usage: ConsumerApp BUCKET FILE KEY")
}

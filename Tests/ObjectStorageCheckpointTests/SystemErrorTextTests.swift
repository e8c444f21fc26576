//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageCheckpoint
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("System error text")
struct SystemErrorTextTests {
    @Test("errno values read as the system's words, with the number")
    func describesErrno() {
        #expect(SystemErrorText.describe(ENOSPC) == "No space left on device")
        #expect(SystemErrorText.describe(EROFS) == "Read-only file system")
        #expect(SystemErrorText.withNumber(ENOSPC) == "No space left on device (errno \(ENOSPC))")
    }
}

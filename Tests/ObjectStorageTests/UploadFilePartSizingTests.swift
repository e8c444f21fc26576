//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorage
import ObjectStorageSigning
import Testing

@Suite("uploadFile part-size policy")
struct UploadFilePartSizingTests {
    @Test("S3: a part size below 5 MiB is raised to 5 MiB")
    func s3ClampsUp() throws {
        let plan = try UploadPartSizing.plan(fileSize: 11 << 20, requestedPartSize: 1 << 20, vendor: .s3)
        #expect(plan.partSize == 5_242_880)
        #expect(plan.partCount == 3)
        #expect(plan.clampedFrom == 1_048_576)
        #expect(!plan.enlargedToFit)
    }

    @Test("OSS and OBS: 50 KB is raised to 100 KiB", arguments: [StorageVendor.oss, .obs])
    func ossClampsUp(_ vendor: StorageVendor) throws {
        let plan = try UploadPartSizing.plan(fileSize: 1_000_000, requestedPartSize: 50_000, vendor: vendor)
        #expect(plan.partSize == 102_400)
        #expect(plan.partCount == 10)
        #expect(plan.clampedFrom == 50_000)
    }

    @Test("a part size above 5 GiB is lowered to 5 GiB")
    func clampsDown() throws {
        let plan = try UploadPartSizing.plan(fileSize: 20 << 30, requestedPartSize: 6 << 30, vendor: .oss)
        #expect(plan.partSize == 5_368_709_120)
        #expect(plan.partCount == 4)
        #expect(plan.clampedFrom == 6_442_450_944)
    }

    @Test("a size within the limits is kept")
    func keepsValidSize() throws {
        let plan = try UploadPartSizing.plan(fileSize: 100, requestedPartSize: 8 << 20, vendor: .s3)
        #expect(plan.partSize == 8_388_608)
        #expect(plan.partCount == 1)
        #expect(plan.clampedFrom == nil)
    }

    @Test("100 GiB in 5 MiB parts is enlarged to 11 MiB parts (10.24 MiB rounded up) to fit 10,000 parts")
    func fitsTenThousandParts() throws {
        let plan = try UploadPartSizing.plan(fileSize: 100 << 30, requestedPartSize: 5 << 20, vendor: .s3)
        #expect(plan.partSize == 11_534_336)
        #expect(plan.partCount == 9_310)
        #expect(plan.enlargedToFit)
    }

    @Test("exactly 10,000 parts is not enlarged")
    func exactlyTenThousand() throws {
        let plan = try UploadPartSizing.plan(fileSize: 10_000 * 102_400, requestedPartSize: 102_400, vendor: .obs)
        #expect(plan.partSize == 102_400)
        #expect(plan.partCount == 10_000)
        #expect(!plan.enlargedToFit)
    }

    @Test("more than 10,000 × 5 GiB is refused")
    func refusesTooLarge() {
        #expect(throws: ObjectStorageError.self) {
            try UploadPartSizing.plan(fileSize: 53_687_091_200_001, requestedPartSize: 5 << 20, vendor: .s3)
        }
        #expect(throws: Never.self) {
            try UploadPartSizing.plan(fileSize: 53_687_091_200_000, requestedPartSize: 5 << 20, vendor: .s3)
        }
    }

    @Test("a zero or negative part size is refused", arguments: [Int64(0), -1])
    func refusesNonPositive(_ size: Int64) {
        #expect(throws: ObjectStorageError.self) {
            try UploadPartSizing.plan(fileSize: 10, requestedPartSize: size, vendor: .oss)
        }
    }

    @Test("an empty file is one part")
    func emptyFile() throws {
        let plan = try UploadPartSizing.plan(fileSize: 0, requestedPartSize: 5 << 20, vendor: .oss)
        #expect(plan.partCount == 1)
    }
}

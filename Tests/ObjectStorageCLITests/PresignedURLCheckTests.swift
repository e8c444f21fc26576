//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import ObjectStorageCLI

/// What `cors check` reads from a presigned URL itself: each scheme's expiry, and a refusal that is not the
/// signature's.
struct PresignedURLCheckTests {
    /// 2027-01-15T08:00:00Z.
    static let signed = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func eachSchemesExpiryIsRead() {
        let sigV4 = "https://b.s3.amazonaws.com/k?X-Amz-Date=20270115T080000Z&X-Amz-Expires=600&X-Amz-Signature=ab"
        let ossV4 = "https://b.oss-cn-hangzhou.aliyuncs.com/k?x-oss-date=20270115T080000Z&x-oss-expires=600"
        let epoch = "https://b.obs.cn-north-4.myhuaweicloud.com/k?AccessKeyId=A&Expires=1800000600&Signature=s"
        for url in [sigV4, ossV4, epoch] {
            #expect(
                PresignedURLCheck(url: url, now: Self.signed).expiry == Self.signed.addingTimeInterval(600),
                "\(url)"
            )
        }
        #expect(
            PresignedURLCheck(url: "https://b/k?X-Amz-Date=2027-01-15&X-Amz-Expires=600", now: Self.signed).expiry
                == nil
        )
        #expect(PresignedURLCheck(url: "https://b/k", now: Self.signed).expiry == nil)
    }

    @Test func anExpiredURLOrOneRefusedBeforeItsSignatureIsNamed() {
        let url = "https://b.s3.amazonaws.com/k?X-Amz-Date=20270115T080000Z&X-Amz-Expires=600"
        let later = PresignedURLCheck(url: url, now: Self.signed.addingTimeInterval(601))
        #expect(later.findings(replay: nil).first?.hasPrefix("the URL expired at 2027-01-15T08:10:00Z") == true)
        let inTime = PresignedURLCheck(url: url, now: Self.signed.addingTimeInterval(60))
        #expect(inTime.findings(replay: nil).isEmpty)
        func reply(_ status: UInt, _ code: String) -> PlainHTTP.Reply {
            PlainHTTP.Reply(status: status, headers: [], body: [], errorCode: code, errorMessage: "said so")
        }
        #expect(inTime.findings(replay: reply(403, "SignatureDoesNotMatch")).isEmpty)
        let region = inTime.findings(replay: reply(400, "AuthorizationQueryParametersError"))
        #expect(region.first?.contains("(400 AuthorizationQueryParametersError: said so)") == true)
    }
}

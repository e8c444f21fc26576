//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning
import Testing

/// The CORS rules shared by the client (checks before sending, `cors check`) and the local server (preflights):
/// the document, the vendors' limits, and how a request is matched.
@Suite struct CORSConfigurationTests {
    static let rules = CORSConfiguration(rules: [
        CORSRule(id: "reads", allowedOrigins: ["*"], allowedMethods: ["GET", "HEAD"]),
        CORSRule(
            id: "uploads",
            allowedOrigins: ["https://*.example.com"],
            allowedMethods: ["PUT", "POST"],
            allowedHeaders: ["content-*", "x-amz-meta-owner"],
            exposeHeaders: ["ETag"],
            maxAgeSeconds: 600
        ),
    ])

    @Test func theFirstRuleThatAdmitsOriginMethodAndEveryHeaderAnswers() {
        let upload = CORSRequest(origin: "https://app.example.com", method: "PUT", headers: ["Content-Type"])
        #expect(Self.rules.firstRule(admitting: upload) == 1)
        #expect(Self.rules.firstRule(admitting: CORSRequest(origin: "http://any", method: "GET")) == 0)
        // One '*' stands for any run of characters, but the rest must be there around it.
        #expect(Self.rules.firstRule(admitting: CORSRequest(origin: "https://.example.com", method: "PUT")) == 1)
        #expect(Self.rules.firstRule(admitting: CORSRequest(origin: "https://example.com", method: "PUT")) == nil)
        #expect(Self.rules.firstRule(admitting: CORSRequest(origin: "http://app.example.com", method: "PUT")) == nil)
        // Header names match regardless of case; methods do not.
        let header = CORSRequest(origin: "https://a.example.com", method: "POST", headers: ["X-AMZ-META-OWNER"])
        #expect(Self.rules.firstRule(admitting: header) == 1)
        #expect(Self.rules.firstRule(admitting: CORSRequest(origin: "https://a.example.com", method: "put")) == nil)
    }

    @Test func theClosestRuleSaysWhatItLacks() throws {
        let request = CORSRequest(
            origin: "https://app.example.com",
            method: "PUT",
            headers: ["Content-Type", "X-Trace"]
        )
        #expect(Self.rules.firstRule(admitting: request) == nil)
        let closest = try #require(Self.rules.closestRule(to: request))
        #expect(closest.index == 1 && closest.rejectedHeaders == ["X-Trace"])
        #expect(!closest.rejectsOrigin && !closest.rejectsMethod && closest.distance == 1)
        let far = try #require(Self.rules.closestRule(to: CORSRequest(origin: "https://evil.test", method: "DELETE")))
        #expect(far.index == 0 && far.rejectsMethod && !far.rejectsOrigin)
        #expect(CORSRequest.headerNames(" Content-Type , ,x-amz-date") == ["Content-Type", "x-amz-date"])
    }

    @Test(arguments: [StorageVendor.s3, .oss, .obs])
    func theDocumentGoesAndComesBackTheSame(_ vendor: StorageVendor) throws {
        var configuration = Self.rules
        if vendor == .oss {
            configuration.responseVary = true
            for index in configuration.rules.indices { configuration.rules[index].id = nil }
        }
        let bytes = configuration.document(for: vendor)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("<CORSRule><ID>") == (vendor != .oss))
        #expect(text.contains("xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"") == (vendor == .s3))
        #expect(try CORSConfiguration(document: XMLNode.parse(bytes)) == configuration)
        #expect(configuration.violation(for: vendor) == nil)
    }

    @Test func aDocumentWithUnknownElementsOrValuesIsMalformed() throws {
        func read(_ text: String) throws(CORSViolation) -> CORSConfiguration {
            // The parser accepts these documents; only the reading refuses them.
            guard let root = try? XMLNode.parse(Array(text.utf8)) else { throw .malformed("unparsable test input") }
            return try CORSConfiguration(document: root)
        }
        #expect(throws: CORSViolation.self) { try read("<Cors><CORSRule/></Cors>") }
        #expect(throws: CORSViolation.self) {
            try read("<CORSConfiguration><CORSRule><AllowedOrigins>*</AllowedOrigins></CORSRule></CORSConfiguration>")
        }
        #expect(throws: CORSViolation.self) {
            try read("<CORSConfiguration><CORSRule><MaxAgeSeconds>ten</MaxAgeSeconds></CORSRule></CORSConfiguration>")
        }
        #expect(throws: CORSViolation.self) {
            try read("<CORSConfiguration><ResponseVary>yes</ResponseVary></CORSConfiguration>")
        }
    }

    @Test func eachVendorsLimitsAreItsOwn() {
        let one = CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"])
        #expect(CORSConfiguration(rules: []).violation(for: .s3) == .malformed("the CORS configuration has no rule"))
        let eleven = CORSConfiguration(rules: Array(repeating: one, count: 11))
        #expect(eleven.violation(for: .oss) == .tooManyRules(count: 11, limit: 10))
        #expect(eleven.violation(for: .s3) == nil && eleven.violation(for: .obs) == nil)
        #expect(
            CORSConfiguration(rules: Array(repeating: one, count: 101)).violation(for: .obs)
                == .tooManyRules(count: 101, limit: 100)
        )
        func violation(_ rule: CORSRule, _ vendor: StorageVendor = .s3) -> CORSViolation? {
            CORSConfiguration(rules: [rule]).violation(for: vendor)
        }
        #expect(
            violation(CORSRule(allowedOrigins: [], allowedMethods: ["GET"]))
                == .malformed("CORS rule 1 has no AllowedOrigin")
        )
        #expect(
            violation(CORSRule(allowedOrigins: ["*"], allowedMethods: []))
                == .malformed("CORS rule 1 has no AllowedMethod")
        )
        #expect(
            violation(CORSRule(allowedOrigins: ["*"], allowedMethods: ["PATCH"]))?.description.contains("'PATCH'")
                == true
        )
        #expect(violation(CORSRule(allowedOrigins: ["https://*.*.com"], allowedMethods: ["GET"])) != nil)
        #expect(violation(CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"], allowedHeaders: ["**"])) != nil)
        #expect(violation(CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"], exposeHeaders: ["x-*"])) != nil)
        #expect(
            violation(CORSRule(id: String(repeating: "i", count: 256), allowedOrigins: ["*"], allowedMethods: ["GET"]))
                != nil
        )
        let negative = CORSRule(allowedOrigins: ["*"], allowedMethods: ["GET"], maxAgeSeconds: -1)
        #expect(violation(negative, .s3) != nil && violation(negative, .obs) == nil)
        #expect(CORSConfiguration(rules: [one], responseVary: true).violation(for: .s3) != nil)
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorage
import ObjectStorageSigning

/// A CORS configuration as `objstore cors` reads and prints it: the services' XML (`<CORSConfiguration>`), or
/// aws-cli's JSON (`{"CORSRules": [{"AllowedOrigins": [...], ...}]}`), whichever the file holds.
struct CORSDocumentFile: Codable {
    struct Rule: Codable {
        var id: String?
        var allowedOrigins: [String]
        var allowedMethods: [String]
        var allowedHeaders: [String]?
        var exposeHeaders: [String]?
        var maxAgeSeconds: Int?

        enum CodingKeys: String, CodingKey {
            case id = "ID"
            case allowedOrigins = "AllowedOrigins"
            case allowedMethods = "AllowedMethods"
            case allowedHeaders = "AllowedHeaders"
            case exposeHeaders = "ExposeHeaders"
            case maxAgeSeconds = "MaxAgeSeconds"
        }
    }

    var rules: [Rule]
    var responseVary: Bool?

    enum CodingKeys: String, CodingKey {
        case rules = "CORSRules"
        case responseVary = "ResponseVary"
    }

    init(_ configuration: CORSConfiguration) {
        self.rules = configuration.rules.map {
            Rule(
                id: $0.id,
                allowedOrigins: $0.allowedOrigins,
                allowedMethods: $0.allowedMethods,
                allowedHeaders: $0.allowedHeaders.isEmpty ? nil : $0.allowedHeaders,
                exposeHeaders: $0.exposeHeaders.isEmpty ? nil : $0.exposeHeaders,
                maxAgeSeconds: $0.maxAgeSeconds
            )
        }
        self.responseVary = configuration.responseVary
    }

    var configuration: CORSConfiguration {
        CORSConfiguration(
            rules: self.rules.map {
                CORSRule(
                    id: $0.id,
                    allowedOrigins: $0.allowedOrigins,
                    allowedMethods: $0.allowedMethods,
                    allowedHeaders: $0.allowedHeaders ?? [],
                    exposeHeaders: $0.exposeHeaders ?? [],
                    maxAgeSeconds: $0.maxAgeSeconds
                )
            },
            responseVary: self.responseVary
        )
    }

    /// Reads the configuration in `bytes`, JSON when it starts with `{`, XML otherwise.
    ///
    /// - Parameter name: The file's name, as messages show it.
    /// - Throws: ``CLIError/invalidInput(_:)`` naming the file and, where the parser knows it, the line.
    static func read(_ bytes: [UInt8], name: String) throws(CLIError) -> CORSConfiguration {
        let file = ConfigurationFile(bytes: bytes, name: name, command: "cors", kind: "CORS configuration")
        if file.isJSON { return try file.decodeJSON(CORSDocumentFile.self).configuration }
        let root = try file.xmlRoot()
        do {
            return try CORSConfiguration(document: root)
        } catch {
            throw .invalidInput("cors: \(name) is not a CORS configuration: \(error)")
        }
    }
}

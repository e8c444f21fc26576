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
        let first = bytes.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        if first == UInt8(ascii: "{") {
            do {
                return try JSONDecoder().decode(CORSDocumentFile.self, from: Data(bytes)).configuration
            } catch {
                throw .invalidInput("cors: \(name) is not a CORS configuration in JSON: \(Self.describe(error))")
            }
        }
        let root: XMLNode
        do {
            root = try XMLNode.parse(bytes)
        } catch {
            let line = error.line.map { " at line \($0)" } ?? ""
            throw .invalidInput("cors: \(name) is not well-formed XML\(line): \(error.message)")
        }
        do {
            return try CORSConfiguration(document: root)
        } catch {
            throw .invalidInput("cors: \(name) is not a CORS configuration: \(error)")
        }
    }

    /// A decoding error as a sentence fragment: the JSON parser's own words (which give the line), or the path
    /// of the value that does not fit.
    private static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        case .keyNotFound(let key, let context):
            return "\(Self.path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(Self.path(context.codingPath)) is not what it should be (\(context.debugDescription))"
        @unknown default:
            return "\(decoding)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}

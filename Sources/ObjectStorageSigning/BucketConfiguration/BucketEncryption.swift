//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A bucket's default encryption: how the service encrypts an object written without an encryption header of its
/// own.
///
/// The same value for the three vendors, each written in its own words: KMS is `aws:kms` on S3, `KMS` on OSS and
/// `kms` on OBS; SM4 is OSS's alone.
public struct BucketEncryption: Sendable, Hashable {
    /// An encryption algorithm, by the vendor-neutral name (`AES256`, `KMS`, `SM4`); another name is sent as it is.
    public struct Algorithm: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The name: `AES256`, `KMS`, `SM4`, or a vendor's own (`aws:kms:dsse`).
        public var rawValue: String

        /// Creates an algorithm from its name.
        ///
        /// - Parameter rawValue: `AES256`, `KMS` or `SM4` (any case), a vendor's spelling of KMS (`aws:kms`,
        ///   `kms`), or another vendor-specific name, kept as it is.
        public init(rawValue: String) {
            switch rawValue.lowercased() {
            case "aes256": self.rawValue = "AES256"
            case "kms", "aws:kms": self.rawValue = "KMS"
            case "sm4": self.rawValue = "SM4"
            default: self.rawValue = rawValue
            }
        }

        /// Keys the service manages (SSE-S3, SSE-OSS, SSE-OBS).
        public static let aes256 = Algorithm(rawValue: "AES256")
        /// Keys from the vendor's key management service (SSE-KMS).
        public static let kms = Algorithm(rawValue: "KMS")
        /// OSS only: the SM4 block cipher with keys OSS manages.
        public static let sm4 = Algorithm(rawValue: "SM4")

        /// The name, as ``rawValue``.
        public var description: String { self.rawValue }

        /// The name `vendor` writes.
        package func wireName(for vendor: StorageVendor) -> String {
            guard self == .kms else { return self.rawValue }
            switch vendor.kind {
            case .s3: return "aws:kms"
            case .oss: return "KMS"
            case .obs: return "kms"
            }
        }

        /// Whether `vendor` encrypts by default with this algorithm (S3 also takes its own `aws:kms:dsse`).
        package func isOffered(by vendor: StorageVendor) -> Bool {
            switch self {
            case .aes256, .kms: return true
            case .sm4: return vendor.kind == .oss
            default: return vendor.kind == .s3 && self.rawValue == "aws:kms:dsse"
            }
        }
    }

    /// The algorithm.
    public var algorithm: Algorithm
    /// The KMS key (an id, alias or ARN) for ``Algorithm/kms``; `nil` for the vendor's default key. Only with KMS.
    public var kmsKeyID: String?

    /// Creates a default encryption.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm.
    ///   - kmsKeyID: The KMS key, for ``Algorithm/kms`` only; `nil` for the vendor's default key.
    public init(algorithm: Algorithm, kmsKeyID: String? = nil) {
        self.algorithm = algorithm
        self.kmsKeyID = kmsKeyID
    }

    /// Keys the service manages: `AES256`.
    public static let aes256 = BucketEncryption(algorithm: .aes256)

    /// Keys from the vendor's key management service.
    ///
    /// - Parameter keyID: The key, or `nil` for the vendor's default key.
    /// - Returns: The setting.
    public static func kms(keyID: String? = nil) -> BucketEncryption {
        BucketEncryption(algorithm: .kms, kmsKeyID: keyID)
    }
}

/// Why a vendor refuses a default encryption; shared by the client, which checks before it sends, and the local
/// server, which answers with the service's error.
package enum BucketEncryptionViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document's structure (S3 and OBS `MalformedXML`).
    case malformed(String)
    /// An algorithm the vendor does not offer (OSS `InvalidEncryptionAlgorithmError`).
    case unknownAlgorithm(String, vendor: String)
    /// A KMS key without KMS (`InvalidArgument`).
    case keyWithoutKMS(algorithm: String)

    package var description: String {
        switch self {
        case .malformed(let reason): reason
        case .unknownAlgorithm(let name, let vendor):
            "\(vendor) has no default encryption '\(name)'"
                + (vendor == "OSS" ? "; it offers AES256, KMS and SM4" : "; it offers AES256 and KMS")
        case .keyWithoutKMS(let algorithm):
            "a KMS key id is not applicable if the default encryption algorithm is \(algorithm), not KMS"
        }
    }
}

extension BucketEncryption {
    /// The first reason `vendor` would refuse this setting, or `nil`.
    package func violation(for vendor: StorageVendor) -> BucketEncryptionViolation? {
        guard self.algorithm.isOffered(by: vendor) else {
            return .unknownAlgorithm(self.algorithm.wireName(for: vendor), vendor: vendor.name)
        }
        if self.kmsKeyID != nil, self.algorithm != .kms {
            return .keyWithoutKMS(algorithm: self.algorithm.wireName(for: vendor))
        }
        return nil
    }

    /// The document `PUT ?encryption` sends and `GET` answers: OSS's `ServerSideEncryptionRule`, S3's and OBS's
    /// `ServerSideEncryptionConfiguration` with one `Rule`.
    ///
    /// - Parameter namespace: The XML namespace of an answer (S3's and OBS's), `nil` in a request.
    package func document(for vendor: StorageVendor, namespace: String? = nil) -> [UInt8] {
        var xml = XMLWriter()
        let algorithm = self.algorithm.wireName(for: vendor)
        let keyID = self.kmsKeyID
        let apply: (inout XMLWriter) -> Void = {
            $0.element("ApplyServerSideEncryptionByDefault") {
                $0.element("SSEAlgorithm", algorithm)
                $0.element("KMSMasterKeyID", keyID)
            }
        }
        if vendor.kind == .oss {
            xml.open("ServerSideEncryptionRule", namespace: namespace)
            apply(&xml)
            xml.close("ServerSideEncryptionRule")
        } else {
            xml.open("ServerSideEncryptionConfiguration", namespace: namespace)
            xml.element("Rule", apply)
            xml.close("ServerSideEncryptionConfiguration")
        }
        return xml.bytes
    }

    /// Reads either vendor's document (`ServerSideEncryptionRule` or `ServerSideEncryptionConfiguration/Rule`).
    ///
    /// - Throws: ``BucketEncryptionViolation/malformed(_:)`` for another document, or one without an algorithm.
    package init(document root: XMLNode) throws(BucketEncryptionViolation) {
        let apply: XMLNode?
        switch root.name {
        case "ServerSideEncryptionRule": apply = root.child("ApplyServerSideEncryptionByDefault")
        case "ServerSideEncryptionConfiguration":
            let rules = root.children("Rule")
            guard rules.count == 1 else {
                throw .malformed("the encryption configuration has \(rules.count) rules; it takes exactly one")
            }
            apply = rules[0].child("ApplyServerSideEncryptionByDefault")
        default:
            throw .malformed("<\(root.name)> is not an encryption configuration")
        }
        guard let apply else { throw .malformed("the encryption rule has no ApplyServerSideEncryptionByDefault") }
        guard let algorithm = apply["SSEAlgorithm"]?.trimmingASCIIWhitespace, !algorithm.isEmpty else {
            throw .malformed("the encryption rule has no SSEAlgorithm")
        }
        let keyID = apply["KMSMasterKeyID"]?.trimmingASCIIWhitespace
        self.init(algorithm: Algorithm(rawValue: algorithm), kmsKeyID: keyID?.isEmpty == false ? keyID : nil)
    }
}

extension String {
    fileprivate var trimmingASCIIWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ObjectStorageSigning

extension SignatureVerifier {
    /// Checks a POST form's signature over its `policy` field and returns the decoded policy.
    ///
    /// The V4 schemes' credential must name this server's region, the scheme's service and terminator, and the
    /// date of the form's date field. The security token of temporary credentials must be posted. On a server
    /// without authentication the signature is not checked, but a posted policy is still decoded (and then
    /// enforced by the caller).
    ///
    /// - Returns: The policy, or `nil` for an unsigned form on a server without authentication.
    func verifyPost(_ form: PostForm, dialect: StorageVendor) throws(ServerError) -> PostPolicy? {
        guard case .credentials(let credentials) = authentication.backing else {
            guard let policy = form.value("policy") else { return nil }
            return try Self.decodePolicy(policy)
        }
        guard let scheme = form.scheme else {
            throw ServerError.accessDenied("Anonymous access is forbidden for this operation.")
        }
        guard let policy = form.value("policy") else {
            throw ServerError.invalidArgument("Bucket POST must contain a field named 'policy'.", name: "policy")
        }
        guard let provided = form.value(scheme.signatureField) else {
            throw ServerError.invalidArgument(
                "Bucket POST must contain a field named '\(scheme.signatureField)'.",
                name: scheme.signatureField
            )
        }
        var keyID = ""
        var dateStamp = ""
        var region = ""
        var service = ""
        if let v4 = scheme.v4Fields {
            let credential = form.value(v4.credential) ?? ""
            let parts = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let date = form.value(v4.date) ?? ""
            let regions = self.v4Regions(oss: dialect.kind == .oss)
            region = regions[0]
            guard form.value(v4.algorithm) == v4.algorithmName, parts.count == 5, parts[4] == scheme.v4Terminator,
                parts[3] == scheme.v4DefaultService, date.utf8.count == 16, date.hasPrefix(parts[1])
            else {
                throw ServerError.invalidArgument(
                    "Invalid POST form credential '\(credential)': expecting AccessKeyId/YYYYMMDD/\(region)/"
                        + "\(scheme.v4DefaultService)/\(scheme.v4Terminator) dated as \(v4.date)",
                    name: v4.credential
                )
            }
            guard regions.contains(parts[2]) else {
                throw ServerError.invalidArgument(
                    "The region '\(parts[2])' in the credential is wrong; expecting '\(region)'",
                    name: v4.credential
                )
            }
            (keyID, dateStamp, region, service) = (parts[0], parts[1], parts[2], parts[3])
        } else if let field = scheme.accessKeyField {
            keyID = form.value(field) ?? ""
        }
        guard let match = credentials.first(where: { $0.accessKeyID == keyID }) else {
            throw ServerError.invalidAccessKeyID(keyID, dialect: dialect)
        }
        let expected = scheme.signature(
            policy: policy,
            secret: match.secretAccessKey,
            dateStamp: dateStamp,
            region: region,
            service: service
        )
        let comparable = scheme.v4Fields == nil ? provided : provided.lowercased()
        guard constantTimeEquals(expected, comparable) else {
            throw mismatch(dialect: dialect, keyID: keyID, provided: provided, stringToSign: policy, canonical: nil)
        }
        if let token = match.securityToken {
            // OBS's SDK posts the AWS name of the token field under its own signature; OBS takes either.
            let posted =
                form.value(scheme.tokenField) ?? (dialect.kind == .obs ? form.value("x-amz-security-token") : nil)
            guard let posted, constantTimeEquals(posted, token) else {
                throw ServerError.invalidToken(dialect: dialect)
            }
        }
        return try Self.decodePolicy(policy)
    }

    /// Decodes the base64 `policy` field.
    static func decodePolicy(_ text: String) throws(ServerError) -> PostPolicy {
        guard let bytes = ByteEncoding.bytes(fromBase64: text.trimmingWhitespace()) else {
            throw ServerError.invalidPolicyDocument("Invalid Policy: Invalid Base64 encoding")
        }
        do {
            return try PostPolicy(decoding: bytes)
        } catch {
            throw ServerError.invalidPolicyDocument(error.reason)
        }
    }
}

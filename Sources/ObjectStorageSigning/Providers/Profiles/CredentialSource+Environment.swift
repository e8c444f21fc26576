//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension CredentialSource {
    /// EKS IRSA: `AWS_ROLE_ARN` and `AWS_WEB_IDENTITY_TOKEN_FILE`, with `AWS_ROLE_SESSION_NAME`, as the AWS SDKs
    /// read them.
    ///
    /// - Throws: `CredentialsError.Code.notFound` when neither is set, `incomplete` when only one is.
    package static func awsWebIdentity(environment: [String: String]) throws(CredentialsError) -> CredentialSource {
        let roleARN = CredentialsText.nonEmpty(environment["AWS_ROLE_ARN"])
        let tokenFile = CredentialsText.nonEmpty(environment["AWS_WEB_IDENTITY_TOKEN_FILE"])
        switch (roleARN, tokenFile) {
        case (nil, nil):
            throw .notFound("AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE are not set")
        case (nil, .some):
            throw .incomplete("AWS_WEB_IDENTITY_TOKEN_FILE is set but AWS_ROLE_ARN is not")
        case (.some, nil):
            throw .incomplete("AWS_ROLE_ARN is set but AWS_WEB_IDENTITY_TOKEN_FILE is not")
        case (let roleARN?, let tokenFile?):
            let request = RoleRequest(
                service: .aws(region: nil, environment: environment),
                roleARN: roleARN,
                sessionName: CredentialsText.nonEmpty(environment["AWS_ROLE_SESSION_NAME"]),
                origin: "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE"
            )
            return .webIdentity(request, tokenFile: tokenFile, providerARN: nil)
        }
    }

    /// ACK RRSA: `ALIBABA_CLOUD_ROLE_ARN`, `ALIBABA_CLOUD_OIDC_PROVIDER_ARN` and `ALIBABA_CLOUD_OIDC_TOKEN_FILE`,
    /// with `ALIBABA_CLOUD_ROLE_SESSION_NAME`, as Alibaba's credentials libraries read them.
    ///
    /// - Throws: `CredentialsError.Code.notFound` when none is set, `incomplete` when some are.
    package static func alibabaCloudOIDC(environment: [String: String]) throws(CredentialsError) -> CredentialSource {
        let names = ["ALIBABA_CLOUD_ROLE_ARN", "ALIBABA_CLOUD_OIDC_PROVIDER_ARN", "ALIBABA_CLOUD_OIDC_TOKEN_FILE"]
        let values = names.map { CredentialsText.nonEmpty(environment[$0]) }
        let missing = zip(names, values).filter { $0.1 == nil }.map(\.0)
        if missing.count == names.count {
            throw .notFound("\(names.joined(separator: ", ")) are not set")
        }
        guard missing.isEmpty, let roleARN = values[0], let providerARN = values[1], let tokenFile = values[2] else {
            throw .incomplete("RRSA is half configured: \(missing.joined(separator: " and ")) not set")
        }
        let request = RoleRequest(
            service: .alibabaCloud(environment: environment),
            roleARN: roleARN,
            sessionName: CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_ROLE_SESSION_NAME"]),
            origin: "ALIBABA_CLOUD_ROLE_ARN and its companions"
        )
        return .webIdentity(request, tokenFile: tokenFile, providerARN: providerARN)
    }

    /// Whether a metadata service is turned off by its variable (`AWS_EC2_METADATA_DISABLED=true`, ...).
    package static func isDisabled(_ variable: String, environment: [String: String]) -> Bool {
        environment[variable].map { CredentialsText.trimmed($0).lowercased() == "true" } ?? false
    }
}

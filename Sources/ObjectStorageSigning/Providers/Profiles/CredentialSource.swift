//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Where a profile or the environment says credentials come from, resolved from files and variables alone: no
/// network call, no process. The `ObjectStorage` module turns each case into the provider that acts on it (STS, a
/// process, a metadata service), so this layer stays pure and the arrows point down.
package indirect enum CredentialSource: Sendable, Hashable {
    /// Keys written in a file or a variable.
    case keys(Credentials)
    /// STS `AssumeRole`, signed with the credentials `source` yields.
    case assumeRole(RoleRequest, source: CredentialSource)
    /// STS `AssumeRoleWithWebIdentity` (AWS) or `AssumeRoleWithOIDC` (Alibaba Cloud), unsigned, with the token read
    /// from `tokenFile` at each refresh (Kubernetes rotates it).
    case webIdentity(RoleRequest, tokenFile: String, providerARN: String?)
    /// The JSON a command prints.
    case process(command: String, format: CredentialProcessFormat, origin: String)
    /// The role of the machine or container the process runs on.
    case instance(InstanceRole)
    /// A vendor's environment variables (AWS `credential_source = Environment`).
    case environment(StorageVendor)

    /// The role of the machine or container the process runs on.
    package enum InstanceRole: Sendable, Hashable {
        /// The EC2 instance's role, through IMDSv2.
        case awsEC2
        /// The ECS task's or EKS pod's role, through the container credentials endpoint.
        case awsContainer
        /// The RAM role of an Alibaba Cloud ECS instance, by name or discovered.
        case alibabaCloudECS(roleName: String?)
        /// The agency of a Huawei Cloud ECS instance.
        case huaweiCloudECS
    }
}

/// What an STS call asks for: the role, and the settings the vendors let a profile or a variable give.
package struct RoleRequest: Sendable, Hashable {
    /// Which STS, and where it answers.
    package var service: STSService
    /// The role's ARN, e.g. `arn:aws:iam::123456789012:role/app` or `acs:ram::1234567890123456:role/app`.
    package var roleARN: String
    /// The session's name; `nil` gives `objstore-<seconds since 1970>`.
    package var sessionName: String?
    /// The external id the role's trust policy may require (AssumeRole only).
    package var externalID: String?
    /// The credentials' lifetime in seconds (900 ... 43200); `nil` leaves it to the service (3600).
    package var durationSeconds: Int?
    /// A session policy that narrows the role's permissions, as JSON.
    package var policy: String?
    /// Where the settings were found, for messages, e.g. `AWS profile 'dev' in /home/u/.aws/config`.
    package var origin: String

    /// Creates a role request.
    package init(
        service: STSService,
        roleARN: String,
        sessionName: String? = nil,
        externalID: String? = nil,
        durationSeconds: Int? = nil,
        policy: String? = nil,
        origin: String
    ) {
        self.service = service
        self.roleARN = roleARN
        self.sessionName = sessionName
        self.externalID = externalID
        self.durationSeconds = durationSeconds
        self.policy = policy
        self.origin = origin
    }

    /// The lifetimes both services accept, in seconds.
    package static let durationRange = 900...43_200
}

/// Which security token service a role request goes to, and its endpoint.
package struct STSService: Sendable, Hashable {
    /// The vendor whose STS this is: `.s3` (AWS) or `.oss` (Alibaba Cloud).
    package var vendor: StorageVendor
    /// The endpoint's URL, e.g. `https://sts.us-east-1.amazonaws.com` or `https://sts.aliyuncs.com`.
    package var endpoint: String
    /// The SigV4 region (AWS); Alibaba Cloud's signature has none.
    package var region: String

    /// Creates a service description.
    package init(vendor: StorageVendor, endpoint: String, region: String) {
        self.vendor = vendor
        self.endpoint = endpoint
        self.region = region
    }

    /// AWS STS: `AWS_ENDPOINT_URL_STS`, else `AWS_ENDPOINT_URL`, else the regional endpoint
    /// `https://sts.REGION.amazonaws.com` (the AWS SDKs' default), else the global `https://sts.amazonaws.com`.
    ///
    /// - Parameters:
    ///   - region: The profile's or the environment's region, if any.
    ///   - endpoint: An endpoint the profile names, if any.
    ///   - environment: The variables.
    package static func aws(region: String?, endpoint: String? = nil, environment: [String: String]) -> STSService {
        let region =
            region ?? CredentialsText.nonEmpty(environment["AWS_REGION"])
            ?? CredentialsText.nonEmpty(environment["AWS_DEFAULT_REGION"])
        let chosen =
            CredentialsText.nonEmpty(endpoint) ?? CredentialsText.nonEmpty(environment["AWS_ENDPOINT_URL_STS"])
            ?? CredentialsText.nonEmpty(environment["AWS_ENDPOINT_URL"])
            ?? region.map { "https://sts.\($0).amazonaws.com" } ?? "https://sts.amazonaws.com"
        return STSService(vendor: .s3, endpoint: chosen, region: region ?? "us-east-1")
    }

    /// Alibaba Cloud STS: the endpoint a profile names (`sts_endpoint`), else `ALIBABA_CLOUD_STS_ENDPOINT`, else
    /// `https://sts[-vpc].REGION.aliyuncs.com` for `sts_region` / `ALIBABA_CLOUD_STS_REGION` (`-vpc` with
    /// `enable_vpc` / `ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED=true`), else `https://sts.aliyuncs.com`, as Alibaba's
    /// credentials libraries choose it.
    ///
    /// - Parameters:
    ///   - region: The profile's STS region, if any.
    ///   - endpoint: The profile's STS endpoint, if any.
    ///   - vpc: Whether the profile asks for the VPC endpoint.
    ///   - environment: The variables.
    package static func alibabaCloud(
        region: String? = nil,
        endpoint: String? = nil,
        vpc: Bool = false,
        environment: [String: String]
    ) -> STSService {
        let region =
            CredentialsText.nonEmpty(region) ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_STS_REGION"])
        let vpc = vpc || environment["ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED"]?.lowercased() == "true"
        var chosen =
            CredentialsText.nonEmpty(endpoint) ?? CredentialsText.nonEmpty(environment["ALIBABA_CLOUD_STS_ENDPOINT"])
            ?? region.map { "https://sts\(vpc ? "-vpc" : "").\($0).aliyuncs.com" } ?? "https://sts.aliyuncs.com"
        if !chosen.contains("://") {
            chosen = "https://" + chosen
        }
        return STSService(vendor: .oss, endpoint: chosen, region: region ?? "")
    }
}

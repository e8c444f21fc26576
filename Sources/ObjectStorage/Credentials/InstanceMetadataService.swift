//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What differs between the clouds' instance metadata services: where the credentials are, how the
/// session token is issued, and how the credentials document names its fields. One
/// ``InstanceMetadataCredentialsProvider`` serves each of them.
///
/// | | ``alibabaCloudECSRole`` | ``huaweiCloudECS`` | ``awsEC2Role`` |
/// |---|---|---|---|
/// | endpoint | `http://100.100.100.200` | `http://169.254.169.254` | `http://169.254.169.254` |
/// | token | `PUT /latest/api/token`, `X-aliyun-ecs-metadata-token…`, 1 s – 6 h | `PUT /meta-data/latest/api/token`, `X-Metadata-Token…`, 1 min – 6 h | `PUT /latest/api/token`, `X-aws-ec2-metadata-token…`, 1 s – 6 h; HTTP 400 is an error, not a fallback |
/// | credentials | `/latest/meta-data/ram/security-credentials/<role>`, the role discovered there | `/openstack/latest/securitykey` | `/latest/meta-data/iam/security-credentials/<role>`, the role discovered there |
/// | document | `{"Code": "Success", "AccessKeyId", "AccessKeySecret", "SecurityToken", "Expiration"}` | `{"credential": {"access", "secret", "securitytoken", "expires_at"}}` | `{"Code": "Success", "AccessKeyId", "SecretAccessKey", "Token", "Expiration"}` |
package struct InstanceMetadataService: Sendable {
    /// Where a service keeps the credentials.
    enum Location: Sendable {
        /// At one path, fetched in the step named `step` (for messages).
        case fixed(path: String, step: String)
        /// Per role: `directory` lists the attached roles (one a line; the first is used when none is
        /// configured), `directory` + the role's name holds its credentials. `kind` names a role in messages,
        /// e.g. `RAM role`.
        case role(directory: String, kind: String)
    }

    /// The name used in descriptions, e.g. `alibabaCloudECSRole`.
    var name: String
    /// The provider's name in messages, e.g. `Alibaba Cloud ECS RAM role`.
    var source: String
    /// The metadata service's address.
    var defaultEndpoint: String
    /// How the service issues and checks its session token.
    var tokenProtocol: InstanceMetadataClient.TokenProtocol
    /// Where the credentials are.
    var location: Location
    /// How the credentials document names its fields.
    var document: InstanceMetadataDocument.Format

    /// The RAM role attached to an Alibaba Cloud ECS (or ECI) instance.
    package static let alibabaCloudECSRole = InstanceMetadataService(
        name: "alibabaCloudECSRole",
        source: "Alibaba Cloud ECS RAM role",
        defaultEndpoint: "http://100.100.100.200",
        tokenProtocol: InstanceMetadataClient.TokenProtocol(
            path: "/latest/api/token",
            ttlHeader: "X-aliyun-ecs-metadata-token-ttl-seconds",
            tokenHeader: "X-aliyun-ecs-metadata-token",
            ttlRange: 1...21_600
        ),
        location: .role(directory: "/latest/meta-data/ram/security-credentials/", kind: "RAM role"),
        document: InstanceMetadataDocument.Format(
            name: "credentials document",
            container: nil,
            code: "Code",
            accessKeyID: "AccessKeyId",
            secret: "AccessKeySecret",
            securityToken: "SecurityToken",
            expiration: "Expiration"
        )
    )

    /// The agency attached to a Huawei Cloud ECS instance: the OpenStack metadata service's security key.
    package static let huaweiCloudECS = InstanceMetadataService(
        name: "huaweiCloudECS",
        source: "Huawei Cloud ECS security key",
        defaultEndpoint: "http://169.254.169.254",
        tokenProtocol: InstanceMetadataClient.TokenProtocol(
            path: "/meta-data/latest/api/token",
            ttlHeader: "X-Metadata-Token-Ttl-Seconds",
            tokenHeader: "X-Metadata-Token",
            ttlRange: 60...21_600
        ),
        location: .fixed(path: "/openstack/latest/securitykey", step: "fetching the security key"),
        document: InstanceMetadataDocument.Format(
            name: "security key document",
            container: "credential",
            code: nil,
            accessKeyID: "access",
            secret: "secret",
            securityToken: "securitytoken",
            expiration: "expires_at"
        )
    )

    /// The IAM role attached to an AWS EC2 instance (IMDSv2, as botocore's `InstanceMetadataFetcher` asks it).
    ///
    /// botocore falls back to plain (IMDSv1) requests when the token `PUT` is answered 403, 404 or 405 or times
    /// out, retries other statuses and then falls back too, but fails on 400 (a malformed token request): so
    /// does this service, through ``InstanceMetadataClient/TokenProtocol/failingStatuses``.
    package static let awsEC2Role = InstanceMetadataService(
        name: "awsEC2Role",
        source: "AWS EC2 instance role",
        defaultEndpoint: "http://169.254.169.254",
        tokenProtocol: InstanceMetadataClient.TokenProtocol(
            path: "/latest/api/token",
            ttlHeader: "X-aws-ec2-metadata-token-ttl-seconds",
            tokenHeader: "X-aws-ec2-metadata-token",
            ttlRange: 1...21_600,
            failingStatuses: [400]
        ),
        location: .role(directory: "/latest/meta-data/iam/security-credentials/", kind: "IAM role"),
        document: InstanceMetadataDocument.Format(
            name: "credentials document",
            container: nil,
            code: "Code",
            accessKeyID: "AccessKeyId",
            secret: "SecretAccessKey",
            securityToken: "Token",
            expiration: "Expiration"
        )
    )
}

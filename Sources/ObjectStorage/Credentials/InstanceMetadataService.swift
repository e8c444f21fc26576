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
/// | | ``alibabaCloudECSRole`` | ``huaweiCloudECS`` |
/// |---|---|---|
/// | endpoint | `http://100.100.100.200` | `http://169.254.169.254` |
/// | token | `PUT /latest/api/token`, `X-aliyun-ecs-metadata-token…`, 1 s – 6 h | `PUT /meta-data/latest/api/token`, `X-Metadata-Token…`, 1 min – 6 h |
/// | credentials | `/latest/meta-data/ram/security-credentials/<role>`, the role discovered there | `/openstack/latest/securitykey` |
/// | document | `{"Code": "Success", "AccessKeyId", "AccessKeySecret", "SecurityToken", "Expiration"}` | `{"credential": {"access", "secret", "securitytoken", "expires_at"}}` |
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
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import ObjectStorageSigning

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CredentialSource {
    /// The provider that acts on this source: every one that calls a service or a process is cached and refreshed
    /// before its credentials expire.
    ///
    /// - Parameter environment: The variables the providers read, or `nil` for the process's.
    /// - Returns: The provider.
    package func makeProvider(environment: [String: String]?) -> any CredentialsProvider {
        switch self {
        case .keys(let credentials):
            return StaticCredentialsProvider(credentials)
        case .environment(let vendor):
            return EnvironmentCredentialsProvider(vendor, environment: environment)
        case .assumeRole(let role, let source):
            let proof = STSCredentialsProvider.Proof.credentials(source.makeProvider(environment: environment))
            return .refreshing(STSCredentialsProvider(role: role, proof: proof))
        case .webIdentity(let role, let tokenFile, let providerARN):
            return .refreshing(
                STSCredentialsProvider(role: role, proof: .tokenFile(tokenFile, providerARN: providerARN))
            )
        case .process(let command, let format, let origin):
            return .refreshing(
                ProcessCredentialsProvider(command: command, format: format, environment: environment, origin: origin)
            )
        case .instance(let role):
            return .refreshing(role.makeProvider(environment: environment))
        }
    }
}

extension CredentialSource.InstanceRole {
    /// The metadata provider for this role, not yet cached.
    func makeProvider(environment: [String: String]?, timeout: Duration = .seconds(5)) -> any CredentialsProvider {
        switch self {
        case .awsEC2:
            let variables = environment ?? ProcessInfo.processInfo.environment
            let endpoint = CredentialsText.nonEmpty(variables["AWS_EC2_METADATA_SERVICE_ENDPOINT"])
            return InstanceMetadataCredentialsProvider.awsEC2Role(
                endpoint: endpoint ?? "http://169.254.169.254",
                timeout: timeout
            )
        case .awsContainer:
            return ContainerCredentialsProvider.awsContainer(environment: environment, timeout: timeout)
        case .alibabaCloudECS(let roleName):
            return InstanceMetadataCredentialsProvider.alibabaCloudECSRole(roleName: roleName, timeout: timeout)
        case .huaweiCloudECS:
            return InstanceMetadataCredentialsProvider.huaweiCloudECS(timeout: timeout)
        }
    }
}

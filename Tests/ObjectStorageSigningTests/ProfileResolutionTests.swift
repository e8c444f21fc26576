//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// What the profile files and the variables say about where credentials come from, resolved without any network
/// call: roles, chained profiles, web identity, processes, instance roles, and the refusals.
struct ProfileResolutionTests {
    private let directory: CredentialFilesDirectory

    init() throws {
        self.directory = try CredentialFilesDirectory()
    }

    private func aws(_ profile: String, config: String, environment: [String: String] = [:]) throws -> CredentialSource
    {
        let path = try self.directory.write("config-\(UUID().uuidString)", config)
        return try CredentialProfiles.resolve(
            .aws(credentialsFile: self.directory.path + "/none", configFile: path),
            profile: profile,
            environment: ["HOME": self.directory.path].merging(environment) { $1 }
        )
    }

    private func awsError(_ profile: String, config: String) -> CredentialsError? {
        #expect(throws: CredentialsError.self) { try self.aws(profile, config: config) }
    }

    private static let keys = Credentials(accessKeyID: "AKIDBASE", secretAccessKey: "basesecret")
    private static let base = "[profile base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = basesecret\n"

    // MARK: AWS

    @Test func chainedRolesAreFollowedToTheKeysThatSignTheFirst() throws {
        let source = try self.aws(
            "prod",
            config: Self.base
                + "[profile middle]\nrole_arn = arn:aws:iam::1:role/middle\nsource_profile = base\n"
                + "[profile prod]\nrole_arn = arn:aws:iam::2:role/prod\nsource_profile = middle\n"
                + "role_session_name = deploy\nexternal_id = ext-1\nduration_seconds = 1800\n"
        )
        guard case .assumeRole(let prod, .assumeRole(let middle, .keys(let keys))) = source else {
            Issue.record("not a chain of two roles: \(source)")
            return
        }
        #expect(prod.roleARN == "arn:aws:iam::2:role/prod")
        #expect(prod.sessionName == "deploy")
        #expect(prod.externalID == "ext-1")
        #expect(prod.durationSeconds == 1800)
        #expect(middle.roleARN == "arn:aws:iam::1:role/middle")
        #expect(keys == Self.keys)
    }

    @Test func aCycleOfSourceProfilesIsAnErrorNamingIt() {
        let error = self.awsError(
            "a",
            config: "[profile a]\nrole_arn = arn:aws:iam::1:role/a\nsource_profile = b\n"
                + "[profile b]\nrole_arn = arn:aws:iam::1:role/b\nsource_profile = a\n"
        )
        #expect(error?.code == .unsupported)
        #expect(error?.message == "AWS profiles form a cycle: a -> b -> a")
    }

    @Test func aProfileMayNameItselfToSignWithItsOwnKeys() throws {
        let source = try self.aws(
            "self",
            config: "[profile self]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = self\n"
                + "aws_access_key_id = AKIDBASE\naws_secret_access_key = basesecret\n"
        )
        guard case .assumeRole(_, .keys(let keys)) = source else {
            Issue.record("not a role signed by its own keys: \(source)")
            return
        }
        #expect(keys == Self.keys)
    }

    @Test(arguments: [
        ("Environment", CredentialSource.environment(.s3)),
        ("Ec2InstanceMetadata", .instance(.awsEC2)),
        ("EcsContainer", .instance(.awsContainer)),
    ])
    func credentialSourceNamesWhatSigns(value: String, expected: CredentialSource) throws {
        let source = try self.aws(
            "r",
            config: "[profile r]\nrole_arn = arn:aws:iam::1:role/r\ncredential_source = \(value)\n"
        )
        guard case .assumeRole(_, let signer) = source else {
            Issue.record("not a role: \(source)")
            return
        }
        #expect(signer == expected)
    }

    @Test(arguments: [
        (
            "[profile r]\nrole_arn = arn:aws:iam::1:role/r\ncredential_source = Laptop\n",
            CredentialsError.Code.unsupported,
            "credential_source 'Laptop'"
        ),
        (
            "[profile r]\nrole_arn = arn:aws:iam::1:role/r\ncredential_source = Environment\nsource_profile = base\n",
            .incomplete, "both source_profile and credential_source"
        ),
        (
            "[profile r]\nrole_arn = arn:aws:iam::1:role/r\n", .incomplete,
            "neither source_profile nor credential_source"
        ),
        (
            "[profile r]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = base\nmfa_serial = arn:mfa\n",
            .unsupported, "mfa_serial"
        ),
        ("[profile r]\nsso_session = corp\nsso_account_id = 1\n", .unsupported, "sso_session"),
        (
            "[profile r]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = base\nduration_seconds = 60\n",
            .malformedFile, "duration_seconds"
        ),
        ("[profile r]\nweb_identity_token_file = /t\n", .incomplete, "no role_arn"),
    ])
    func refusals(config: String, code: CredentialsError.Code, phrase: String) {
        let error = self.awsError("r", config: Self.base + config)
        #expect(error?.code == code)
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "no error")")
    }

    @Test func webIdentityAndProcessProfiles() throws {
        let config =
            "[profile web]\nrole_arn = arn:aws:iam::1:role/web\nweb_identity_token_file = ~/token\n"
            + "role_session_name = pod\n"
            + "[profile process]\ncredential_process = /usr/bin/get-creds --role \"ci deploy\"\n"
        let web = try self.aws("web", config: config)
        guard case .webIdentity(let role, let tokenFile, nil) = web else {
            Issue.record("not a web identity: \(web)")
            return
        }
        #expect(role.roleARN == "arn:aws:iam::1:role/web")
        #expect(role.sessionName == "pod")
        #expect(tokenFile == self.directory.path + "/token")

        let process = try self.aws("process", config: config)
        guard case .process(let command, let format, _) = process else {
            Issue.record("not a process: \(process)")
            return
        }
        #expect(command == "/usr/bin/get-creds --role \"ci deploy\"")
        #expect(format == .aws)
    }

    @Test func theSTSEndpointFollowsTheVariablesThenTheRegion() {
        #expect(STSService.aws(region: nil, environment: [:]).endpoint == "https://sts.amazonaws.com")
        #expect(STSService.aws(region: "eu-west-1", environment: [:]).endpoint == "https://sts.eu-west-1.amazonaws.com")
        #expect(
            STSService.aws(region: "eu-west-1", environment: ["AWS_ENDPOINT_URL": "http://127.0.0.1:5000"]).endpoint
                == "http://127.0.0.1:5000"
        )
        let both = ["AWS_ENDPOINT_URL": "http://a:1", "AWS_ENDPOINT_URL_STS": "http://b:2"]
        #expect(STSService.aws(region: nil, environment: both).endpoint == "http://b:2")
        #expect(STSService.alibabaCloud(environment: [:]).endpoint == "https://sts.aliyuncs.com")
        let vpc = ["ALIBABA_CLOUD_STS_REGION": "cn-shanghai", "ALIBABA_CLOUD_VPC_ENDPOINT_ENABLED": "true"]
        #expect(STSService.alibabaCloud(environment: vpc).endpoint == "https://sts-vpc.cn-shanghai.aliyuncs.com")
    }

    @Test func theEnvironmentsWebIdentityIsAllOrNothing() throws {
        #expect(throws: CredentialsError.notFound("AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE are not set")) {
            try CredentialSource.awsWebIdentity(environment: [:])
        }
        let half = #expect(throws: CredentialsError.self) {
            try CredentialSource.awsWebIdentity(environment: ["AWS_ROLE_ARN": "arn:aws:iam::1:role/r"])
        }
        #expect(half?.code == .incomplete)
        let rrsa = #expect(throws: CredentialsError.self) {
            try CredentialSource.alibabaCloudOIDC(environment: ["ALIBABA_CLOUD_ROLE_ARN": "acs:ram::1:role/r"])
        }
        #expect(rrsa?.code == .incomplete)
        #expect(rrsa?.message.contains("ALIBABA_CLOUD_OIDC_PROVIDER_ARN and ALIBABA_CLOUD_OIDC_TOKEN_FILE") == true)
        let full = try CredentialSource.alibabaCloudOIDC(environment: [
            "ALIBABA_CLOUD_ROLE_ARN": "acs:ram::1:role/r",
            "ALIBABA_CLOUD_OIDC_PROVIDER_ARN": "acs:ram::1:oidc-provider/p",
            "ALIBABA_CLOUD_OIDC_TOKEN_FILE": "/var/run/rrsa", "ALIBABA_CLOUD_ROLE_SESSION_NAME": "pod",
        ])
        guard case .webIdentity(let role, "/var/run/rrsa", "acs:ram::1:oidc-provider/p") = full else {
            Issue.record("not RRSA: \(full)")
            return
        }
        #expect(role.sessionName == "pod")
        #expect(role.service.vendor == .oss)
    }

    // MARK: aliyun CLI and Alibaba Cloud's credentials file

    private func aliyun(_ profile: String, _ profiles: String) throws -> CredentialSource {
        let path = try self.directory.write("config-\(UUID().uuidString).json", "{\"profiles\": [\(profiles)]}")
        return try CredentialProfiles.resolve(.aliyunCLI(file: path), profile: profile, environment: [:])
    }

    @Test func aliyunModesResolveToTheirSources() throws {
        let profiles = """
            {"name": "ak", "mode": "AK", "access_key_id": "LTAIbase", "access_key_secret": "s"},
            {"name": "chain", "mode": "ChainableRamRoleArn", "source_profile": "ak", "ram_role_arn": "acs:ram::1:role/c",
             "ram_session_name": "c", "expired_seconds": 900, "sts_endpoint": "http://127.0.0.1:9"},
            {"name": "oidc", "mode": "OIDC", "ram_role_arn": "acs:ram::1:role/o", "oidc_provider_arn": "acs:ram::1:oidc-provider/p",
             "oidc_token_file": "/t", "role_session_name": "o"},
            {"name": "ecs", "mode": "EcsRamRole", "ram_role_name": "worker"},
            {"name": "ext", "mode": "External", "process_command": "get-creds --json"},
            {"name": "loop1", "mode": "ChainableRamRoleArn", "source_profile": "loop2", "ram_role_arn": "acs:ram::1:role/x"},
            {"name": "loop2", "mode": "ChainableRamRoleArn", "source_profile": "loop1", "ram_role_arn": "acs:ram::1:role/y"},
            {"name": "sso", "mode": "CloudSSO"}
            """
        guard case .assumeRole(let role, .keys(let keys)) = try self.aliyun("chain", profiles) else {
            Issue.record("chain is not a role signed by keys")
            return
        }
        #expect(role.roleARN == "acs:ram::1:role/c")
        #expect(role.durationSeconds == 900)
        #expect(role.service.endpoint == "http://127.0.0.1:9")
        #expect(keys == Credentials(accessKeyID: "LTAIbase", secretAccessKey: "s"))
        guard case .webIdentity(let oidc, "/t", "acs:ram::1:oidc-provider/p") = try self.aliyun("oidc", profiles) else {
            Issue.record("oidc is not a web identity")
            return
        }
        #expect(oidc.sessionName == "o")
        #expect(try self.aliyun("ecs", profiles) == .instance(.alibabaCloudECS(roleName: "worker")))
        guard case .process("get-creds --json", let format, _) = try self.aliyun("ext", profiles) else {
            Issue.record("ext is not a process")
            return
        }
        #expect(format == .alibabaCloud)
        let loop = #expect(throws: CredentialsError.self) { try self.aliyun("loop1", profiles) }
        #expect(loop?.message == "aliyun CLI profiles form a cycle: loop1 -> loop2 -> loop1")
        let sso = #expect(throws: CredentialsError.self) { try self.aliyun("sso", profiles) }
        #expect(sso?.code == .unsupported)
    }

    @Test func alibabaCredentialsFileRoleTypes() throws {
        let path = try self.directory.write(
            "credentials.ini",
            """
            [role]
            type = ram_role_arn
            access_key_id = LTAIbase
            access_key_secret = s
            role_arn = acs:ram::1:role/r
            role_session_name = ini
            policy = {"Version":"1"}

            [oidc]
            type = oidc_role_arn
            role_arn = acs:ram::1:role/o
            oidc_provider_arn = acs:ram::1:oidc-provider/p
            oidc_token_file_path = /token
            """
        )
        let role = try CredentialProfiles.resolve(.alibabaCloud(file: path), profile: "role", environment: [:])
        guard case .assumeRole(let request, .keys) = role else {
            Issue.record("not a role: \(role)")
            return
        }
        #expect(request.policy == "{\"Version\":\"1\"}")
        #expect(request.sessionName == "ini")
        let oidc = try CredentialProfiles.resolve(.alibabaCloud(file: path), profile: "oidc", environment: [:])
        guard case .webIdentity(_, "/token", "acs:ram::1:oidc-provider/p") = oidc else {
            Issue.record("not a web identity: \(oidc)")
            return
        }
    }
}

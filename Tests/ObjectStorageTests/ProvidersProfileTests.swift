//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Logging
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTestSupport
import Testing

/// The profile provider: AWS shared credentials/config, Alibaba Cloud's credentials file, the aliyun CLI's config.json.
struct ProvidersProfileTests {
    let logger = Logger.scanning

    private func withDirectory(_ body: (CredentialFilesDirectory) async throws -> Void) async throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        try await body(directory)
    }

    private func error(_ provider: some CredentialsProvider) async -> CredentialsError? {
        await #expect(throws: CredentialsError.self) { try await provider.credentials(logger: self.logger) }
    }

    // MARK: AWS

    @Test func awsDefaultProfileFromHome() async throws {
        try await self.withDirectory { dir in
            try dir.write(
                ".aws/credentials",
                """
                # a comment
                ; another comment
                [default]
                aws_access_key_id = AKIDDEFAULT
                aws_secret_access_key = \(CredentialTestSecrets.secret)

                [dev]
                aws_access_key_id=AKIDDEV
                aws_secret_access_key=devsecret
                aws_session_token=devtoken
                """
            )
            let provider: some CredentialsProvider = .profile(.aws(), environment: ["HOME": dir.path])
            let credentials = try await provider.credentials(logger: self.logger)
            #expect(
                credentials == Credentials(accessKeyID: "AKIDDEFAULT", secretAccessKey: CredentialTestSecrets.secret)
            )
        }
    }

    @Test func awsProfileFromEnvironmentWithSessionToken() async throws {
        try await self.withDirectory { dir in
            let path = try dir.write(
                "custom-credentials",
                "[dev]\r\n  aws_access_key_id =  AKIDDEV  \r\naws_secret_access_key=devsecret # inline comment\r\n"
                    + "AWS_SESSION_TOKEN=devtoken\r\n"
            )
            let provider: some CredentialsProvider = .profile(
                .aws(),
                environment: ["HOME": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "dev"]
            )
            let credentials = try await provider.credentials(logger: self.logger)
            #expect(
                credentials
                    == Credentials(accessKeyID: "AKIDDEV", secretAccessKey: "devsecret", securityToken: "devtoken")
            )
        }
    }

    @Test func awsConfigFileProfileSectionsAndPrecedence() async throws {
        try await self.withDirectory { dir in
            let config = try dir.write(
                "config",
                """
                [default]
                region = us-east-1

                [profile ci]
                region = eu-west-1
                s3 =
                  max_concurrent_requests = 20
                aws_access_key_id = AKIDCONFIG
                aws_secret_access_key = configsecret

                [ci]
                aws_access_key_id = NOT-A-PROFILE-IN-CONFIG
                aws_secret_access_key = x

                [profile both]
                aws_access_key_id = AKIDCONFIG
                aws_secret_access_key = configsecret
                """
            )
            let credentials = try dir.write(
                "credentials",
                """
                [both]
                aws_access_key_id = AKIDCREDS
                aws_secret_access_key = credssecret
                """
            )
            let environment = ["HOME": dir.path, "AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": credentials]
            let ci = try await ProfileCredentialsProvider(.aws(), profile: "ci", environment: environment)
                .credentials(logger: self.logger)
            #expect(ci == Credentials(accessKeyID: "AKIDCONFIG", secretAccessKey: "configsecret"))
            let both = try await ProfileCredentialsProvider(.aws(), profile: "both", environment: environment)
                .credentials(logger: self.logger)
            #expect(both == Credentials(accessKeyID: "AKIDCREDS", secretAccessKey: "credssecret"))

            // `[default]` in the config file exists but holds no keys.
            let error = await self.error(ProfileCredentialsProvider(.aws(), environment: environment))
            #expect(error?.code == .notFound)
            #expect(
                error?.message
                    == "AWS profile 'default' in \(config) has no aws_access_key_id and aws_secret_access_key, "
                    + "role_arn or credential_process"
            )
        }
    }

    @Test func awsNoFilesIsNotFoundNamingBothPaths() async throws {
        try await self.withDirectory { dir in
            let error = await self.error(ProfileCredentialsProvider(.aws(), environment: ["HOME": dir.path]))
            #expect(error?.code == .notFound)
            #expect(
                error?.message
                    == "no AWS credentials file at \(dir.path)/.aws/credentials and no config file at "
                    + "\(dir.path)/.aws/config"
            )
        }
    }

    @Test func awsMissingProfileIsNotFoundNamingTheProfile() async throws {
        try await self.withDirectory { dir in
            let path = try dir.write(".aws/credentials", "[default]\naws_access_key_id=a\naws_secret_access_key=b\n")
            let error = await self.error(
                ProfileCredentialsProvider(.aws(), environment: ["HOME": dir.path, "AWS_PROFILE": "prod"])
            )
            #expect(error?.code == .notFound)
            #expect(error?.message == "AWS profile 'prod' is not in \(path)")
        }
    }

    @Test func awsHalfSetProfileIsIncomplete() async throws {
        try await self.withDirectory { dir in
            let path = try dir.write(".aws/credentials", "[default]\naws_access_key_id = AKID\n")
            let error = await self.error(ProfileCredentialsProvider(.aws(), environment: ["HOME": dir.path]))
            #expect(error?.code == .incomplete)
            #expect(
                error?.message == "AWS profile 'default' in \(path) has aws_access_key_id but no aws_secret_access_key"
            )
        }
    }

    @Test func awsRoleProfileResolvesToAnAssumedRoleSignedByItsSource() async throws {
        try await self.withDirectory { dir in
            let config = try dir.write(
                ".aws/config",
                "[profile admin]\nrole_arn = arn:aws:iam::1:role/x\nsource_profile = default\nregion = eu-west-1\n"
                    + "[default]\naws_access_key_id = AKIDBASE\naws_secret_access_key = basesecret\n"
            )
            let source = try CredentialProfiles.resolve(
                .aws(credentialsFile: nil, configFile: nil),
                profile: "admin",
                environment: ["HOME": dir.path]
            )
            let role = RoleRequest(
                service: STSService(vendor: .s3, endpoint: "https://sts.eu-west-1.amazonaws.com", region: "eu-west-1"),
                roleARN: "arn:aws:iam::1:role/x",
                origin: "AWS profile 'admin' in \(config)"
            )
            #expect(
                source
                    == .assumeRole(
                        role,
                        source: .keys(Credentials(accessKeyID: "AKIDBASE", secretAccessKey: "basesecret"))
                    )
            )
        }
    }

    @Test(arguments: [
        ("aws_access_key_id = a\n", 1, "a property appears before any [section] header"),
        ("[default\naws_access_key_id = a\n", 1, "a section header has no ']'"),
        ("[default]\n\(CredentialTestSecrets.secret)\n", 2, "expected 'key = value', a [section] header or a comment"),
        ("[]\n", 1, "a section name is empty"),
        ("[default] trailing\n", 1, "unexpected text after a section header"),
        ("[default]\n = \(CredentialTestSecrets.secret)\n", 2, "a property has no name"),
    ])
    func malformedINIIsReportedWithLineAndNoContent(content: String, line: Int, reason: String) async throws {
        try await self.withDirectory { dir in
            let path = try dir.write(".aws/credentials", content)
            let error = await self.error(ProfileCredentialsProvider(.aws(), environment: ["HOME": dir.path]))
            #expect(error?.code == .malformedFile)
            #expect(error?.message == "\(path):\(line): \(reason)")
            #expect(!(error?.description.contains(CredentialTestSecrets.secret) ?? true))
        }
    }

    @Test func directoryInPlaceOfFileIsUnreadable() async throws {
        try await self.withDirectory { dir in
            try FileManager.default.createDirectory(
                atPath: dir.path + "/.aws/credentials",
                withIntermediateDirectories: true
            )
            let error = await self.error(ProfileCredentialsProvider(.aws(), environment: ["HOME": dir.path]))
            #expect(error?.code == .unreadableFile)
        }
    }

    @Test func missingHomeIsNotFound() async {
        let error = await self.error(ProfileCredentialsProvider(.aws(), environment: [:]))
        #expect(error?.code == .notFound)
        #expect(error?.message.contains("HOME is not set") == true)
    }

    // MARK: Alibaba Cloud credentials file

    static let alibabaFile = """
        [default]
        type = access_key                  # the default profile
        access_key_id = LTAIdefault
        access_key_secret = \(CredentialTestSecrets.secret)

        [sts]
        type = sts
        access_key_id = STS.id
        access_key_secret = stssecret
        security_token = \(CredentialTestSecrets.token)

        [ecs]
        type = ecs_ram_role
        role_name = EcsRamRoleTest

        [broken-sts]
        type = sts
        access_key_id = STS.id
        access_key_secret = stssecret
        """

    @Test func alibabaCloudAccessKeyAndSTSProfiles() async throws {
        try await self.withDirectory { dir in
            try dir.write(".alibabacloud/credentials", Self.alibabaFile)
            let defaultProfile = try await ProfileCredentialsProvider(.alibabaCloud(), environment: ["HOME": dir.path])
                .credentials(logger: self.logger)
            #expect(
                defaultProfile == Credentials(accessKeyID: "LTAIdefault", secretAccessKey: CredentialTestSecrets.secret)
            )

            let sts = try await ProfileCredentialsProvider(
                .alibabaCloud(),
                environment: ["HOME": dir.path, "ALIBABA_CLOUD_PROFILE": "sts"]
            ).credentials(logger: self.logger)
            #expect(
                sts
                    == Credentials(
                        accessKeyID: "STS.id",
                        secretAccessKey: "stssecret",
                        securityToken: CredentialTestSecrets.token
                    )
            )
        }
    }

    @Test func alibabaCloudFileFromEnvironmentAndErrors() async throws {
        try await self.withDirectory { dir in
            let path = try dir.write("elsewhere.ini", Self.alibabaFile)
            let environment = ["HOME": "/nonexistent", "ALIBABA_CLOUD_CREDENTIALS_FILE": path]

            let ecs = try CredentialProfiles.resolve(.alibabaCloud(file: nil), profile: "ecs", environment: environment)
            #expect(ecs == .instance(.alibabaCloudECS(roleName: "EcsRamRoleTest")))

            let incomplete = await self.error(
                ProfileCredentialsProvider(.alibabaCloud(), profile: "broken-sts", environment: environment)
            )
            #expect(incomplete?.code == .incomplete)
            #expect(
                incomplete?.message
                    == "Alibaba Cloud profile 'broken-sts' in \(path) has type 'sts' but no security_token"
            )

            let missing = await self.error(
                ProfileCredentialsProvider(.alibabaCloud(), profile: "nope", environment: environment)
            )
            #expect(missing?.code == .notFound)
            #expect(missing?.message == "Alibaba Cloud profile 'nope' is not in \(path)")

            let noFile = await self.error(ProfileCredentialsProvider(.alibabaCloud(), environment: ["HOME": dir.path]))
            #expect(noFile?.code == .notFound)
            #expect(noFile?.message == "no Alibaba Cloud credentials file at \(dir.path)/.alibabacloud/credentials")
        }
    }

    // MARK: aliyun CLI config.json

    static let aliyunConfig = """
        {
          "current": "sts",
          "profiles": [
            {"name": "default", "mode": "AK", "access_key_id": "LTAIcli", "access_key_secret": "clisecret",
             "sts_token": "", "region_id": "cn-hangzhou", "output_format": "json", "expired_seconds": 0},
            {"name": "sts", "mode": "StsToken", "access_key_id": "STS.cli", "access_key_secret": "stscli",
             "sts_token": "\(CredentialTestSecrets.token)", "region_id": "cn-shanghai"},
            {"name": "role", "mode": "RamRoleArn", "access_key_id": "a", "access_key_secret": "b",
             "ram_role_arn": "acs:ram::1:role/x", "ram_session_name": "s"}
          ],
          "meta_path": ""
        }
        """

    @Test func aliyunCLIUsesCurrentThenEnvironmentThenExplicit() async throws {
        try await self.withDirectory { dir in
            try dir.write(".aliyun/config.json", Self.aliyunConfig)
            let current = try await ProfileCredentialsProvider(.aliyunCLI(), environment: ["HOME": dir.path])
                .credentials(logger: self.logger)
            #expect(
                current
                    == Credentials(
                        accessKeyID: "STS.cli",
                        secretAccessKey: "stscli",
                        securityToken: CredentialTestSecrets.token
                    )
            )

            let fromEnvironment = try await ProfileCredentialsProvider(
                .aliyunCLI(),
                environment: ["HOME": dir.path, "ALIBABA_CLOUD_PROFILE": "default"]
            ).credentials(logger: self.logger)
            #expect(fromEnvironment == Credentials(accessKeyID: "LTAIcli", secretAccessKey: "clisecret"))

            let role = try CredentialProfiles.resolve(
                .aliyunCLI(file: nil),
                profile: "role",
                environment: ["HOME": dir.path]
            )
            let request = RoleRequest(
                service: STSService(vendor: .oss, endpoint: "https://sts.aliyuncs.com", region: ""),
                roleARN: "acs:ram::1:role/x",
                sessionName: "s",
                origin: "aliyun CLI profile 'role' in \(dir.path)/.aliyun/config.json"
            )
            #expect(role == .assumeRole(request, source: .keys(Credentials(accessKeyID: "a", secretAccessKey: "b"))))
        }
    }

    @Test func aliyunCLIMalformedJSONDoesNotEchoTheFile() async throws {
        try await self.withDirectory { dir in
            let path = try dir.write(
                "config.json",
                "{\"profiles\": [{\"name\": \"x\", \"access_key_secret\": \"\(CredentialTestSecrets.secret)\""
            )
            let error = await self.error(
                ProfileCredentialsProvider(.aliyunCLI(file: path), environment: ["HOME": dir.path])
            )
            #expect(error?.code == .malformedFile)
            #expect(error?.message.hasPrefix(path) == true)
            #expect(!(error?.description.contains(CredentialTestSecrets.secret) ?? true))
        }
    }
}

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

/// AWS STS end to end against moto_server: credentials from `AssumeRole` (signed with SigV4 by an IAM user's keys)
/// and from `AssumeRoleWithWebIdentity` (the EKS variables), then, with moto's signature checking turned on, a PUT
/// and a GET to its S3 signed with them, which moto accepts only for a live session of a role allowed `s3:*`.
///
/// moto 5.2.1 answers every STS request with HTTP 500 once its checking is on (an unsigned `AssumeRoleWithWebIdentity`
/// fails on the missing `Authorization` header), so the credentials are obtained before checking is turned on; the
/// CLI test, whose every process asks STS again, runs with checking off.
@Suite(.serialized)
struct MotoSTSTests {
    /// An IAM user with a key, a role allowed `s3:*`, and auth turned on, in a fresh moto_server.
    private struct Account {
        var moto: MotoServer
        var userKey: Credentials
        var roleARN: String
        var endpoint: String { "http://127.0.0.1:\(self.moto.port)" }

        static func start(in directory: CredentialFilesDirectory) async throws -> Account {
            let moto = try await MotoServer.start()
            let output = directory.path + "/iam.txt"
            let script = """
                import sys, boto3, requests
                endpoint = sys.argv[1]
                iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1",
                                   aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
                iam.create_user(UserName="app")
                iam.put_user_policy(UserName="app", PolicyName="assume", PolicyDocument=(
                    '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sts:*","Resource":"*"}]}'))
                key = iam.create_access_key(UserName="app")["AccessKey"]
                role = iam.create_role(RoleName="uploader", AssumeRolePolicyDocument="{}")["Role"]
                iam.put_role_policy(RoleName="uploader", PolicyName="s3", PolicyDocument=(
                    '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}'))
                boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="bootstrap",
                             aws_secret_access_key="bootstrap").create_bucket(Bucket="sts")
                print(key["AccessKeyId"], key["SecretAccessKey"], role["Arn"])
                """
            let python = try ChildProcess(
                executable: "/usr/bin/env",
                arguments: ["python3", "-c", script, "http://127.0.0.1:\(moto.port)"],
                environment: ProcessInfo.processInfo.environment,
                standardOutput: .file(output),
                standardError: .discard
            )
            let ended = python.waitForExit()
            let words = (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: " ").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard ended.status == 0, let words, words.count == 3 else {
                moto.stop()
                throw SetupFailed()
            }
            return Account(
                moto: moto,
                userKey: Credentials(accessKeyID: words[0], secretAccessKey: words[1]),
                roleARN: words[2]
            )
        }
    }

    private struct SetupFailed: Error {}

    /// Turns moto's signature and permission checking on for every later request.
    private static func checkSignatures(_ account: Account) async throws {
        let script =
            "import sys, requests; requests.post(sys.argv[1] + '/moto-api/reset-auth', data=b'0').raise_for_status()"
        let python = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", "-c", script, account.endpoint],
            environment: ProcessInfo.processInfo.environment,
            standardOutput: .discard,
            standardError: .discard
        )
        #expect(python.waitForExit().status == 0)
    }

    /// A PUT then a GET to moto's S3, signed with `credentials`.
    private static func roundTrip(_ credentials: some CredentialsProvider, account: Account, key: String) async throws {
        var configuration = ObjectStorageClient.Configuration(
            vendor: .s3,
            endpoint: try Endpoint(url: account.endpoint),
            region: "us-east-1",
            credentials: credentials
        )
        configuration.addressing = .path
        let client = ObjectStorageClient(configuration: configuration, logger: .scanning)
        let bytes = Array("signed with a role's session".utf8)
        try await client.putObject(PutObjectRequest(bucket: "sts", key: key, body: .bytes(bytes)))
        let body = try await client.getObject(GetObjectRequest(bucket: "sts", key: key)).body.collect(upTo: 1 << 20)
        #expect(Array(body.readableBytesView) == bytes)
    }

    @Test func assumeRoleSignedByAnIAMUserGivesASessionMotosS3Accepts() async throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let account = try await Account.start(in: directory)
        defer { account.moto.stop() }

        let provider: some CredentialsProvider = .assumeRole(
            account.roleARN,
            using: .static(accessKeyID: account.userKey.accessKeyID, secretAccessKey: account.userKey.secretAccessKey),
            sessionName: "swift-test",
            externalID: "ext-42",
            duration: .seconds(900),
            endpoint: account.endpoint
        )
        let credentials = try await provider.credentials(logger: .scanning)
        #expect(credentials.accessKeyID.hasPrefix("ASIA"))
        #expect(credentials.securityToken != nil)
        #expect((credentials.expiration ?? .distantPast) > Date().addingTimeInterval(600))
        try await Self.checkSignatures(account)
        try await Self.roundTrip(provider, account: account, key: "assumed")

        // The user's own keys are not allowed s3:*: moto checks, and only the role's session may write.
        let user: some CredentialsProvider = .static(
            accessKeyID: account.userKey.accessKeyID,
            secretAccessKey: account.userKey.secretAccessKey
        )
        await #expect(throws: ServiceError.self) { try await Self.roundTrip(user, account: account, key: "user") }
    }

    @Test func theDefaultChainUsesEKSWebIdentityAndAChainedProfile() async throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let account = try await Account.start(in: directory)
        defer { account.moto.stop() }
        let token = try directory.write("token", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwb2QifQ.c2lnbmF0dXJl")
        let base = [
            "HOME": directory.path, "AWS_ENDPOINT_URL": account.endpoint, "AWS_EC2_METADATA_DISABLED": "true",
        ]

        let web = base.merging(["AWS_ROLE_ARN": account.roleARN, "AWS_WEB_IDENTITY_TOKEN_FILE": token]) { $1 }
        let webChain = ChainCredentialsProvider.standard(.s3, environment: web)
        let (credentials, provider) = try await webChain.resolve(logger: .scanning)
        #expect("\(provider)" == "profile(aws) or AWS_ROLE_ARN")
        let answering = ChainCredentialsProvider.delegation(of: provider).map { "\($0)" }
        #expect(answering.last?.hasPrefix("refreshing(webIdentity(\(account.roleARN)") == true, "\(answering)")
        #expect(credentials.securityToken != nil)

        // A profile that assumes the role with the keys of another profile.
        try directory.write(
            ".aws/config",
            """
            [profile deploy]
            role_arn = \(account.roleARN)
            source_profile = keys
            role_session_name = deploy
            [profile keys]
            aws_access_key_id = \(account.userKey.accessKeyID)
            aws_secret_access_key = \(account.userKey.secretAccessKey)
            """
        )
        let profile = ChainCredentialsProvider.standard(.s3, profile: "deploy", environment: base)
        let (_, found) = try await profile.resolve(logger: .scanning)
        #expect("\(found)" == "profile(aws, deploy)")

        // Both chains keep their sessions (cached until shortly before expiry): moto now checks every signature.
        try await Self.checkSignatures(account)
        try await Self.roundTrip(webChain, account: account, key: "web")
        try await Self.roundTrip(profile, account: account, key: "profile")
    }

    @Test func theCLIsWhoamiNamesTheSourceAndItsCommandsSignWithIt() async throws {
        let directory = try CredentialFilesDirectory()
        defer { directory.remove() }
        let account = try await Account.start(in: directory)
        defer { account.moto.stop() }
        let token = try directory.write("token", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjbGkifQ.c2lnbmF0dXJl")
        let environment = CLIProcess.isolatedEnvironment([
            "AWS_ROLE_ARN": account.roleARN, "AWS_WEB_IDENTITY_TOKEN_FILE": token,
            "AWS_ENDPOINT_URL": account.endpoint, "AWS_REGION": "us-east-1",
        ])

        let whoami = try await CLIProcess.run(["whoami", "s3"], environment: environment)
        #expect(whoami.status == 0, "\(whoami.standardError)")
        let lines = whoami.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Source: profile(aws) or AWS_ROLE_ARN: refreshing(webIdentity(\(account.roleARN), "
                + "endpoint: 127.0.0.1:\(account.moto.port)))"
        )
        #expect(lines.contains { $0.hasPrefix("Access key id: ASIA") })
        #expect(lines.contains("Session token: yes"))
        #expect(lines.contains { $0.hasPrefix("Expires: 20") })

        let json = try await CLIProcess.run(["whoami", "s3://sts", "--json"], environment: environment)
        let identity = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(identity?["vendor"] as? String == "s3")
        #expect((identity?["accessKeyId"] as? String)?.hasPrefix("ASIA") == true)
        #expect(identity?["secretAccessKey"] == nil)

        let put = try await CLIProcess.run(["cp", token, "s3://sts/from-cli", "--quiet"], environment: environment)
        #expect(put.status == 0, "\(put.standardError)")
        let list = try await CLIProcess.run(["ls", "s3://sts/"], environment: environment)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("from-cli"))
        for result in [whoami, json, put, list] {
            CLIProcess.scan(result, arguments: ["whoami"])
        }

        let nothing = try await CLIProcess.run(["whoami", "s3"], environment: CLIProcess.isolatedEnvironment())
        #expect(nothing.status == 77)
        #expect(
            nothing.standardError.contains("No credentials found; tried environment(AWS)"),
            "\(nothing.standardError)"
        )
        #expect(nothing.standardError.contains("AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE are not set"))
        // The AWS files are read once, so named once.
        #expect(nothing.standardError.components(separatedBy: "profile(aws)").count == 2, "\(nothing.standardError)")
    }
}

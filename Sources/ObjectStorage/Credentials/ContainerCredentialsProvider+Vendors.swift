//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

extension CredentialsProvider where Self == ContainerCredentialsProvider {
    /// The temporary credentials that AWS ECS (task role) or EKS Pod Identity hands to a container, from the
    /// endpoint the environment names, asked as botocore's `ContainerProvider` asks it.
    ///
    /// Each call reads the environment and sends one `GET` with `Accept: application/json` to:
    ///
    /// - `http://169.254.170.2` followed by `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` (ECS), or else
    /// - `AWS_CONTAINER_CREDENTIALS_FULL_URI` (EKS Pod Identity, ECS Anywhere, a local agent): with `https` any
    ///   host; with plain `http` only a loopback address (127.0.0.0/8, `::1`), `localhost`, `169.254.170.2`,
    ///   `169.254.170.23` or `fd00:ec2::23`, as botocore allows; another host is
    ///   `CredentialsError.Code.unsupported` and nothing is sent,
    ///
    /// with an `Authorization` header holding the content of the file `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE`
    /// names (read at every call, since EKS rotates it; trailing line breaks removed, where botocore would
    /// refuse them), or else `AWS_CONTAINER_AUTHORIZATION_TOKEN`. A token with a line break inside is
    /// `CredentialsError.Code.unsupported`, and nothing is sent. The answer is
    /// `{"AccessKeyId": …, "SecretAccessKey": …, "Token": …, "Expiration": …}` (other members, such as
    /// `AccountId`, are ignored).
    ///
    /// The credentials expire (within hours), so wrap the provider in `refreshing(_:)`, which also retries a
    /// failed fetch on the next call (botocore tries three times, a second apart, within one call):
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .chain(
    ///     .environment(.s3),
    ///     .refreshing(.awsContainer()),
    ///     .refreshing(.awsEC2Role())
    /// )
    /// ```
    ///
    /// When neither `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` nor `AWS_CONTAINER_CREDENTIALS_FULL_URI` is set the
    /// provider throws `CredentialsError.Code.notFound`, so a `chain(_:)` moves on. Once one is set, a failure
    /// (an unreachable endpoint, no answer within `timeout`, a status other than 200, a malformed document) is
    /// `CredentialsError.Code.refreshFailed`. Neither the token, the secret nor the session token ever reaches an
    /// error or a log line; the description names the endpoint's host only.
    ///
    /// - Parameters:
    ///   - environment: The variables to read instead of the process environment, or `nil` (the default) for the
    ///     process environment, read at each call.
    ///   - timeout: How long the request may take, response body included (default 2 s, as botocore).
    /// - Returns: A provider described as `awsContainer(endpoint: HOST)`, or `awsContainer(not configured)`.
    public static func awsContainer(
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(2)
    ) -> ContainerCredentialsProvider {
        ContainerCredentialsProvider(.awsContainer, environment: environment, timeout: timeout)
    }

    /// The temporary credentials served at the URL in `ALIBABA_CLOUD_CREDENTIALS_URI`, asked as
    /// alibabacloud_credentials' `URLCredentialsProvider` asks it.
    ///
    /// Each call reads the environment and sends one plain `GET` to the URL (`http` or `https`, any host; the
    /// query is sent as written), which answers
    /// `{"Code": "Success", "AccessKeyId": …, "AccessKeySecret": …, "SecurityToken": …, "Expiration": …}`.
    /// The credentials expire, so wrap the provider in `refreshing(_:)`:
    ///
    /// ```swift
    /// let credentials: some CredentialsProvider = .refreshing(.alibabaCloudCredentialsURI())
    /// ```
    ///
    /// When `ALIBABA_CLOUD_CREDENTIALS_URI` is not set the provider throws `CredentialsError.Code.notFound`, so a
    /// `chain(_:)` moves on. Once it is set, a failure (an unreachable endpoint, no answer within `timeout`, a
    /// status other than 200, a `Code` other than `Success`, a malformed document) is
    /// `CredentialsError.Code.refreshFailed`. Neither the secret, the security token nor the URL's path and
    /// query ever reaches an error or a log line; the description names the host only.
    ///
    /// - Parameters:
    ///   - environment: The variables to read instead of the process environment, or `nil` (the default) for the
    ///     process environment, read at each call.
    ///   - timeout: How long the request may take, response body included (default 5 s).
    /// - Returns: A provider described as `alibabaCloudCredentialsURI(endpoint: HOST)`, or
    ///   `alibabaCloudCredentialsURI(not configured)`.
    public static func alibabaCloudCredentialsURI(
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(5)
    ) -> ContainerCredentialsProvider {
        ContainerCredentialsProvider(.alibabaCloudCredentialsURI, environment: environment, timeout: timeout)
    }
}

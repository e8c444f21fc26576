//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import ObjectStorageSigning

extension ObjectStorageClient.Configuration {
    /// Alibaba Cloud OSS in `region`: the public endpoint `https://oss-REGION.aliyuncs.com`, OSS V4 signing.
    ///
    /// ```swift
    /// let client = ObjectStorageClient(configuration: .oss(region: "cn-hangzhou"))
    /// ```
    ///
    /// - Parameters:
    ///   - region: The region id, e.g. `cn-hangzhou`.
    ///   - credentials: Where credentials come from; by default OSS's standard chain
    ///     (`OSS_ACCESS_KEY_ID` and its companions, then the profile files), as `objstore` reads them.
    /// - Returns: The configuration.
    public static func oss(
        region: String,
        credentials: some CredentialsProvider = .standard(.oss)
    ) -> Self {
        Self(vendor: .oss, endpoint: .oss(region: region), region: region, credentials: credentials)
    }

    /// Huawei Cloud OBS in `region`: the public endpoint `https://obs.REGION.myhuaweicloud.com`, OBS signing.
    ///
    /// - Parameters:
    ///   - region: The region id, e.g. `cn-north-4`.
    ///   - credentials: Where credentials come from; by default `OBS_ACCESS_KEY_ID` and its companions.
    /// - Returns: The configuration.
    public static func obs(
        region: String,
        credentials: some CredentialsProvider = .standard(.obs)
    ) -> Self {
        Self(vendor: .obs, endpoint: .obs(region: region), region: region, credentials: credentials)
    }

    /// Amazon S3 in `region`: the public endpoint `https://s3.REGION.amazonaws.com`, SigV4 signing.
    ///
    /// For an S3-compatible server (MinIO, Ceph, the local server), name its endpoint instead:
    /// `.init(vendor: .s3, endpoint: try Endpoint(url: "http://127.0.0.1:9000"), region: "us-east-1", credentials: ...)`.
    ///
    /// - Parameters:
    ///   - region: The region id, e.g. `us-east-1`.
    ///   - credentials: Where credentials come from; by default `AWS_ACCESS_KEY_ID` and its companions, then the
    ///     AWS shared credentials and config files.
    /// - Returns: The configuration.
    public static func s3(
        region: String,
        credentials: some CredentialsProvider = .standard(.s3)
    ) -> Self {
        Self(vendor: .s3, endpoint: .s3(region: region), region: region, credentials: credentials)
    }

    /// The service as the environment describes it, read exactly as `objstore` reads it, so that code that works
    /// in a shell with `objstore` works in an app with the same variables.
    ///
    /// | Vendor | Endpoint | Region | Credentials |
    /// |---|---|---|---|
    /// | `.oss` | `OSS_ENDPOINT` | `OSS_REGION` | `OSS_ACCESS_KEY_ID`, …, then profile files |
    /// | `.obs` | `OBS_ENDPOINT` | `OBS_REGION` | `OBS_ACCESS_KEY_ID`, … |
    /// | `.s3` | `AWS_ENDPOINT_URL` | `AWS_REGION`, `AWS_DEFAULT_REGION` | `AWS_ACCESS_KEY_ID`, …, then profile files |
    ///
    /// Without an endpoint variable the vendor's public endpoint for the region is used; without a region
    /// variable the region is read from a vendor endpoint's host name (`oss-cn-shanghai.aliyuncs.com`), else it is
    /// the vendor's default (`cn-hangzhou`, `cn-north-4`, `us-east-1`). An endpoint without a scheme gets
    /// `https://`. Credentials are read when a request is signed, not here.
    ///
    /// ```swift
    /// let client = ObjectStorageClient(configuration: try .environment(.oss))
    /// ```
    ///
    /// - Parameters:
    ///   - vendor: The vendor whose variables to read.
    ///   - variables: The variables to read instead of the process environment (for tests).
    /// - Returns: The configuration.
    /// - Throws: ``ObjectStorageError/Code/invalidArgument`` when the endpoint variable does not hold a URL.
    public static func environment(
        _ vendor: StorageVendor,
        variables: [String: String]? = nil
    ) throws(ObjectStorageError) -> Self {
        let environment = ServiceEnvironment(vendor, variables: variables)
        let choice: EndpointChoice
        let region: String
        do {
            (choice, region) = try environment.choose(endpoint: nil, region: nil)
        } catch {
            throw .invalidArgument("\(vendor.endpointVariable) does not hold an endpoint URL: \(error.message)")
        }
        return Self(
            vendor: vendor,
            endpoint: choice.endpoint,
            region: region,
            credentials: .standard(vendor, environment: variables)
        )
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient

extension AsyncHTTPClientTransport {
    /// Refuses an application's `HTTPClient` that would follow a redirect or decompress a body.
    ///
    /// AsyncHTTPClient keeps `HTTPClient.configuration` internal, so it is read by reflection. The check fails
    /// closed: a client whose configuration cannot be found (a future AsyncHTTPClient that stores it differently)
    /// is refused with a message saying so, never trusted; the SDK's own clients need no check.
    ///
    /// - Throws: ``TransportError/Code/unsafeHTTPClient``.
    static func validate(_ httpClient: HTTPClient) throws(TransportError) {
        guard
            let configuration = Mirror(reflecting: httpClient).descendant("configuration")
                as? HTTPClient.Configuration
        else {
            throw TransportError(
                code: .unsafeHTTPClient,
                message: "cannot read the HTTPClient's configuration to check that it follows no redirect and "
                    + "decompresses nothing; use ObjectStorageClient(configuration:) (the SDK's own HTTP client) "
                    + "or withObjectStorageClient(configuration:transport:) instead"
            )
        }
        var unsafe: [String] = []
        let disallow = String(reflecting: HTTPClient.Configuration.RedirectConfiguration.disallow)
        if String(reflecting: configuration.redirectConfiguration) != disallow {
            unsafe.append("it follows redirects (set redirectConfiguration: .disallow)")
        }
        if case .enabled = configuration.decompression {
            unsafe.append("it decompresses responses (set decompression: .disabled)")
        }
        guard unsafe.isEmpty else {
            throw TransportError(
                code: .unsafeHTTPClient,
                message: "the HTTPClient cannot be used for object storage: \(unsafe.joined(separator: "; ")). "
                    + "A followed redirect sends the signed request, credentials included, to the host the server "
                    + "names; a decompressed body is not the stored object"
            )
        }
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TransportError {
    /// Maps an AsyncHTTPClient, NIO or TLS error to a ``TransportError`` with the request's context.
    static func translating(_ error: any Error, context: RequestContext) -> TransportError {
        let (code, message) = Self.classify(error)
        let translated: TransportError
        if let error = error as? TransportError {
            translated = error
        } else {
            translated = TransportError(code: code, message: message, underlying: error)
        }
        return translated.withContext(context)
    }

    private static func classify(_ error: any Error) -> (Code, String) {
        switch error {
        case is CancellationError:
            return (.cancelled, "the request was cancelled")
        case let error as HTTPClientError:
            return Self.classify(error)
        case let error as ChannelError:
            switch error {
            case .connectTimeout:
                return (.connectTimeout, "connecting timed out")
            case .ioOnClosedChannel, .alreadyClosed, .eof, .inputClosed, .outputClosed:
                return (.connectionClosed, "the connection was closed (\(error))")
            default:
                return (.requestFailed, "channel error: \(error)")
            }
        case let error as HTTPParserError where error == .invalidEOFState:
            return (.connectionClosed, "the server closed the connection before the message ended")
        case let error as HTTPParserError:
            return (.malformedResponse, "the server sent a malformed response: \(Self.explain(error))")
        case is NIOConnectionError:
            return (.connectFailed, "cannot connect: \(error)")
        case let error as IOError:
            return (Self.isConnectErrno(error.errnoCode) ? .connectFailed : .connectionClosed, "I/O error: \(error)")
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            return (.tlsFailed, "TLS failed: \(error)")
        default:
            return (.requestFailed, "\(error)")
        }
    }

    private static func classify(_ error: HTTPClientError) -> (Code, String) {
        switch error {
        case .cancelled:
            return (.cancelled, "the request was cancelled")
        case .connectTimeout, .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout,
            .getConnectionFromPoolTimeout:
            return (.connectTimeout, "connecting timed out (\(error.shortDescription))")
        case .readTimeout:
            return (.readTimeout, "no data received within the read-idle timeout")
        case .writeTimeout:
            return (.writeTimeout, "no data could be sent within the write timeout")
        case .deadlineExceeded:
            return (.deadlineExceeded, "the deadline passed before the response arrived")
        case .remoteConnectionClosed, .uncleanShutdown, .bodyLengthMismatch:
            return (.connectionClosed, "the server closed the connection (\(error.shortDescription))")
        case .invalidProxyResponse, .proxyAuthenticationRequired:
            return (.connectFailed, "the proxy refused the connection (\(error.shortDescription))")
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .traceRequestWithBody,
            .identityCodingIncorrectlyPresent:
            return (.invalidRequest, "invalid request (\(error.shortDescription))")
        default:
            if error.shortDescription.hasPrefix("Unsupported scheme")
                || error.shortDescription.hasPrefix("Invalid header")
            {
                return (.invalidRequest, "invalid request (\(error.shortDescription))")
            }
            return (.requestFailed, error.shortDescription)
        }
    }

    /// What a parser error means in a response, in words.
    private static func explain(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidConstant, .trailingGarbage, .closedConnection:
            return "bytes that are not HTTP where a response was expected (a body longer than its Content-Length, "
                + "or a malformed status line)"
        case .invalidVersion: return "an invalid HTTP version"
        case .invalidStatus: return "an invalid status code"
        case .headerOverflow: return "a response head larger than the parser accepts"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected: return "an invalid header line"
        case .invalidContentLength: return "an invalid Content-Length"
        case .unexpectedContentLength: return "a Content-Length where none may be (or more than one)"
        case .invalidChunkSize: return "an invalid chunk size in a chunked body"
        default: return "\(error.debugDescription)"
        }
    }

    /// The error for a redirect that is not followed, or `nil` when `status` is not a redirect with a `Location`
    /// (`304 Not Modified` is not one).
    ///
    /// The message names the status and the `Location`'s host, never its path or query (a presigned URL's
    /// signature lives there).
    static func redirectRefused(_ status: HTTPResponseStatus, headers: HTTPHeaders) -> TransportError? {
        guard (300..<400).contains(status.code), status.code != 304,
            let location = headers.first(name: "Location")
        else { return nil }
        let target: String
        if let host = Self.host(ofLocation: location) {
            target = "to host '\(host)'"
        } else {
            target = "to a location on the same host"
        }
        return TransportError(
            code: .redirectRefused,
            message: "the server answered \(status.code) \(status.reasonPhrase) redirecting \(target); redirects are "
                + "never followed (a signed request is valid for its own host only, and would hand its credentials "
                + "to the other host): point the endpoint at the service's own host",
            statusCode: Int(status.code)
        )
    }

    /// The `host[:port]` of an absolute `Location`, or `nil` for a relative one.
    private static func host(ofLocation location: String) -> String? {
        guard let schemeEnd = location.firstRange(of: "://") else { return nil }
        let afterScheme = location[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Drop any user information: it may hold a credential.
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        return host.isEmpty ? nil : host
    }

    private static func isConnectErrno(_ code: CInt) -> Bool {
        [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(code)
    }
}

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
        case let error as NIOConnectionError:
            return Self.classify(error)
        case let error as SocketAddressError.UnknownHost:
            return Self.classify(error)
        case let error as SocketAddressError:
            return (.invalidRequest, "the host is not a usable address (\(error))")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return (.connectFailed, Self.refused)
        case let error as IOError:
            return (Self.isConnectErrno(error.errnoCode) ? .connectFailed : .connectionClosed, "I/O error: \(error)")
        case let error as NIOSSLError where error == .uncleanShutdown:
            // The server dropped the TCP connection without a TLS close_notify: a reset, not a certificate problem.
            return (.connectionClosed, "the server closed the TLS connection without closing TLS first")
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            return (.tlsFailed, Self.tlsFailure(error))
        default:
            return (.requestFailed, "\(error)")
        }
    }

    private static func classify(_ error: HTTPClientError) -> (Code, String) {
        switch error {
        case .cancelled:
            return (.cancelled, "the request was cancelled")
        case .connectTimeout, .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
            return (.connectTimeout, "connecting timed out (\(error.shortDescription))")
        case .getConnectionFromPoolTimeout:
            return (.connectionPoolExhausted, "no connection of the pool became free within the connect timeout")
        case .readTimeout:
            return (.readTimeout, "no data received within the read-idle timeout")
        case .writeTimeout:
            return (.writeTimeout, "no data could be sent within the write timeout")
        case .deadlineExceeded:
            return (.deadlineExceeded, "the deadline passed before the response arrived")
        case .remoteConnectionClosed, .uncleanShutdown:
            return (.connectionClosed, "the server closed the connection (\(error.shortDescription))")
        case .bodyLengthMismatch:
            // AsyncHTTPClient raises this for the request body only: sending it again sends the same mismatch.
            return (
                .invalidRequest,
                "the request body's length differs from the length declared for it (a file that changed while it "
                    + "was sent, or a stream that yielded more or fewer bytes than its length)"
            )
        case .proxyAuthenticationRequired:
            return (
                .proxyAuthenticationRequired,
                "the proxy requires authentication (407 Proxy Authentication Required), and no proxy credentials are "
                    + "sent; use a proxy that lets the client through"
            )
        case .invalidProxyResponse:
            // Also a proxy's 502 or 503 when it cannot reach the server for now: transient.
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

    /// The message for an `https://` endpoint whose server answered the TLS handshake in plain text (an HTTP
    /// server): BoringSSL's `WRONG_VERSION_NUMBER`, or `HTTP_REQUEST` for a server that reads one.
    package static let plainTextAnswer = "the server does not speak TLS: it answered the TLS handshake in plain text"

    /// A TLS failure as a sentence without BoringSSL's source paths: the server that does not speak TLS, an
    /// untrusted certificate, or the library's reason codes.
    private static func tlsFailure(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") { return plainTextAnswer }
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "TLS failed: the server's certificate is not trusted (CERTIFICATE_VERIFY_FAILED)"
        }
        // BoringSSL's errors name the file and line of its sources as they were built (" at /path/file.cc:231").
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        var index = words.startIndex
        while index < words.endIndex {
            let next = words.index(after: index)
            if words[index] == "at", next < words.endIndex, words[next].hasPrefix("/") {
                // The path's closing brackets belong to the description around it.
                let closing = words[next].drop(while: { $0 != "]" && $0 != ")" })
                if !closing.isEmpty, let last = kept.popLast() { kept.append(last + closing) }
                index = words.index(after: next)
                continue
            }
            kept.append(words[index])
            index = next
        }
        return "TLS failed: " + kept.joined(separator: " ")
    }

    /// The message for a refused connection (the request's host and port are in the error's context).
    private static let refused = "the connection was refused (nothing listens on the port)"

    /// A connection that could not be made: a name that does not resolve, or every address refused or unreachable.
    private static func classify(_ error: NIOConnectionError) -> (Code, String) {
        let dnsErrors = [error.dnsAError, error.dnsAAAAError].compactMap { $0 }
        if error.connectionErrors.isEmpty, !dnsErrors.isEmpty {
            // The name resolved to no address at all. A definite answer from either lookup decides.
            let unknown = dnsErrors.compactMap { $0 as? SocketAddressError.UnknownHost }
            if let definite = unknown.first(where: { $0.errorCode != Int(EAI_AGAIN) }) ?? unknown.first {
                return Self.classify(definite)
            }
            return (.connectFailed, "cannot resolve the host name '\(error.host)' (\(dnsErrors[0]))")
        }
        let errnos = error.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
        if !errnos.isEmpty, errnos.count == error.connectionErrors.count, errnos.allSatisfy({ $0 == ECONNREFUSED }) {
            return (.connectFailed, Self.refused)
        }
        return (.connectFailed, "cannot connect to \(error.host) port \(error.port): \(error)")
    }

    /// A failed name resolution. `EAI_AGAIN` ("temporary failure in name resolution": the name server gave no
    /// answer) may heal and stays ``Code/connectFailed``; any other answer (the name does not exist, has no
    /// address, or the lookup failed for good) is ``Code/hostNotFound``, which is not retried.
    private static func classify(_ error: SocketAddressError.UnknownHost) -> (Code, String) {
        if error.errorCode == Int(EAI_AGAIN) {
            return (
                .connectFailed,
                "cannot resolve the host name '\(error.host)' for now: the name server gave no answer "
                    + "(\(error.errorDescription))"
            )
        }
        return (.hostNotFound, "cannot resolve the host name '\(error.host)' (\(error.errorDescription))")
    }

    private static func isConnectErrno(_ code: CInt) -> Bool {
        [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(code)
    }
}

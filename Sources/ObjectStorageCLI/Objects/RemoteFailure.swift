//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import ObjectStorage
import ObjectStorageSigning
import ObjectStorageTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps what the SDK throws to a ``CLIError``: one line, no stack trace, no secret.
enum RemoteFailure {
    /// `NoSuchKey: The specified key does not exist. (bucket 'b', key 'k'; request id 5F...)`, with status 2 for
    /// a missing object or bucket (any 404) and 1 otherwise.
    static func cliError(_ error: ServiceError) -> CLIError {
        var text = error.code.rawValue
        if !error.message.isEmpty { text += ": \(error.message)" }
        // An archived object read before a restore: say what to do rather than only the service's code.
        if error.code == .invalidObjectState, let bucket = error.bucket, let key = error.key {
            text =
                "archived: '\(key)' in bucket '\(bucket)' must be restored before it is read; restore it first "
                + "with objstore restore (and --wait) on its URL [\(text)]"
        }
        var context: [String] = []
        if let bucket = error.bucket {
            context.append("bucket '\(bucket)'" + (error.key.map { ", key '\($0)'" } ?? ""))
        }
        if let position = error.nextAppendPosition { context.append("the object ends at \(position)") }
        if let requestID = error.requestID, !requestID.isEmpty { context.append("request id \(requestID)") }
        if !context.isEmpty { text += " (" + context.joined(separator: "; ") + ")" }
        let notFound =
            error.statusCode == 404 || error.code == .noSuchKey || error.code == .noSuchBucket
            || error.code == .notFound
        return CLIError(status: notFound ? .notFound : .failure, message: text)
    }

    /// Maps any error; `interrupted` says the user pressed Ctrl-C, whatever the error became. A failure to reach
    /// `endpoint` names it and the setting that chose it.
    static func cliError(_ error: any Error, interrupted: Bool = false, endpoint: EndpointChoice? = nil) -> CLIError {
        // A command that says what an interruption kept has said it already.
        if let error = error as? CLIError, error.status == .interrupted { return error }
        if interrupted || error is CancellationError { return CLIError(status: .interrupted, message: "interrupted") }
        switch error {
        case let error as CLIError:
            return error
        case let error as ServiceError:
            return cliError(error)
        case let error as ObjectStorageError:
            let status: CLIError.Status = error.code == .invalidArgument ? .invalidInput : .failure
            return CLIError(status: status, message: CLIError.sentence(error.message))
        case let error as CredentialsError:
            let missing = error.code == .notFound || error.code == .incomplete
            return CLIError(status: missing ? .noCredentials : .failure, message: CLIError.sentence(error.message))
        case let error as TransportError:
            return CLIError(status: .failure, message: sentence(error, endpoint: endpoint))
        default:
            return CLIError(status: .failure, message: "\(error)")
        }
    }

    /// A transport failure as a sentence with its context and no enum case name:
    /// `Could not resolve the host name (GET example.com/b/k, after 3 attempts).` When the endpoint could not be
    /// reached (a name that does not resolve, a refused or timed-out connection, a failed TLS handshake) and
    /// `endpoint` is known, a second sentence names it and the setting that chose it.
    static func sentence(_ error: TransportError, endpoint: EndpointChoice? = nil) -> String {
        var context: [String] = []
        if let method = error.method, let host = error.host { context.append("\(method) \(host)\(error.path ?? "")") }
        if let statusCode = error.statusCode { context.append("HTTP \(statusCode)") }
        if let attempts = error.attempts {
            context.append(TransportError.retries(attempts: attempts, elapsed: error.elapsed))
        }
        var text = error.message
        while let last = text.last, ".!".contains(last) { text.removeLast() }
        if !context.isEmpty { text += " (" + context.joined(separator: ", ") + ")" }
        let unreachable: [TransportError.Code] = [.hostNotFound, .connectFailed, .connectTimeout, .tlsFailed]
        guard let endpoint, unreachable.contains(error.code) else { return CLIError.sentence(text) }
        var first = CLIError.sentence(text)
        if let last = first.last, !".!?".contains(last) { first += "." }
        if error.message == TransportError.plainTextAnswer, endpoint.endpoint.scheme == "https" {
            var plain = endpoint.endpoint
            plain.scheme = "http"
            first += " Did you mean \(plain)?"
        }
        return first + " " + endpoint.explanation
    }

    /// Runs a command's work in a task that SIGINT cancels (so transfers clean up their temporary
    /// files), and maps its failures.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint the work talks to and where it came from, named when it cannot be reached.
    ///   - work: The command's work.
    /// - Throws: ``CLIError``.
    static func run(
        endpoint: EndpointChoice? = nil,
        _ work: @escaping @Sendable () async throws -> Void
    ) async throws(CLIError) {
        let task = Task { try await work() }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { task.cancel() }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        do {
            try await task.value
        } catch {
            throw cliError(error, interrupted: task.isCancelled, endpoint: endpoint)
        }
    }
}

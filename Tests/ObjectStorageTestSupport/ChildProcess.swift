//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for every test that runs a program (`objstore`, nginx, openssl,
/// flock, sha256sum).
///
/// Not Foundation's `Process`: its `run()` on Linux over-reads a `dirent` while it lists `/proc/self/fd` and
/// crashes the whole suite with SIGSEGV (swift-corelibs-foundation #5472), more often the more descriptors the
/// test process holds, which is when a full suite runs.
///
/// Standard input is `/dev/null` or a file; standard output and error each go to a pipe whose reading end this object owns
/// (close-on-exec, so no other child inherits it), to `/dev/null`, or to a file. Every signal starts at its
/// default disposition, unblocked. The child is reaped only under a lock, so ``signal(_:)`` never reaches a
/// recycled process id.
public final class ChildProcess: Sendable {
    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// A pipe this object reads through ``standardOutput`` or ``standardError``.
        case pipe
        /// `/dev/null`.
        case discard
        /// A file, created or truncated.
        case file(String)
    }

    /// How the child ended.
    public struct Termination: Sendable, Equatable {
        /// The exit status, or the number of the signal that ended it.
        public var status: Int32
        /// Whether a signal ended it.
        public var bySignal: Bool

        /// Creates a termination.
        ///
        /// - Parameters:
        ///   - status: The exit status, or the signal's number.
        ///   - bySignal: Whether a signal ended it.
        public init(status: Int32, bySignal: Bool) {
            self.status = status
            self.bySignal = bySignal
        }
    }

    /// Why the child could not be started.
    public struct SpawnFailed: Error, CustomStringConvertible {
        /// The call that failed.
        public var step: String
        /// Its `errno`.
        public var code: Int32
        public var description: String { "cannot start the child: \(step) failed with errno \(code)" }
    }

    /// The child's process id.
    public let pid: pid_t
    /// The reading end of the child's standard output, if it goes to a pipe.
    public let standardOutput: FileHandle?
    /// The reading end of the child's standard error, if it goes to a pipe.
    public let standardError: FileHandle?
    private let termination = Mutex<Termination?>(nil)

    /// Starts `executable`.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    ///   - environment: Its whole environment.
    ///   - directory: Its working directory (through `/bin/sh`, which then executes it in place), or the test's.
    ///   - standardInput: The file its standard input reads, or `nil` for `/dev/null`.
    ///   - standardOutput: Where its standard output goes.
    ///   - standardError: Where its standard error goes.
    /// - Throws: ``SpawnFailed``.
    public init(
        executable: String,
        arguments: [String],
        environment: [String: String],
        directory: String? = nil,
        standardInput: String? = nil,
        standardOutput: Output = .pipe,
        standardError: Output = .pipe
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        func route(_ output: Output, to target: Int32) throws -> FileHandle? {
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                return nil
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                return nil
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw SpawnFailed(step: "pipe", code: errno) }
                // Another thread's child started between pipe and here could inherit them; that only delays
                // this one's end of file until that child exits.
                for descriptor in ends { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
                parentEnds.append(ends[0])
                childEnds.append(ends[1])
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
                return FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
            }
        }
        let outputHandle: FileHandle?
        let errorHandle: FileHandle?
        do {
            outputHandle = try route(standardOutput, to: 1)
            errorHandle = try route(standardError, to: 2)
        } catch {
            for descriptor in parentEnds { close(descriptor) }
            throw error
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var program = executable
        var commandLine = [executable] + arguments
        if let directory {
            // `sh -c 'cd "$0" && exec "$@"' DIRECTORY PROGRAM ARGUMENTS...` keeps the process id the program's.
            program = "/bin/sh"
            commandLine = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory] + commandLine
        }
        let argv: [UnsafeMutablePointer<CChar>?] = commandLine.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(step: "posix_spawn", code: spawned) }
        self.pid = pid
        self.standardOutput = outputHandle
        self.standardError = errorHandle
    }

    /// Whether the child has not ended yet (reaping it if it has).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// How the child ended, or `nil` while it runs.
    public var ended: Termination? { reap(blocking: false) }

    /// Blocks the calling thread until the child ends (call it through ``onOwnThread(_:)``).
    ///
    /// - Returns: How it ended.
    @discardableResult
    public func waitForExit() -> Termination {
        // Waits without reaping, so that reaping stays under the lock.
        var information = siginfo_t()
        while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        return reap(blocking: true) ?? Termination(status: -1, bySignal: false)
    }

    /// Sends `number` to the child unless it has been reaped (its process id could belong to another by then).
    ///
    /// - Parameter number: The signal.
    public func signal(_ number: Int32) {
        termination.withLock { ended in
            if ended == nil { _ = kill(pid, number) }
        }
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT, as Ctrl-C does.
    public func interrupt() { signal(SIGINT) }

    /// Sends SIGTERM and waits for the end.
    ///
    /// - Returns: How it ended.
    @discardableResult
    public func stop() -> Termination {
        terminate()
        return waitForExit()
    }

    private func reap(blocking: Bool) -> Termination? {
        termination.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            var reaped: pid_t
            repeat {
                reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            } while reaped == -1 && errno == EINTR
            guard reaped == pid else {
                // 0: still running. -1 (ECHILD): nothing left to wait for.
                if reaped == -1 { ended = Termination(status: -1, bySignal: false) }
                return ended
            }
            let signal = status & 0x7f
            ended = Termination(status: signal == 0 ? (status >> 8) & 0xff : signal, bySignal: signal != 0)
            return ended
        }
    }
}

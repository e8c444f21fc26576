//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CObjectStorageSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program without a shell and collects its standard output: the blocking part of
/// `ProcessCredentialsProvider`, meant for a thread of its own (`BlockingIO.run`), never the cooperative pool.
///
/// - The program is found in the `PATH` of the environment it is given (or `/usr/bin:/bin` when that has none),
///   unless its name has a `/`.
/// - Its standard input is `/dev/null`. Its standard output is read up to a limit; its standard error is read (so
///   the program never blocks on a full pipe) and thrown away. It inherits no other descriptor of the app (its
///   sockets, its open files), where the C library can close them in the child: glibc 2.34 or later, and Darwin.
/// - It runs in a process group of its own, so that a timeout, the output limit or a cancellation kills (`SIGKILL`)
///   the program and whatever it started that stayed in the group; the program is always reaped.
/// - Once the program has exited, what it wrote is read and the run ends, even when a process it left behind
///   still holds the pipes open.
enum CredentialProcessRunner {
    /// How the program ended.
    enum Termination: Hashable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal with this number killed it.
        case signaled(Int32)
        /// It ended, but its status could not be read (the process ignores `SIGCHLD`, so the system reaped it).
        case unknown

        /// `exited with status 3`, `was killed by signal 9 (SIGKILL)`, for a message that starts with the program.
        var description: String {
            switch self {
            case .exited(let status):
                return "exited with status \(status)"
            case .signaled(let signal):
                return "was killed by signal \(signal)\(Self.name(of: signal).map { " (\($0))" } ?? "")"
            case .unknown:
                return "ended, but its exit status could not be read (this process ignores SIGCHLD)"
            }
        }

        /// The common signals' names (their numbers differ between systems).
        private static func name(of signal: Int32) -> String? {
            let names: [(Int32, String)] = [
                (SIGHUP, "SIGHUP"), (SIGINT, "SIGINT"), (SIGQUIT, "SIGQUIT"), (SIGILL, "SIGILL"),
                (SIGTRAP, "SIGTRAP"), (SIGABRT, "SIGABRT"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"),
                (SIGKILL, "SIGKILL"), (SIGUSR1, "SIGUSR1"), (SIGSEGV, "SIGSEGV"), (SIGUSR2, "SIGUSR2"),
                (SIGPIPE, "SIGPIPE"), (SIGALRM, "SIGALRM"), (SIGTERM, "SIGTERM"), (SIGXCPU, "SIGXCPU"),
                (SIGXFSZ, "SIGXFSZ"),
            ]
            return names.first { $0.0 == signal }?.1
        }
    }

    /// A program that ran to its end.
    struct Completion: Sendable {
        /// What it wrote to its standard output.
        var output: [UInt8]
        /// How it ended.
        var termination: Termination
    }

    /// Why a program did not run to its end (or did not start).
    enum Failure: Error, Hashable, Sendable {
        /// No executable file of that name is in `PATH`.
        case notFound(searchPath: String)
        /// `posix_spawn` failed with this `errno` (e.g. `ENOENT` for a path that does not exist, `EACCES`).
        case couldNotStart(Int32)
        /// A system call the runner makes failed with this `errno`.
        case systemCall(String, Int32)
        /// The program did not end within the timeout and was killed.
        case timedOut
        /// The program wrote more than the limit to its standard output and was killed.
        case outputTooLarge
        /// The run was cancelled and the program killed.
        case cancelled
    }

    /// Set from another thread to make a run kill its program and stop (checked at least every 100 ms).
    final class Cancellation: Sendable {
        private let flag = Atomic<Bool>(false)

        init() {}

        func cancel() {
            self.flag.store(true, ordering: .releasing)
        }

        var isCancelled: Bool {
            self.flag.load(ordering: .acquiring)
        }
    }

    /// The search path when the environment has no `PATH` (what `execvp` uses).
    static let defaultSearchPath = "/usr/bin:/bin"

    /// Runs `arguments[0]` with `arguments` and `environment`, and waits for its end. Blocks.
    ///
    /// - Parameters:
    ///   - arguments: The program (a name to find in `PATH`, or a path) and its arguments; not empty.
    ///   - environment: The program's whole environment; its `PATH` is searched.
    ///   - timeout: How long the program may run.
    ///   - maximumOutputSize: The most bytes the program may write to its standard output.
    ///   - cancellation: Stops the run when set.
    /// - Returns: The program's standard output and how it ended.
    /// - Throws: ``Failure``.
    static func run(
        arguments: [String],
        environment: [String: String],
        timeout: Duration,
        maximumOutputSize: Int,
        cancellation: Cancellation
    ) throws(Failure) -> Completion {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        throw .couldNotStart(ENOTSUP)
        #else
        let clock = ContinuousClock()
        // At most a year, so that no timeout read from a file can overflow the deadline.
        let deadline = clock.now.advanced(by: min(timeout, .seconds(365 * 86_400)))
        let searchPath = environment["PATH"] ?? Self.defaultSearchPath
        guard let program = arguments.first, !program.isEmpty else { throw .notFound(searchPath: searchPath) }
        let executable: String
        if program.utf8.contains(UInt8(ascii: "/")) {
            executable = program
        } else {
            guard let found = Self.find(program, in: searchPath) else {
                throw .notFound(searchPath: searchPath)
            }
            executable = found
        }

        var descriptors = Descriptors()
        defer { descriptors.closeAll() }
        let output = try Self.makePipe()
        descriptors.parent.append(output.read)
        descriptors.child.append(output.write)
        let errors = try Self.makePipe()
        descriptors.parent.append(errors.read)
        descriptors.child.append(errors.write)

        let child = try Self.spawn(
            executable,
            arguments: arguments,
            environment: environment,
            standardOutput: output.write,
            standardError: errors.write
        )
        descriptors.closeChildEnds()

        var process = Child(pid: child)
        var reader = Reader(standardOutput: output.read, standardError: errors.read, limit: maximumOutputSize)
        do throws(Failure) {
            while true {
                if cancellation.isCancelled { throw .cancelled }
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { throw .timedOut }
                if let termination = process.termination() {
                    // Everything the program wrote is in the pipes: read it, without waiting for an end of file a
                    // process it left behind could hold back.
                    try reader.drain()
                    return Completion(output: reader.output, termination: termination)
                }
                if reader.isFinished {
                    // The program closed its outputs but runs on: wait for its exit.
                    usleep(UInt32(Self.milliseconds(remaining, atMost: 10)) * 1000)
                } else {
                    try reader.receive(waitingAtMost: Self.milliseconds(remaining, atMost: 100))
                }
            }
        } catch {
            process.killAndReap()
            throw error
        }
        #endif
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))

    /// `duration` in whole milliseconds, between 0 and `limit` (rounded up, so a wait ends at or after it).
    private static func milliseconds(_ duration: Duration, atMost limit: Int32) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(limit) else { return limit }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(total, Int64(limit)))
    }

    /// The first executable regular file named `name` in the directories of `searchPath` (empty entries skipped).
    private static func find(_ name: String, in searchPath: String) -> String? {
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory.hasSuffix("/") ? "\(directory)\(name)" : "\(directory)/\(name)"
            var info = stat()
            guard stat(candidate, &info) == 0 else { continue }
            // S_IFMT and S_IFREG, whose values POSIX fixes, as plain numbers: their Swift types differ by platform.
            let isRegularFile = UInt32(truncatingIfNeeded: info.st_mode) & 0o170000 == 0o100000
            if isRegularFile, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// A pipe whose two ends are closed on `exec` (the child gets its end through `dup2`).
    private static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard COSSystem_pipe_closed_on_exec(&ends) == 0 else { throw .systemCall("pipe", errno) }
        return (ends[0], ends[1])
    }

    /// Starts the program in a new process group, with `/dev/null` as its standard input, the given pipes as its
    /// standard output and error, no blocked signals, and every signal at its default action (a server often
    /// ignores `SIGPIPE` or `SIGTERM`, and ignored signals would otherwise stay ignored in the program).
    private static func spawn(
        _ executable: String,
        arguments: [String],
        environment: [String: String],
        standardOutput: Int32,
        standardError: Int32
    ) throws(Failure) -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        // Every other descriptor is closed in the child, whether or not its owner (the app, a library) marked it
        // close-on-exec: glibc 2.34 and later; Darwin below, with POSIX_SPAWN_CLOEXEC_DEFAULT.
        _ = COSSystem_spawn_close_from(&actions, 3)

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in Int32(1)..<Int32(32) where signal != SIGKILL && signal != SIGSTOP {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETPGROUP)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        var status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // ETXTBSY: the file is open for writing, e.g. a helper being replaced, or a copy of a descriptor a
        // concurrent fork elsewhere holds for an instant. Try again briefly.
        for _ in 0..<5 where status == ETXTBSY {
            usleep(20_000)
            status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard status == 0 else { throw .couldNotStart(status) }
        return pid
    }

    /// The file descriptors a run opened, each closed exactly once, on every way out.
    private struct Descriptors {
        /// The ends the runner reads, closed at the end of the run.
        var parent: [Int32] = []
        /// The ends the program writes to, closed in the runner once the program has them.
        var child: [Int32] = []

        mutating func closeChildEnds() {
            for descriptor in self.child { _ = close(descriptor) }
            self.child = []
        }

        mutating func closeAll() {
            self.closeChildEnds()
            for descriptor in self.parent { _ = close(descriptor) }
            self.parent = []
        }
    }

    /// The running program: reaped once, never signalled after that (its pid may then belong to another process).
    private struct Child {
        let pid: pid_t
        private var reaped = false

        init(pid: pid_t) {
            self.pid = pid
        }

        /// How the program ended, if it has; reaps it.
        mutating func termination() -> Termination? {
            guard !self.reaped else { return nil }
            var status: Int32 = 0
            let result = waitpid(self.pid, &status, WNOHANG)
            if result == self.pid {
                self.reaped = true
                return Self.termination(status)
            }
            if result == -1, errno == ECHILD {
                // The system reaped it (SIGCHLD is ignored): it is gone, with its status.
                self.reaped = true
                return .unknown
            }
            return nil
        }

        /// Kills the program's process group (the program and what it started there) and reaps the program.
        mutating func killAndReap() {
            guard !self.reaped else { return }
            _ = kill(-self.pid, SIGKILL)
            _ = kill(self.pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(self.pid, &status, 0) == -1, errno == EINTR {}
            self.reaped = true
        }

        /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG`, which Swift does not import (macros): the same on Linux and Darwin.
        private static func termination(_ status: Int32) -> Termination {
            let signal = status & 0x7F
            return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }

    /// Reads the program's standard output (keeping at most a limit) and its standard error (keeping nothing). It
    /// does not close the pipes: ``Descriptors`` does.
    private struct Reader {
        private var standardOutput: Int32?
        private var standardError: Int32?
        private let limit: Int
        private(set) var output: [UInt8] = []
        private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

        init(standardOutput: Int32, standardError: Int32, limit: Int) {
            self.standardOutput = standardOutput
            self.standardError = standardError
            self.limit = max(0, limit)
        }

        /// Whether both pipes have reached their end.
        var isFinished: Bool {
            self.standardOutput == nil && self.standardError == nil
        }

        /// Waits up to `milliseconds` for data on either pipe, and reads what is there.
        ///
        /// - Returns: Whether a pipe was ready.
        @discardableResult
        mutating func receive(waitingAtMost milliseconds: Int32) throws(Failure) -> Bool {
            var descriptors = [self.standardOutput, self.standardError].compactMap { $0 }.map {
                pollfd(fd: $0, events: Int16(truncatingIfNeeded: POLLIN), revents: 0)
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready == -1 {
                if errno == EINTR { return true }
                throw .systemCall("poll", errno)
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                try self.take(from: descriptor.fd)
            }
            return ready > 0
        }

        /// Reads what the pipes hold now, without waiting: the program has exited, so what it wrote is there, at
        /// most a pipe's capacity. The reads are bounded in number, against a process it left behind that keeps
        /// writing.
        mutating func drain() throws(Failure) {
            for _ in 0..<256 where !self.isFinished {
                guard try self.receive(waitingAtMost: 0) else { return }
            }
        }

        /// One `read` from a pipe `poll` found ready: data, or its end.
        private mutating func take(from descriptor: Int32) throws(Failure) {
            let count = self.buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress, bytes.count)
            }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { return }
                throw .systemCall("read", errno)
            }
            if count == 0 {
                if descriptor == self.standardOutput { self.standardOutput = nil }
                if descriptor == self.standardError { self.standardError = nil }
                return
            }
            guard descriptor == self.standardOutput else { return }
            guard count <= self.limit - self.output.count else { throw .outputTooLarge }
            self.output.append(contentsOf: self.buffer[0..<count])
        }
    }
    #endif
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`: standard input from `/dev/null`, standard output and error
/// each into a pipe whose reading end the caller owns (both pipes close-on-exec, so no other child inherits
/// them), and every signal at its default disposition, unblocked.
struct SpawnedChild: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// The reading end of the child's standard output.
    let output: Int32
    /// The reading end of the child's standard error.
    let error: Int32

    struct SpawnFailed: Error, CustomStringConvertible {
        var step: String
        var code: Int32
        var description: String { "cannot start the child: \(step) failed with errno \(code)" }
    }

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw SpawnFailed(step: "pipe", code: errno) }
        guard pipe(&errorPipe) == 0 else {
            let code = errno
            close(outputPipe[0])
            close(outputPipe[1])
            throw SpawnFailed(step: "pipe", code: code)
        }
        // Another thread's child started between pipe and here could inherit them; that only delays its end of
        // file until that child exits.
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        defer {
            close(outputPipe[1])
            close(errorPipe[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

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

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw SpawnFailed(step: "posix_spawn", code: spawned)
        }
        self.pid = pid
        self.output = outputPipe[0]
        self.error = errorPipe[0]
    }

    /// Blocks the calling thread until the child exits (call it through ``onOwnThread(_:)``).
    ///
    /// - Returns: Its exit status, or the number of the signal that ended it.
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(self.pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}

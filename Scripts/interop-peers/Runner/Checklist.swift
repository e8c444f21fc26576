//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A check's failure, with the reason printed after `FAIL name:`.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs named checks one after another and prints `PASS name` or `FAIL name: reason` for each.
final class Checklist {
    let peer: String
    private(set) var passed = 0
    private(set) var failed = 0

    init(peer: String) {
        self.peer = peer
    }

    /// Runs one check; any error it throws is its failure.
    func run(_ name: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            self.passed += 1
            print("PASS \(self.peer)/\(name)")
        } catch {
            self.failed += 1
            print("FAIL \(self.peer)/\(name): \(error)")
        }
    }

    /// The summary line.
    var summary: String { "\(self.passed) passed, \(self.failed) failed" }
}

/// Fails unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(message()) }
}

/// Fails unless `body` throws an error that `accept` recognises; returns that error.
@discardableResult
func requireThrows<Failure: Error>(
    _ type: Failure.Type,
    _ what: String,
    _ body: () async throws -> Void,
    where accept: (Failure) -> Bool = { _ in true }
) async throws -> Failure {
    do {
        try await body()
    } catch let error as Failure where accept(error) {
        return error
    } catch {
        throw CheckFailure("\(what): expected \(Failure.self), got \(error)")
    }
    throw CheckFailure("\(what): expected \(Failure.self), but the call succeeded")
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import ObjectStorage

/// The merge of a directory job's two sides, on plain sequences: no file, no server.
@Suite("The sorted merge of two sides")
struct SortedMergeTests {
    /// A side from names (`!name` is a name the side left out).
    struct Side: AsyncIteratorProtocol {
        var items: [DirectorySideItem]

        init(_ names: [String]) {
            self.items = names.reversed().map { name in
                name.hasPrefix("!")
                    ? .skipped(name: String(name.dropFirst()), path: "/x/" + name.dropFirst(), reason: "left out")
                    : .entry(DirectoryEntry(name: name, size: Int64(name.utf8.count)))
            }
        }

        mutating func next() async throws -> DirectorySideItem? { self.items.popLast() }
    }

    /// The steps of a merge as text: `a=a`, `a<` (source only), `>a` (destination only), `-a` (left out by the
    /// source), `~a` (left out by the destination).
    static func steps(_ source: [String], _ destination: [String]?) async throws -> [String] {
        var merge = SortedMerge(source: Side(source), destination: destination.map(Side.init))
        var steps: [String] = []
        while let step = try await merge.next() {
            switch step {
            case .pair(let from?, let to?): steps.append("\(from.name)=\(to.name)")
            case .pair(let from?, nil): steps.append("\(from.name)<")
            case .pair(nil, let to?): steps.append(">\(to.name)")
            case .pair(nil, nil): steps.append("??")
            case .skipped(let name, _, _, let onSource): steps.append((onSource ? "-" : "~") + name)
            }
        }
        return steps
    }

    @Test func pairsEqualNamesAndInterleavesTheRest() async throws {
        #expect(
            try await Self.steps(["a", "b", "d", "f"], ["b", "c", "d", "e", "g"])
                == ["a<", "b=b", ">c", "d=d", ">e", "f<", ">g"]
        )
    }

    @Test func emptySides() async throws {
        #expect(try await Self.steps([], []) == [])
        #expect(try await Self.steps(["a", "b"], []) == ["a<", "b<"])
        #expect(try await Self.steps([], ["a", "b"]) == [">a", ">b"])
        #expect(try await Self.steps(["a", "b"], nil) == ["a<", "b<"], "no destination: the source alone")
    }

    /// Names compare as UTF-8 bytes, the services' order: "Z" before "a", "a/" after "a.b" and before "a0",
    /// "é" (C3 A9) after "z", NFC and NFD spellings of one word as two names.
    @Test func namesCompareAsBytes() async throws {
        #expect(
            try await Self.steps(["Z", "a.b", "a/x", "a0", "z", "é"], ["a/x", "é"]) == [
                "Z<", "a.b<", "a/x=a/x", "a0<", "z<", "é=é",
            ]
        )
        let nfc = "\u{E9}"
        let nfd = "e\u{301}"
        #expect(try await Self.steps([nfd], [nfc]) == ["\(nfd)<", ">\(nfc)"])
    }

    @Test func namesLeftOutComeBeforeTheNextPair() async throws {
        #expect(
            try await Self.steps(["a", "!link", "m"], ["b", "!broken", "link"])
                == ["a<", "-link", ">b", "~broken", ">link", "m<"]
        )
    }
}

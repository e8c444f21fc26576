//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-object-storage open source project
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ObjectStorageSigning
import Testing

@testable import ObjectStorageLocalServer

/// Seeded random and boundary inputs for the server's parsers, called directly (a few thousand per property, so
/// that the suite stays fast enough for CI). A trap anywhere would crash the test process. Expected values come
/// from Foundation's Gregorian calendar or from hand-written vectors, never from the code under test.
@Suite("Parser properties")
struct ParserPropertyTests {
    static let iterations = 2000
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// 1601-01-01T00:00:00Z (Python's `calendar.timegm`): Foundation's Gregorian calendar switches to the Julian
    /// one before 1582, so comparisons with it start here.
    static let firstGregorianSecond: Int64 = -11_644_473_600
    static let extremes: [Int64] = [
        .min, .min + 1, -62_135_596_801, -62_135_596_800, -1, 0, 253_402_300_799,
        253_402_300_800, .max - 1, .max,
    ]

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func utcCalendar() throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        return calendar
    }

    /// A number in `range`, drawn from `random`.
    static func draw(_ range: ClosedRange<Int64>, _ random: inout SplitMix64) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        let offset = width == 0 ? random.next() : random.next() % width
        return range.lowerBound &+ Int64(bitPattern: offset)
    }

    // MARK: Dates

    @Test("Every format round-trips against Foundation's calendar, 1601 to 9999")
    func datesRoundTrip() throws {
        let calendar = try Self.utcCalendar()
        var random = SplitMix64(seed: 0xDA7E)
        let upper = SigningTimestamp.representableSeconds.upperBound
        let vectors: [Int64] = [Self.firstGregorianSecond, -2_203_891_200, -1, 0, 951_825_600, 1_709_611_506, upper]
        for index in 0..<Self.iterations {
            let seconds = index < vectors.count ? vectors[index] : Self.draw(Self.firstGregorianSecond...upper, &random)
            let c = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second, .weekday],
                from: Date(timeIntervalSince1970: TimeInterval(seconds))
            )
            let year = try #require(c.year)
            let (month, day) = (try #require(c.month), try #require(c.day))
            let (hour, minute, second) = (try #require(c.hour), try #require(c.minute), try #require(c.second))
            let weekday = try #require(c.weekday) - 1
            let time = "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))"
            let imf =
                "\(Self.weekdays[weekday]), \(Self.pad(day, 2)) \(Self.months[month - 1]) \(Self.pad(year, 4)) "
                + "\(time) GMT"
            #expect(HTTPDate.imfFixdate(seconds) == imf)
            #expect(HTTPDate.parseHTTPDate(imf) == seconds, "\(imf)")
            let asctime =
                "\(Self.weekdays[weekday]) \(Self.months[month - 1]) \(day < 10 ? " \(day)" : "\(day)") "
                + "\(time) \(Self.pad(year, 4))"
            #expect(HTTPDate.parseHTTPDate(asctime) == seconds, "\(asctime)")
            if (1970...2069).contains(year) {
                let rfc850 =
                    "\(Self.longWeekdays[weekday]), \(Self.pad(day, 2))-\(Self.months[month - 1])-"
                    + "\(Self.pad(year % 100, 2)) \(time) GMT"
                #expect(HTTPDate.parseHTTPDate(rfc850) == seconds, "\(rfc850)")
            }
            let basic =
                "\(Self.pad(year, 4))\(Self.pad(month, 2))\(Self.pad(day, 2))T"
                + "\(Self.pad(hour, 2))\(Self.pad(minute, 2))\(Self.pad(second, 2))Z"
            #expect(HTTPDate.basicISO8601(seconds) == basic)
            #expect(HTTPDate.parseBasicISO8601(basic) == seconds, "\(basic)")
            let extended = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(time).000Z"
            #expect(HTTPDate.iso8601(seconds) == extended)
            #expect(SigningTimestamp(iso8601: extended)?.secondsSince1970 == seconds, "\(extended)")
        }
    }

    @Test("The ends of the calendar, by hand")
    func calendarEnds() {
        #expect(HTTPDate.parseHTTPDate("Mon, 01 Jan 0001 00:00:00 GMT") == -62_135_596_800)
        #expect(HTTPDate.parseHTTPDate("Fri, 31 Dec 9999 23:59:59 GMT") == 253_402_300_799)
        #expect(HTTPDate.parseBasicISO8601("00010101T000000Z") == -62_135_596_800)
        #expect(HTTPDate.parseBasicISO8601("99991231T235959Z") == 253_402_300_799)
        #expect(HTTPDate.parseHTTPDate("Tue, 29 Feb 2000 12:00:00 GMT") == 951_825_600)
        #expect(HTTPDate.parseHTTPDate("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(HTTPDate.parseHTTPDate("Sun, 06 Nov 1994 08:49:60 GMT") == 784_111_800)  // leap second
        // Formatting is total: instants past either end are written as that end.
        #expect(HTTPDate.imfFixdate(.min) == "Mon, 01 Jan 0001 00:00:00 GMT")
        #expect(HTTPDate.imfFixdate(.max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.iso8601(.min) == "0001-01-01T00:00:00.000Z")
        #expect(HTTPDate.iso8601(.max, milliseconds: .max) == "9999-12-31T23:59:59.999Z")
        #expect(HTTPDate.basicISO8601(.min) == "00010101T000000Z")
        #expect(SigningTimestamp(Date(timeIntervalSince1970: .infinity)).secondsSince1970 == 253_402_300_799)
        #expect(SigningTimestamp(Date(timeIntervalSince1970: -.infinity)).secondsSince1970 == -62_135_596_800)
        #expect(SigningTimestamp(Date(timeIntervalSince1970: .nan)).secondsSince1970 == 0)
    }

    @Test("Any out-of-range field makes a date invalid")
    func outOfRangeFieldsAreRejected() throws {
        let calendar = try Self.utcCalendar()
        var random = SplitMix64(seed: 0xBAD_DA7E)
        let hugeNumbers = ["99999999999999999", "9223372036854775808", "-9223372036854775808", "18446744073709551616"]
        for _ in 0..<Self.iterations {
            var year = Self.pad(Int(Self.draw(1...9999, &random)), 4)
            var month = Self.months[Int(Self.draw(0...11, &random))]
            var day = Self.pad(Int(Self.draw(1...28, &random)), 2)
            var hour = Self.pad(Int(Self.draw(0...23, &random)), 2)
            var minute = Self.pad(Int(Self.draw(0...59, &random)), 2)
            var second = Self.pad(Int(Self.draw(0...59, &random)), 2)
            let huge = hugeNumbers[Int(Self.draw(0...3, &random))]
            switch Self.draw(0...6, &random) {
            case 0: year = ["0000", "10000", "-001", "+001", "19a4", huge][Int(Self.draw(0...5, &random))]
            case 1: month = ["Foo", "nov", "NOV", "", "13"][Int(Self.draw(0...4, &random))]
            case 2: day = ["00", "32", "-1", "+1", "123", huge][Int(Self.draw(0...5, &random))]
            case 3: hour = ["24", "99", "-1", "+1", "1", huge][Int(Self.draw(0...5, &random))]
            case 4: minute = ["60", "99", "-1", "1", huge][Int(Self.draw(0...4, &random))]
            case 5: second = ["61", "99", "-1", "1", huge][Int(Self.draw(0...4, &random))]
            default:
                // A day that may not exist in its month; Foundation decides.
                let y = Int(Self.draw(1601...9999, &random))
                let m = Int(Self.draw(1...12, &random))
                let d = Int(Self.draw(29...31, &random))
                let components = DateComponents(year: y, month: m, day: d)
                let exists = calendar.date(from: components).map { calendar.component(.day, from: $0) == d } ?? false
                let text = "Sun, \(d) \(Self.months[m - 1]) \(Self.pad(y, 4)) 00:00:00 GMT"
                #expect((HTTPDate.parseHTTPDate(text) != nil) == exists, "\(text)")
                continue
            }
            let imf = "Sun, \(day) \(month) \(year) \(hour):\(minute):\(second) GMT"
            #expect(HTTPDate.parseHTTPDate(imf) == nil, "\(imf)")
            let asctime = "Sun \(month) \(day) \(hour):\(minute):\(second) \(year)"
            #expect(HTTPDate.parseHTTPDate(asctime) == nil, "\(asctime)")
            let monthNumber = (Self.months.firstIndex(of: month) ?? 98) + 1
            let basic = "\(year)\(Self.pad(monthNumber, 2))\(day)T\(hour)\(minute)\(second)Z"
            #expect(HTTPDate.parseBasicISO8601(basic) == nil, "\(basic)")
        }
    }

    @Test("Random text never traps, and whatever parses is in range and round-trips")
    func randomTextIsTotal() {
        var random = SplitMix64(seed: 0x7E47)
        let pieces = [
            "Sun", "Sunday", ",", " ", "  ", "06", "6", "Nov", "-", "94", "1994", "9999", "0000", "08:49:37", "GMT",
            "UTC", "T", "Z", ":", "99999999999999999", "-9223372036854775808", "\u{0}", "é", "2024", "0101",
        ]
        for _ in 0..<Self.iterations {
            let text = (0..<Self.draw(0...9, &random)).map { _ in pieces[Int(Self.draw(0...24, &random))] }.joined()
            for parsed in [HTTPDate.parseHTTPDate(text), HTTPDate.parseBasicISO8601(text)] {
                guard let parsed else { continue }
                #expect(SigningTimestamp.representableSeconds.contains(parsed), "\(text)")
                #expect(HTTPDate.parseHTTPDate(HTTPDate.imfFixdate(parsed)) == parsed)
            }
        }
        for index in 0..<Self.iterations {
            let seconds = index < Self.extremes.count ? Self.extremes[index] : Int64(bitPattern: random.next())
            let clamped = min(max(seconds, -62_135_596_800), 253_402_300_799)
            #expect(HTTPDate.parseHTTPDate(HTTPDate.imfFixdate(seconds)) == clamped)
            #expect(HTTPDate.parseBasicISO8601(HTTPDate.basicISO8601(seconds)) == clamped)
            #expect(HTTPDate.iso8601(seconds).utf8.count == 24)
        }
    }

    // MARK: Expiries

    @Test("The verifier answers any expiry, date and clock with an error, never a trap")
    func verifierArithmeticIsTotal() {
        let credentials = LocalObjectServer.developmentCredentials
        let verifier = SignatureVerifier(
            authentication: .credentials([credentials]),
            clockSkewLimit: .seconds(900),
            regions: { $0.defaultRegion }
        )
        var random = SplitMix64(seed: 0xE0F)
        let numbers = Self.extremes.map { String($0) } + ["99999999999999999999", "-0", "+1", "", "x"]
        let dates = ["00000101T000000Z", "00010101T000000Z", "99991231T235959Z", "20240305T040506Z", "x"]
        let key = credentials.accessKeyID
        for index in 0..<Self.iterations {
            let expires = Self.draw(0...3, &random) == 0 ? String(random.next()) : numbers[index % numbers.count]
            let date = dates[Int(Self.draw(0...4, &random))]
            let now =
                index % 7 == 0 ? Self.extremes[index % Self.extremes.count] : Self.draw(0...4_102_444_800, &random)
            let targets = [
                "/b/k?OSSAccessKeyId=\(key)&Expires=\(expires)&Signature=x",
                "/b/k?AWSAccessKeyId=\(key)&Expires=\(expires)&Signature=x",
                "/b/k?x-oss-signature-version=OSS4-HMAC-SHA256&x-oss-credential=\(key)%2F20240305%2Fcn-hangzhou%2Foss"
                    + "%2Faliyun_v4_request&x-oss-date=\(date)&x-oss-expires=\(expires)&x-oss-signature=x",
                "/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(key)%2F20240305%2Fus-east-1%2Fs3"
                    + "%2Faws4_request&X-Amz-Date=\(date)&X-Amz-Expires=\(expires)&X-Amz-SignedHeaders=host"
                    + "&X-Amz-Signature=x",
            ]
            for target in targets {
                let request = IncomingRequest(method: "GET", target: target, host: "h", headers: [], domain: "")
                do {
                    try verifier.verify(request, kind: SignatureKind(request), dialect: .s3, now: now)
                    Issue.record("accepted \(target)")
                } catch {
                    #expect(error.status == 400 || error.status == 403, "\(target): \(error.code)")
                }
            }
        }
    }

    // MARK: Ranges

    @Test("Any Range on any size plans bytes inside the object, or is refused with 416")
    func rangesStayInsideTheObject() {
        var random = SplitMix64(seed: 0x4A6E)
        let numbers = Self.extremes.filter { $0 >= 0 }.map { String($0) } + ["99999999999999999999", "+1", "", " 3"]
        for index in 0..<Self.iterations {
            let size = index % 3 == 0 ? Self.draw(0...10, &random) : Self.draw(0...Int64.max, &random)
            func bound() -> String {
                Self.draw(0...3, &random) == 0
                    ? String(Self.draw(0...Int64.max, &random))
                    : numbers[Int(Self.draw(0...Int64(numbers.count - 1), &random))]
            }
            let first = bound()
            let last = bound()
            let range = "bytes=\(first)-\(last)"
            for dialect in [StorageVendor.s3, .oss, .obs] {
                do {
                    let plan = try ReadPreconditions.plan(range: range, size: size, dialect: dialect, standard: false)
                    if case .partial(let from, let to) = plan {
                        #expect(0 <= from && from <= to && to < size, "\(range) of \(size)")
                    }
                } catch {
                    #expect(error.status == 416, "\(range) of \(size)")
                }
            }
        }
    }

    // MARK: XML

    static func nested(depth: Int) -> [UInt8] {
        Array((String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)).utf8)
    }

    /// The depth of a parsed tree, measured without recursion.
    static func depth(_ root: XMLNode) -> Int {
        var deepest = 0
        var pending = [(root, 1)]
        while let (element, level) = pending.popLast() {
            deepest = max(deepest, level)
            pending += element.children.map { ($0, level + 1) }
        }
        return deepest
    }

    @Test("XML parses up to 64 levels and no deeper, at any size up to the bound")
    func xmlBounds() {
        var random = SplitMix64(seed: 0x3A1)
        for _ in 0..<200 {
            let depth = Int(Self.draw(1...300, &random))
            let parsed = RequestDocument.parse(Self.nested(depth: depth))
            #expect((parsed != nil) == (depth <= 64), "depth \(depth)")
            if let parsed { #expect(Self.depth(parsed) == depth) }
        }
        #expect(RequestDocument.parse(Self.nested(depth: 100_000)) == nil)
        let padding = [UInt8](repeating: UInt8(ascii: " "), count: RequestDocument.maximumSize - 7)
        #expect(RequestDocument.parse(Array("<a>".utf8) + padding + Array("</a>".utf8)) != nil)
        #expect(RequestDocument.parse(Array("<a>".utf8) + padding + Array(" </a>".utf8)) == nil)
    }

    @Test("Mutated XML never traps, and any tree it yields is within the depth bound")
    func xmlMutations() {
        var random = SplitMix64(seed: 0x3A2)
        let seed = Array(
            ("<?xml version=\"1.0\"?><CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;a&#x41;"
                + "</ETag></Part><![CDATA[<x>]]><!-- c --></CompleteMultipartUpload>").utf8
        )
        let alphabet = Array("<>/!?-[]&;#x:= \"'aZ09".utf8)
        for _ in 0..<Self.iterations {
            var bytes = seed
            for _ in 0..<Self.draw(1...8, &random) {
                let position = Int(Self.draw(0...Int64(bytes.count), &random))
                let byte = alphabet[Int(Self.draw(0...Int64(alphabet.count - 1), &random))]
                switch Self.draw(0...2, &random) {
                case 0: bytes.insert(byte, at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                default: bytes.insert(contentsOf: Array(repeating: byte, count: 70), at: position)
                }
            }
            if let tree = RequestDocument.parse(bytes) { #expect(Self.depth(tree) <= XMLNode.maximumDepth) }
        }
    }

    // MARK: Query strings

    @Test("Query strings never trap, and counts accept exactly 0...2147483647")
    func queryStrings() throws {
        var random = SplitMix64(seed: 0x9E4)
        let alphabet = Array("%&=+?/aZ09FfGz ".utf8)
        for _ in 0..<Self.iterations {
            let target = String(
                decoding: (0..<Self.draw(0...40, &random)).map { _ in alphabet[Int(Self.draw(0...14, &random))] },
                as: UTF8.self
            )
            _ = IncomingRequest(method: "GET", target: "/b/k?" + target, host: "h", headers: [], domain: "")
        }
        for index in 0..<Self.iterations {
            // Known values around the bound, then random ones of every magnitude, some with leading zeros.
            let bound: UInt64 = 2_147_483_647
            let value = index < 4 ? [0, bound, bound + 1, UInt64.max][index] : random.next() >> (random.next() % 64)
            let text = (index % 5 == 0 ? "000" : "") + String(value)
            let request = IncomingRequest(method: "GET", target: "/b?n=\(text)", host: "h", headers: [], domain: "")
            if value <= bound {
                #expect(try request.queryCount("n", default: -1) == Int(value))
            } else {
                #expect(throws: ServerError.self) { try request.queryCount("n", default: -1) }
            }
        }
    }

    // MARK: Over the socket

    @Test("A random sample of the hostile inputs over the socket is answered, and the server keeps serving")
    func hostileSampleOverTheSocket() async throws {
        var random = SplitMix64(seed: 0x50C)
        let key = LocalObjectServer.developmentCredentials.accessKeyID
        let huge = ["99999999999999999", "-9223372036854775808", "9223372036854775807", "0000", "10000"]
        try await HostileDateTests().withSignedServer { client, signed in
            for _ in 0..<40 {
                let n = huge[Int(Self.draw(0...4, &random))]
                let scheme = ["OSS", "OBS", "AWS"][Int(Self.draw(0...2, &random))]
                let response: TestResponse
                switch Self.draw(0...4, &random) {
                case 0:
                    response = try await client.send(
                        "GET",
                        "/bkt/k",
                        headers: [("Authorization", "\(scheme) \(key):x"), ("Date", "Sun, 06 Nov \(n) 08:49:37 GMT")]
                    )
                case 1:
                    let name = ["OSSAccessKeyId", "AccessKeyId", "AWSAccessKeyId"][Int(Self.draw(0...2, &random))]
                    response = try await client.send("GET", "/bkt/k?\(name)=\(key)&Expires=\(n)&Signature=x")
                case 2:
                    response = try await client.send(
                        "GET",
                        "/bkt/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=\(key)%2F20240305%2Fus-east-1%2Fs3"
                            + "%2Faws4_request&X-Amz-Date=\(n)0101T000000Z&X-Amz-Expires=\(n)&X-Amz-SignedHeaders=host"
                            + "&X-Amz-Signature=x"
                    )
                case 3:
                    response = try await signed.send(
                        try signed.request(
                            "GET",
                            bucket: "bkt",
                            key: "k",
                            headers: [HTTPHeader(name: "Range", value: "bytes=\(n)-")]
                        )
                    )
                default:
                    let depth = Int(Self.draw(65...5000, &random))
                    response = try await signed.send(
                        try signed.request("PUT", bucket: "deep\(depth)"),
                        body: Self.nested(depth: depth)
                    )
                    #expect(response.element("Code") == "MalformedXML")
                }
                #expect((200..<500).contains(response.status), "\(response.status): \(response.text)")
            }
        }
    }
}

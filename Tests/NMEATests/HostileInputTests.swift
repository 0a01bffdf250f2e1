import Foundation
import GPSReports
import Testing
@testable import NMEA

@Suite("Hostile input")
struct HostileInputTests {
    private let clean = log(rmc("113258"), rmc("113259"), rmc("113300"), rmc("113301"))

    @Test("impossible values never make a fix", arguments: [
        ("9100.0000", "10822.4466"),   // latitude beyond 90
        ("3238.9148", "18100.0000"),   // longitude beyond 180
        ("3275.0000", "10822.4466"),   // 75 minutes
        ("-3238.9148", "10822.4466"),  // a sign NMEA does not use
        ("32389148000000000000000000000.1", "10822.4466"), // a huge field
        ("32a8.9148", "10822.4466"),   // not a number
    ])
    func impossible(_ lat: String, _ lon: String) throws {
        let text = log(rmc("113258"), rmc("113259", lat: lat, lon: lon), rmc("113300"))
        let result = try replay(text)
        #expect(result.statistics.invalidValues == 1)
        let all = positions(result.reports)
        #expect(all.count == 1)
        #expect(all.allSatisfy { abs(($0.latitude ?? 0) - 32.64858) < 1e-6 })
    }

    @Test("CR LF, LF and CR line endings give the same fixes")
    func lineEndings() throws {
        let crlf = positions(try replay(clean).reports)
        let lf = positions(try replay(clean.replacingOccurrences(of: "\r\n", with: "\n")).reports)
        let cr = positions(try replay(clean.replacingOccurrences(of: "\r\n", with: "\r")).reports)
        #expect(crlf.count == 3)
        #expect(lf == crlf)
        #expect(cr == crlf)
    }

    @Test("a complete last line without a newline still counts; a cut one does not")
    func lastLine() throws {
        let bytes = Array(clean.utf8)
        #expect(positions(try replay(Array(bytes.dropLast(2))).reports).count == 3)
        let result = try replay(Array(bytes.dropLast(12)))
        #expect(positions(result.reports).count == 2)
    }

    @Test("binary bytes between sentences are skipped and counted as junk runs")
    func binaryJunk() throws {
        let ubx: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00, 0x24, 0x0A, 0x00, 0xFF, 0x0D, 0x24, 0x47, 0x50]
        // Split on bytes: in Swift, "\r\n" is one Character.
        let lines = Array(clean.utf8).split(separator: 0x0A).map { Array($0) + [0x0A] }
        var bytes: [UInt8] = []
        for line in lines { bytes += ubx + line }
        let result = try replay(bytes)
        #expect(positions(result.reports) == positions(try replay(clean).reports))
        #expect(result.statistics.junkRuns >= 4)
    }

    @Test("NUL bytes inside a sentence drop that sentence only")
    func nulBytes() throws {
        var bytes = Array(clean.utf8)
        let second = try #require(bytes.indices.filter { bytes[$0] == UInt8(ascii: "$") }.dropFirst().first)
        bytes[second + 20] = 0
        let result = try replay(bytes)
        #expect(positions(result.reports).count == 2)
        #expect(result.statistics.junkRuns >= 1)
    }

    @Test("lines of 100 kB and more are skipped as oversized, and decoding goes on")
    func hugeLines() throws {
        let huge = "$GPRMC," + String(repeating: "9", count: 150_000) + "\r\n"
        let noise = String(repeating: "x", count: 200_000) + "\n"
        let result = try replay(huge + noise + clean)
        #expect(result.statistics.oversized >= 1)
        #expect(positions(result.reports).count == 3)
    }

    @Test("an NMEA sentence longer than gpsd accepts is dropped")
    func overlong() throws {
        let long = rmc("113259") + "," + String(repeating: "0", count: 60)
        let result = try replay(log(rmc("113258"), long, rmc("113300")))
        #expect(result.statistics.oversized == 1)
        #expect(positions(result.reports).count == 1)
    }

    @Test("a missing file and a directory are clear errors")
    func unreadable() throws {
        #expect(throws: SourceError.self) { _ = try ReplayReader(path: "/nonexistent/file.nmea") }
        do {
            _ = try ReplayReader(path: FileManager.default.temporaryDirectory.path)
            Issue.record("a directory opened")
        } catch {
            #expect(error.code == .unreadableFile)
            #expect(error.message.contains("directory"))
        }
        do {
            _ = try ReplayReader(path: "/nonexistent/file.nmea")
        } catch {
            #expect(error.code == .unreadableFile)
            #expect(error.message.contains("no such file"))
        }
    }
}

import GeoTrackTesting
import GPSReports
import Testing
@testable import NMEA

/// RMC sentences one second apart; a replay reports the second and later ones (gpsd learns
/// the end of the cycle from the first).
func rmc(_ time: String, lat: String = "3238.9148", lon: String = "10822.4466") -> String {
    "$GPRMC,\(time),A,\(lat),N,\(lon),W,005.3,247.1,181022,009.3,E"
}

@Suite("Checksums")
struct ChecksumTests {
    private func times(_ reports: [Report]) -> [Double] {
        positions(reports).compactMap { $0.time?.timeIntervalSince1970 }
    }

    @Test("upper- and lower-case hex both verify")
    func bothCases() throws {
        let second = SyntheticLog.checksummed(rmc("113259"))
        let lowercase = String(second.dropLast(2)) + second.suffix(2).lowercased()
        let text = SyntheticLog.checksummed(rmc("113258")) + "\r\n" + lowercase + "\r\n"
        let result = try replay(text)
        #expect(positions(result.reports).count == 1)
        #expect(result.statistics.badChecksums == 0)
        #expect(result.statistics.decoded == 2)
    }

    @Test("a checksum that does not match drops the sentence")
    func mismatch() throws {
        var bad = SyntheticLog.checksummed(rmc("113259"))
        bad = String(bad.dropLast(2)) + (bad.hasSuffix("00") ? "01" : "00")
        let text = SyntheticLog.checksummed(rmc("113258")) + "\r\n" + bad + "\r\n" + SyntheticLog.checksummed(rmc("113300")) + "\r\n"
        let result = try replay(text)
        #expect(result.statistics.badChecksums == 1)
        let reported = positions(result.reports).map { $0.time?.timeIntervalSince1970 ?? 0 }
        #expect(reported == [1_666_092_780])   // 2022-10-18T11:33:00Z only
    }

    @Test("a byte no sentence may hold drops it wherever it is, even under a matching checksum",
          arguments: [0x00, 0x09, 0x1F, 0x7F, 0x80, 0xFF, UInt8(ascii: "$"), UInt8(ascii: "*")] as [UInt8])
    func unusualByteAnywhere(_ unusual: UInt8) throws {
        // The common case is checked many bytes at a time, the last block overlapping the one
        // before it: every position, the overlapped ones among them, must still be looked at.
        let body = Array(rmc("113259").utf8.dropFirst())
        for position in body.indices {
            var mutated = body
            mutated[position] = unusual
            let sum = mutated.reduce(UInt8(0), ^)
            let hex = Array(String(sum, radix: 16, uppercase: true).utf8)
            let line = [UInt8(ascii: "$")] + mutated + [UInt8(ascii: "*")] + (hex.count == 1 ? [0x30] + hex : hex)
            let bytes = Array((SyntheticLog.checksummed(rmc("113258")) + "\r\n").utf8) + line + [0x0D, 0x0A]
                + Array((SyntheticLog.checksummed(rmc("113300")) + "\r\n").utf8)
            let result = try replay(bytes)
            #expect(times(result.reports) == [1_666_092_780], "byte \(unusual) at \(position + 1)")
        }
    }

    @Test("malformed checksums are bad", arguments: ["*6", "*G1", "*6BX", "*", "*123"])
    func malformed(_ suffix: String) throws {
        let text = SyntheticLog.checksummed(rmc("113258")) + "\r\n" + rmc("113259") + suffix + "\r\n"
        let result = try replay(text)
        #expect(result.statistics.badChecksums == 1)
        #expect(positions(result.reports).isEmpty)
    }

    @Test("no checksum at all is accepted, as gpsd does, from a receiver that never sends one")
    func missingAccepted() throws {
        let text = rmc("113258") + "\r\n" + rmc("113259") + "\r\n"
        let result = try replay(text)
        #expect(positions(result.reports).count == 1)
        #expect(result.statistics.missingChecksums == 0)
    }

    @Test("a missing checksum after checksummed sentences is a corrupted sentence")
    func missingRejected() throws {
        let text = SyntheticLog.checksummed(rmc("113258")) + "\r\n" + rmc("113259") + "\r\n" + SyntheticLog.checksummed(rmc("113300")) + "\r\n"
        let result = try replay(text)
        #expect(result.statistics.missingChecksums == 1)
        #expect(times(result.reports) == [1_666_092_780])
    }
}

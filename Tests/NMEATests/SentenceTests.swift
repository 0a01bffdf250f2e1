import Foundation
import GeoTrackTesting
import GPSReports
import Testing
@testable import NMEA

@Suite("Sentence types")
struct SentenceTests {
    @Test("RMC: position, knots to m/s, track, magnetic variation, date")
    func rmcFields() throws {
        let result = try replay(log(rmc("113258"), rmc("113259")))
        let fix = try #require(positions(result.reports).first)
        #expect(fix.mode == .twoD)
        #expect(fix.time == Date(timeIntervalSince1970: 1_666_092_779))
        #expect(abs((fix.latitude ?? 0) - 32.648580) < 1e-6)
        #expect(abs((fix.longitude ?? 0) + 108.374110) < 1e-6)
        #expect(abs((fix.speed ?? 0) - 5.3 * 1852 / 3600) < 1e-9)
        #expect(fix.track == 247.1)
        #expect(fix.magneticVariation == 9.3)
        #expect(abs((fix.magneticTrack ?? 0) - 256.4) < 1e-9)
    }

    @Test("RMC with status V gives no position")
    func rmcInvalid() throws {
        let invalid = ["113258", "113259", "113300"].map { "$GPRMC,\($0),V,3238.9148,N,10822.4466,W,,,181022,," }
        let result = try replay(log(invalid[0], invalid[1], invalid[2]))
        #expect(positions(result.reports).isEmpty)
        #expect(result.statistics.decoded == 3)
    }

    @Test("GGA: altitude MSL, geoid separation, altHAE = altMSL + separation, 3D with 4+ satellites")
    func gga() throws {
        let text = log(
            rmc("113258"), "$GPGGA,113258,3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,",
            rmc("113259"), "$GPGGA,113259,3238.9145,N,10822.4482,W,1,08,1.1,1577.9,M,-24.6,M,,")
        let fix = try #require(positions(try replay(text).reports).last)
        #expect(fix.mode == .threeD)
        #expect(fix.altitudeMSL == 1577.9)
        #expect(fix.geoidSeparation == -24.6)
        #expect(abs((fix.altitudeHAE ?? 0) - 1553.3) < 1e-9)
        #expect(abs((fix.eph ?? 0) - 1.1 * 19) < 1e-9)
        #expect(fix.status == .gps)
    }

    @Test("GLL: the time of day takes the date from an earlier RMC")
    func gll() throws {
        let text = log(
            rmc("113258"),
            "$GPGLL,3238.9140,N,10822.4400,W,113259,A,A",
            "$GPGLL,3238.9130,N,10822.4300,W,113300,A,A")
        let last = try #require(positions(try replay(text).reports).last)
        #expect(last.time == Date(timeIntervalSince1970: 1_666_092_780))
        #expect(abs((last.latitude ?? 0) - (32 + 38.913 / 60)) < 1e-9)
    }

    @Test("GSA: mode 2D from the receiver's own solution")
    func gsa2D() throws {
        let text = log(
            rmc("113258"), "$GPGSA,A,2,02,05,11,,,,,,,,,,2.4,2.1,1.0",
            rmc("113259"), "$GPGSA,A,2,02,05,11,,,,,,,,,,2.4,2.1,1.0",
            rmc("113300"), "$GPGSA,A,2,02,05,11,,,,,,,,,,2.4,2.1,1.0")
        let all = positions(try replay(text).reports)
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { $0.mode == .twoD })
    }

    @Test("RMC with four or more satellites in use (GSA) is 3D")
    func gsa3D() throws {
        let text = log(
            rmc("113258"), "$GPGSA,A,3,02,05,11,12,18,20,,,,,,,1.4,1.1,0.9",
            rmc("113259"), "$GPGSA,A,3,02,05,11,12,18,20,,,,,,,1.4,1.1,0.9",
            rmc("113300"))
        let last = try #require(positions(try replay(text).reports).last)
        #expect(last.mode == .threeD)
    }

    @Test("VTG: track and speed in knots")
    func vtg() throws {
        let cycle = { (t: String) in [
            "$GPRMC,\(t),A,3238.9148,N,10822.4466,W,,,181022,,",
            "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
            "$GPGGA,\(t),3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,",
        ] }
        let lines = cycle("113258") + cycle("113259") + cycle("113300")
        let text = lines.map { SyntheticLog.checksummed($0) + "\r\n" }.joined()
        let last = try #require(positions(try replay(text).reports).last)
        #expect(last.track == 54.7)
        #expect(abs((last.speed ?? 0) - 5.5 * 1852 / 3600) < 1e-9)
        #expect(last.magneticTrack == 34.4)
    }

    @Test("GNS: position and altitude, 3D with more than three satellites")
    func gns() throws {
        let text = log(
            "$GNRMC,224749.00,A,3333.4268304,N,11153.3538273,W,0.1,10.0,100119,,,D",
            "$GNGNS,224749.00,3333.4268304,N,11153.3538273,W,DD,19,0.6,406.110,-26.294,,,S",
            "$GNRMC,224750.00,A,3333.4268304,N,11153.3538273,W,0.1,10.0,100119,,,D",
            "$GNGNS,224750.00,3333.4268304,N,11153.3538273,W,DD,19,0.6,406.110,-26.294,,,S")
        let last = try #require(positions(try replay(text).reports).last)
        #expect(last.mode == .threeD)
        #expect(last.altitudeMSL == 406.110)
        #expect(abs((last.altitudeHAE ?? 0) - (406.110 - 26.294)) < 1e-9)
        #expect(last.status == .dgps)
    }

    @Test("ZDA: a four-digit date for GGA-only receivers")
    func zda() throws {
        let text = log(
            "$GPZDA,235958.00,31,12,2023,00,00",
            "$GPGGA,235958.00,5000.0000,N,00800.0000,E,1,05,1.0,100.0,M,47.0,M,,",
            "$GPGGA,235959.00,5000.0010,N,00800.0000,E,1,05,1.0,100.0,M,47.0,M,,",
            "$GPGGA,000000.00,5000.0020,N,00800.0000,E,1,05,1.0,100.0,M,47.0,M,,")
        let times = positions(try replay(text).reports).compactMap(\.time)
        // 2023-12-31T23:59:59Z, then midnight rolls over to 2024-01-01.
        #expect(times == [Date(timeIntervalSince1970: 1_704_067_199), Date(timeIntervalSince1970: 1_704_067_200)])
    }

    @Test("GST is decoded without changing the fix")
    func gst() throws {
        let plain = log(rmc("113258"), rmc("113259"), rmc("113300"))
        let withGST = log(rmc("113258"), "$GPGST,113258.00,1.3,2.1,1.6,47.2,1.9,1.7,3.2",
                          rmc("113259"), "$GPGST,113259.00,1.3,2.1,1.6,47.2,1.9,1.7,3.2", rmc("113300"))
        let a = try replay(plain), b = try replay(withGST)
        #expect(positions(a.reports) == positions(b.reports))
        #expect(b.statistics.decoded == a.statistics.decoded + 2)
    }

    @Test("HDT, HDG and THS report the sensor heading as an attitude")
    func headings() throws {
        let text = log("$HEHDT,274.07,T", "$HCHDG,101.1,2.0,E,3.5,W", "$GPTHS,123.4,A", "$GPTHS,200.0,V")
        let attitudes = try replay(text).reports.compactMap { if case .attitude(let a) = $0 { a } else { nil } }
        #expect(attitudes.count == 3)
        #expect(attitudes[0].heading == 274.07)
        #expect(attitudes[1].magneticHeading == 101.1)
        #expect(attitudes[1].magneticDeviation == 2.0)
        #expect(attitudes[1].magneticVariation == -3.5)
        #expect(attitudes[2].heading == 123.4)
    }

    @Test("GSV and GSA make a sky view with the used satellites marked")
    func sky() throws {
        let text = log(
            "$GPGSA,A,3,02,05,11,12,,,,,,,,,1.4,1.1,0.9",
            "$GPGSV,2,1,05,02,60,319,36,05,77,132,38,11,29,052,29,12,46,186,46",
            "$GPGSV,2,2,05,18,19,264,00")
        let views = try replay(text).reports.compactMap { if case .sky(let s) = $0 { s } else { nil } }
        let view = try #require(views.last)
        #expect(view.satellites.map(\.prn) == [2, 5, 11, 12, 18])
        #expect(view.used == 4)
        #expect(view.satellites.first?.signalStrength == 36)
        #expect(view.satellites.last?.used == false)
        #expect(view.hdop == 1.1)
    }

    @Test("every talker ID is accepted", arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI"])
    func talkers(_ talker: String) throws {
        let lines = [rmc("113258"), rmc("113259")].map { "$" + talker + $0.dropFirst(3) }
        let result = try replay(log(lines[0], lines[1]))
        #expect(positions(result.reports).count == 1)
    }

    @Test("proprietary, AIS and unknown sentences are skipped and counted")
    func skipped() throws {
        let text = log(rmc("113258"), "$PGRMV,-2.5,-1.1,0.3", "$GPRMB,A,0.66,L,003,004", "!AIVDM,1,1,,B,13njCt031t0DA=lN2:jKmad60l1p,0",
                       rmc("113259"))
        let result = try replay(text)
        #expect(result.statistics.proprietary == 1)
        #expect(result.statistics.unknown == 2)
        #expect(positions(result.reports).count == 1)
    }
}

@Suite("Fields")
struct FieldTests {
    @Test("shortAtoi reads every field as atoi does", arguments: [
        "", "0", "5", "05", "12", "99", "123", "-5", "+7", "1a", "a1", "ab", "-", " 5", "5 ", "1234567890123",
        "0.5", "32", "9:", "/0",
    ])
    func shortAtoi(_ text: String) {
        let bytes = Array("$GPGSA,\(text),X".utf8)
        let bounds = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { bounds.deallocate() }
        let fieldEnd = 7 + text.utf8.count
        (bounds[0], bounds[1], bounds[2], bounds[3]) = (0, 6, Int32(fieldEnd), Int32(bytes.count))
        bytes.withUnsafeBufferPointer { buffer in
            let fields = NMEAFields(base: buffer.baseAddress!, bounds: bounds, stored: 3, count: 3)
            #expect(fields.shortAtoi(1) == fields.atoi(1), "\(text)")
            #expect(fields.shortAtoi(5) == fields.atoi(5))
        }
    }
}

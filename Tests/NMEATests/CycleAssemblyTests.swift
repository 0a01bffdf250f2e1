import Foundation
import GeoTrackTesting
import GPSReports
import Testing
@testable import NMEA

@Suite("Cycle assembly")
struct CycleAssemblyTests {
    private func garminCycle(_ t: String, alt: String) -> [String] {
        [
            "$GPRMC,\(t),A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,E",
            "$GPGGA,\(t),3238.9148,N,10822.4466,W,2,08,1.1,\(alt),M,-24.6,M,,",
            "$GPGSA,A,3,02,05,11,12,18,20,25,29,,,,,1.4,1.1,0.9",
        ]
    }

    private func text(_ lines: [String]) -> String { lines.map { SyntheticLog.checksummed($0) + "\r\n" }.joined() }

    @Test("RMC, GGA and GSA of one second become one fix with the data of all three")
    func merge() throws {
        let lines = garminCycle("113258", alt: "1577.4") + garminCycle("113259", alt: "1577.9") + garminCycle("113300", alt: "1578.4")
        let fixes = positions(try replay(text(lines)).reports)
        #expect(fixes.count == 2)
        let fix = try #require(fixes.first)
        #expect(fix.time == Date(timeIntervalSince1970: 1_666_092_779))
        #expect(fix.mode == .threeD)
        #expect(fix.status == .dgps)
        #expect(fix.altitudeMSL == 1577.9)
        #expect(fix.track == 247.1)
        #expect(abs((fix.climb ?? 0) - 0.5) < 1e-9)
        #expect(abs((fix.epv ?? 0) - 0.9 * 23) < 1e-9)
    }

    @Test("a log's # Date header dates a GGA-only log")
    func headerDate() throws {
        let gga = { (t: String) in "$GPGGA,\(t),5000.0000,N,00800.0000,E,1,05,1.0,100.0,M,47.0,M,," }
        let body = text([gga("235958"), gga("235959"), gga("000000")])
        let dated = positions(try replay("# Name: test\n# Date: 2021-03-04\n#\n" + body).reports)
        #expect(dated.compactMap(\.time) == [Date(timeIntervalSince1970: 1_614_902_399), Date(timeIntervalSince1970: 1_614_902_400)])
        // Without a date there is no time, so no position (as gpsd gives none).
        #expect(positions(try replay(body).reports).isEmpty)
    }

    @Test("a log with RMC takes no date from its header: no time until RMC gives a valid date, as gpsd")
    func headerDateNotLentToRMCLogs() throws {
        // mtk-3301's start: GGA first in each cycle, RMC invalid (with a date gpsd ignores),
        // then valid. gpsd gives the first cycles no time; the header must not give them one.
        let cycle = { (t: String, quality: String, status: String, date: String) in [
            "$GPGGA,\(t),5212.9790,N,00653.0979,E,\(quality),05,1.0,102.9,M,47.1,M,,",
            "$GPRMC,\(t),\(status),5212.9790,N,00653.0979,E,0.0,0.0,\(date),,,A",
        ] }
        let body = text(cycle("235958", "1", "V", "050180") + cycle("235959", "1", "V", "050180")
            + cycle("081436", "1", "A", "230808") + cycle("081437", "1", "A", "230808")
            + cycle("081438", "1", "A", "230808"))
        let fixes = positions(try replay("# Date: 2008-08-23\n" + body).reports)
        let times = fixes.compactMap(\.time)
        #expect(!times.isEmpty)
        // Every time comes from RMC's own date: 2008-08-23 08:14, never the header's day at 23:59.
        #expect(times.allSatisfy { $0 >= Date(timeIntervalSince1970: 1_219_479_276) && $0 < Date(timeIntervalSince1970: 1_219_479_300) },
                "\(times)")
    }

    @Test("the receiver's own date wins over the header, and no 1024-week shift is applied")
    func receiverDate() throws {
        let body = text(garminCycle("113258", alt: "1577.4") + garminCycle("113259", alt: "1577.9"))
        let fixes = positions(try replay("# Date: 1999-01-01\n" + body).reports)
        #expect(fixes.first?.time == Date(timeIntervalSince1970: 1_666_092_779))
    }

    @Test("a cycle's end is learned from the first change of time, whatever the sentence order")
    func enderLearned() throws {
        // GGA first, RMC last: the fix is reported at RMC and holds both.
        let cycle = { (t: String) in [
            "$GPGGA,\(t),3238.9148,N,10822.4466,W,1,08,1.1,1577.4,M,-24.6,M,,",
            "$GPRMC,\(t),A,3238.9148,N,10822.4466,W,005.3,247.1,181022,009.3,E",
        ] }
        let fixes = positions(try replay(text(cycle("113258") + cycle("113259") + cycle("113300"))).reports)
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.altitudeMSL == 1577.4 && $0.track == 247.1 })
    }

    @Test("without any speed sentence the speed comes from the distance between fixes")
    func derivedSpeed() throws {
        let gll = { (t: String, lat: String) in "$GPGLL,\(lat),N,00800.0000,E,\(t),A,A" }
        let lines = [rmc("120000"), gll("120001", "5000.0000"), gll("120002", "5000.0100"), gll("120003", "5000.0200")]
        let fixes = positions(try replay(text(lines)).reports)
        let last = try #require(fixes.last)
        // 0.01 minute of latitude at 50°N is about 18.53 m.
        #expect(abs((last.speed ?? 0) - 18.53) < 0.05)
    }
}

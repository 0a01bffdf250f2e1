import Foundation
import GPSReports
import Testing
@testable import NMEA

/// An RTK rover at 5 and 10 Hz (Logs/highrate-rtk.nmea, made by scripts/make-highrate-log.py)
/// against gpsd 3.22's own decoding of it (highrate-rtk.tpv.jsonl, `gpsdecode`).
@Suite("Fixes a fraction of a second apart against gpsd")
struct HighRateTests {
    @Test("every TPV gpsd prints, equal in every key: climbs on the rounding boundary round as gpsd rounds them")
    func everyTPV() throws {
        let path = try logPath("highrate-rtk.nmea")
        let reader = try ReplayReader(path: path)
        var ours: [String] = []
        while let report = try reader.next() {
            if case .fix(let fix) = report { ours.append(fix.tpvJSON()) }
        }
        let text = try String(contentsOfFile: try logPath("highrate-rtk.tpv.jsonl"), encoding: .utf8)
        let gpsd = text.split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"TPV""#) }
            .map { $0.replacingOccurrences(of: #""device":"stdin""#, with: #""device":"\#(path)""#) }
        #expect(gpsd.count == 89)
        #expect(ours.count == gpsd.count)
        for (index, (mine, theirs)) in zip(ours, gpsd).enumerated() where mine != theirs {
            Issue.record("TPV \(index + 1) differs:\n ours: \(mine)\n gpsd: \(theirs)")
        }
    }

    @Test("the time between two fixes is gpsd's to the last bit, from whole seconds and nanoseconds")
    func secondsBetween() {
        // 12:00:00.400 and 12:00:00.200 on 2024-06-01, as the decoder keeps them.
        let earlier = 1_717_243_200 + 0.2, later = 1_717_243_200 + 0.4
        let gpsd = Double(0) + Double(400_000_000 - 200_000_000) * 1e-9
        #expect(NMEACycleAssembler.secondsBetween(later, 400_000_000, earlier, 200_000_000).bitPattern == gpsd.bitPattern)
        // The difference of the doubles is not it: that is what rounded climbs the other way.
        #expect((later - earlier).bitPattern != gpsd.bitPattern)
        #expect(NMEACycleAssembler.secondsBetween(1_717_243_201, 0, 1_717_243_200 + 0.9, 900_000_000) == Double(1) + Double(-900_000_000) * 1e-9)
    }
}

import Foundation
import GPSReports
import Synchronization
import Testing
@testable import NMEA

/// A boat's talkers on one wire (Logs/marine-mix.nmea, made by scripts/make-marine-log.py)
/// against gpsd 3.22's own decoding of it (marine-mix.tpv.jsonl, `gpsdecode`).
///
/// After the first DBT, gpsd reports a TPV at nearly every sentence, each with the depth (in
/// metres, or from feet or fathoms), and the wind on the TPV reported at a wind sentence.
@Suite("A boat's instruments against gpsd")
struct MarineTests {
    /// gpsd's TPV lines, with the device named as the replay names it.
    static func gpsdLines(device: String) throws -> [String] {
        let text = try String(contentsOfFile: try logPath("marine-mix.tpv.jsonl"), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"TPV""#) }
            .map { $0.replacingOccurrences(of: #""device":"stdin""#, with: #""device":"\#(device)""#) }
    }

    @Test("every TPV gpsd prints, in order and equal in every key: depth and wind included")
    func everyReportThroughTheService() throws {
        let path = try logPath("marine-mix.nmea")
        let reader = try ReplayReader(path: path)
        var ours: [String] = []
        while let report = try reader.next() {
            if case .fix(let fix) = report { ours.append(fix.tpvJSON()) }
        }
        let gpsd = try Self.gpsdLines(device: path)
        #expect(gpsd.count > 40, "gpsd reports at nearly every sentence here")
        #expect(ours == gpsd)
        #expect(ours.contains { $0.contains(#""depth":"#) } && ours.contains { $0.contains(#""wspeedt":"#) })
    }

    @Test("without a DBT, no cycle continues: one report per cycle, at its learned end")
    func withoutSounder() throws {
        let text = try String(contentsOfFile: try logPath("marine-mix.nmea"), encoding: .utf8)
        let withoutDBT = text.split(separator: "\n").filter { !$0.contains("DBT,") }.joined(separator: "\n") + "\n"
        let fixes = positions(try replay(withoutDBT).reports)
        // gpsd (gpsdecode) gives one TPV per cycle for this log without its DBTs, at GGA, the
        // last sentence with a time in each cycle.
        let times = Set(fixes.compactMap(\.time))
        #expect(fixes.count == times.count, "one report per time: \(fixes.count) reports for \(times.count) times")
        #expect(fixes.allSatisfy { $0.depth == nil })
    }
}

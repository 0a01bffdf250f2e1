import Foundation
import GPSReports
import GeoTrackTesting
import Testing
@testable import NMEA

/// Every SKY line of the replay against gpsd 3.22's own decoding of the corpus (`gpsdecode`, in
/// Tests/Fixtures/nmea-corpus/NAME.sky.jsonl), as text: every key, value and their order, the
/// device name aside (gpsdecode reads "stdin").
@Suite("SKY lines against gpsd")
struct GPSDSkyTests {
    /// The share of gpsd's SKY lines the replay must print identically, per log and over the
    /// corpus: all of them.
    static let floor = 1.0

    @Test("every log gives gpsd's SKY lines, as many and each identical")
    func identicalLines() throws {
        var total = 0, identical = 0
        var failures: [String] = []
        for name in try Corpus.names() {
            let expected = try String(contentsOfFile: try Corpus.path(name + ".sky.jsonl"), encoding: .utf8)
                .split(whereSeparator: \.isNewline)
                .map { $0.replacingOccurrences(of: #","device":"stdin""#, with: "") }
            let reader = try ReplayReader(path: try Corpus.path(name + ".nmea"))
            var ours: [String] = []
            while let report = try reader.next() {
                guard case .sky(var sky) = report else { continue }
                sky.device = nil
                ours.append(sky.skyJSON())
            }
            let same = zip(expected, ours).filter { $0 == $1 }.count
            total += expected.count
            identical += same
            let share = expected.isEmpty ? 1 : Double(same) / Double(expected.count)
            print(String(format: "gpsd SKY: %@ %d of %d identical (%.1f%%), %d printed", name, same, expected.count,
                         100 * share, ours.count))
            if ours.count != expected.count {
                failures.append("\(name): \(ours.count) SKY lines, gpsd printed \(expected.count)")
            }
            if share < Self.floor, let first = zip(expected, ours).first(where: { $0 != $1 }) {
                failures.append("\(name): \(same) of \(expected.count) identical; first differing:\n gpsd \(first.0)\n ours \(first.1)")
            }
        }
        let share = Double(identical) / Double(max(1, total))
        print(String(format: "gpsd SKY: %d of %d identical over the corpus (%.1f%%)", identical, total, 100 * share))
        #expect(total > 900, "the fixtures hold \(total) SKY lines")
        #expect(share >= Self.floor)
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    @Test("a PRN 0 before the last numbered satellite hides it, as gpsd 3.22 lists only the first nSat entries")
    func unnumberedSatelliteHidesTheLast() {
        let sky = SkyView(satellites: [Satellite(prn: 5, elevation: 10, azimuth: 20, signalStrength: 30),
                                       Satellite(prn: 0, elevation: 11, azimuth: 21, signalStrength: 31),
                                       Satellite(prn: 7, elevation: 12, azimuth: 22, signalStrength: 32, used: true)])
        #expect(sky.skyJSON() == #"{"class":"SKY","nSat":2,"uSat":1,"satellites":[{"PRN":5,"el":10.0,"az":20.0,"ss":30.0,"used":false}]}"#)
        #expect(sky.seen == 2)
    }

    @Test("nothing numbered: gpsd prints the counts and no list")
    func noSatellites() {
        #expect(SkyView(satellites: [Satellite(prn: 0)]).skyJSON() == #"{"class":"SKY","nSat":0,"uSat":0}"#)
    }

    @Test("a sky that knows only how many satellites are used: seen unknown, used that count, SKY with uSat alone")
    func usedCountWithoutAList() {
        var sky = SkyView()
        sky.reportedUsedCount = 16
        sky.hdop = 0.9
        #expect(sky.seen == nil && sky.used == 16 && sky.listed.isEmpty)
        #expect(sky.skyJSON() == #"{"class":"SKY","hdop":0.90,"uSat":16}"#)
        // A list, when there is one, is what is counted, as gpsd counts its own.
        sky.satellites = [Satellite(prn: 5, used: true), Satellite(prn: 7)]
        #expect(sky.seen == 2 && sky.used == 1)
        #expect(sky.skyJSON() == #"{"class":"SKY","hdop":0.90,"nSat":2,"uSat":1,"satellites":[{"PRN":5,"used":true},{"PRN":7,"used":false}]}"#)
        // Neither a list nor a count: gpsd 3.22's empty SKY, which says none.
        #expect(SkyView().skyJSON() == #"{"class":"SKY","nSat":0,"uSat":0}"#)
        #expect(SkyView().seen == 0)
    }

    @Test("the replay's sky view has gpsd's tdop and gdop from the used satellites' geometry, and no time")
    func geometryDOPs() throws {
        // Four used satellites at the horizon's four quarters and one overhead.
        let result = try replay(log("$GPGSA,A,3,01,02,03,04,05,,,,,,,,2.0,1.0,1.5",
                                    "$GPGSV,2,1,05,01,00,000,40,02,00,090,40,03,00,180,40,04,00,270,40",
                                    "$GPGSV,2,2,05,05,90,000,40"))
        let views = result.reports.compactMap { if case .sky(let sky) = $0 { sky } else { nil } }
        let sky = try #require(views.last)
        #expect(sky.time == nil)
        #expect(sky.tdop != nil && sky.gdop != nil && sky.xdop != nil && sky.ydop != nil)
        let line = sky.skyJSON()
        #expect(!line.contains("\"time\""), "\(line)")
        #expect(line.contains(#""tdop":"#) && line.contains(#""gdop":"#), "\(line)")
    }
}

import Foundation
import GPSReports
import GeoTrackTesting
import Testing
@testable import NMEA

/// Every key and value of every TPV against gpsd 3.22's own decoding of the corpus
/// (`gpsdecode`, in Tests/Fixtures/nmea-corpus/NAME.tpv.jsonl), the device name aside.
///
/// The TPVs are paired in order by time and mode (gpsd's times that sit 1024 or 2048 weeks
/// after the replay's, from its week-rollover guard, are moved back first); a pair is equal when
/// both have the same keys and every value agrees (numbers within 1e-9, after the printing).
@Suite("TPV fields against gpsd")
struct GPSDFieldTests {
    /// The share of gpsd's TPVs equal in every key that the replay reaches: the floor below
    /// which the test fails (what was reached once time followed gpsd's date rules: all of them).
    static let fullEqualityFloor = 1.0
    /// The share no single log may fall below, so that a receiver the corpus has few TPVs of
    /// cannot hide behind the others.
    static let perLogFloor = 0.95

    /// For each key, the share of paired TPVs that must agree on it (present on both sides with
    /// the same value, or absent on both); 1 for a key not listed.
    static let keyFloors: [String: Double] = [:]

    @Test("the share of TPVs equal to gpsd's in every key and value does not fall")
    func fullEquality() throws {
        let comparison = try Self.corpusComparison()
        let share = Double(comparison.equal) / Double(comparison.gpsdCount)
        print(String(format: "gpsd fields: full %.1f%% of %d gpsd TPVs (%d paired); most frequent differences: %@",
                     100 * share, comparison.gpsdCount, comparison.paired,
                     comparison.differences.sorted { $0.value > $1.value }.prefix(10)
                         .map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        #expect(share >= Self.fullEqualityFloor)
        let lowest = comparison.perLog.min { $0.value.share < $1.value.share }
        if let lowest {
            print(String(format: "gpsd fields: lowest log %@ %.1f%% of %d", lowest.key, 100 * lowest.value.share,
                         lowest.value.count))
        }
        for (name, log) in comparison.perLog where log.share < Self.perLogFloor {
            Issue.record("\(name): \(log.equal) of \(log.count) gpsd TPVs equal in every key and value")
        }
    }

    @Test("each model's key agrees with gpsd's on the corpus", arguments: ["magvar", "magtrack", "epx", "epy", "eps", "epc", "epd", "eph", "epv", "sep", "status", "dgpsAge", "dgpsSta", "geoidSep", "altHAE"])
    func key(_ key: String) throws {
        let comparison = try Self.corpusComparison()
        let agreeing = comparison.paired - comparison.differingKeys[key, default: 0]
        let share = Double(agreeing) / Double(comparison.paired)
        print(String(format: "gpsd fields: %@ agrees in %.1f%% of %d paired TPVs", key, 100 * share, comparison.paired))
        #expect(share >= Self.keyFloors[key, default: 1])
    }

    @Test("latitude and longitude have gpsd's ninth decimal: whole minutes plus the fraction, times 1/60")
    func positionDigits() throws {
        // From nmea-rtk: degrees + minutes / 60 gives -93.750571903, gpsd prints ...904.
        let result = try replay(log(rmc("132819.70", lat: "4134.49795443", lon: "09345.03431421"),
                                    rmc("132819.80", lat: "4134.49795443", lon: "09345.03431421")))
        let lines = positions(result.reports).map { $0.tpvJSON() }
        #expect(lines.first?.contains(#""lat":41.574965907,"lon":-93.750571904"#) == true, "\(lines)")
    }

    @Test("an RMC with no fix and no time or date is reported at once, with no time, and the date is forgotten")
    func noFixWithoutTime() throws {
        let result = try replay(log(rmc("200004"), "$GPRMC,,V,,,,,,,260810,1.0,E,N",
                                    "$GPGGA,200006,5504.4343,N,01025.5386,E,1,08,1.0,10.0,M,40.0,M,,"))
        let lines = fixes(result.reports).map { fix in
            var fix = fix
            fix.device = nil
            return fix.tpvJSON()
        }
        // Nothing else is reported: no cycle's end is known yet, and the GGA's time of day has no date.
        #expect(lines == [#"{"class":"TPV","mode":1}"#])
    }

    // MARK: The comparison

    struct Comparison {
        var gpsdCount = 0
        var paired = 0
        var equal = 0
        /// "key missing|extra|differs" → count.
        var differences: [String: Int] = [:]
        /// key → paired TPVs where it differs in any way.
        var differingKeys: [String: Int] = [:]
        /// Log name → its gpsd TPVs and those equal in every key.
        var perLog: [String: LogShare] = [:]
    }

    struct LogShare {
        var count: Int
        var equal: Int
        var share: Double { count > 0 ? Double(equal) / Double(count) : 1 }
    }

    nonisolated(unsafe) private static var cached: Comparison?
    private static let lock = NSLock()

    /// The comparison over the whole corpus, computed once for all the tests of the suite.
    static func corpusComparison() throws -> Comparison {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        var total = Comparison()
        for name in try Corpus.names() {
            try compare(name, into: &total)
        }
        cached = total
        return total
    }

    private static let rollover = 1024.0 * 7 * 86400

    static func compare(_ name: String, into total: inout Comparison) throws {
        let expected = try String(contentsOfFile: try Corpus.path(name + ".tpv.jsonl"), encoding: .utf8)
        let gpsd = expected.split(whereSeparator: \.isNewline).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["class"] as? String == "TPV" }
        guard !gpsd.isEmpty else { return }
        let reader = try ReplayReader(path: try Corpus.path(name + ".nmea"))
        var ours: [[String: Any]] = []
        while let report = try reader.next() {
            guard case .fix(let fix) = report,
                  let object = try JSONSerialization.jsonObject(with: Data(fix.tpvJSON().utf8)) as? [String: Any]
            else { continue }
            ours.append(object)
        }
        let ourTimes = Set(ours.compactMap { time($0) })
        let ourDays = Set(ourTimes.map { ($0 / 86400).rounded(.down) })
        // gpsd's time moved back by the rollover it applied, when that lands on a day of ours.
        func key(_ object: [String: Any], shifting: Bool) -> String {
            var t = time(object)
            if shifting, let given = t {
                t = [given, given - rollover, given - 2 * rollover].first { ourDays.contains(($0 / 86400).rounded(.down)) } ?? given
            }
            return "\(t.map { String(format: "%.3f", $0) } ?? "-") \(object["mode"] as? Int ?? -1)"
        }
        let theirs = gpsd.map { key($0, shifting: true) }
        let mine = ours.map { key($0, shifting: false) }
        total.gpsdCount += gpsd.count
        let equalBefore = total.equal
        defer { total.perLog[name] = LogShare(count: gpsd.count, equal: total.equal - equalBefore) }
        for (i, j) in pairs(theirs, mine) {
            total.paired += 1
            var a = gpsd[i], b = ours[j]
            a["device"] = nil
            b["device"] = nil
            // Times are compared by the pairing, rollover aside.
            a["time"] = nil
            b["time"] = nil
            var same = true
            for k in Set(a.keys).union(b.keys) {
                let how: String
                switch (a[k], b[k]) {
                case (nil, _?): how = "extra"
                case (_?, nil): how = "missing"
                case let (x?, y?): if equal(x, y) { continue } else { how = "differs" }
                default: continue
                }
                same = false
                total.differences["\(k) \(how)", default: 0] += 1
                total.differingKeys[k, default: 0] += 1
            }
            if same { total.equal += 1 }
        }
    }

    /// Index pairs of equal keys, in order: a longest common subsequence.
    static func pairs(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        var length = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                length[i][j] = a[i] == b[j] ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
            }
        }
        var result: [(Int, Int)] = []
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] {
                result.append((i, j))
                i += 1
                j += 1
            } else if length[i + 1][j] >= length[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    static func time(_ object: [String: Any]) -> Double? {
        guard let text = object["time"] as? String,
              let date = ISO8601DateFormatter.withFractions.date(from: text) else { return nil }
        return (date.timeIntervalSince1970 * 1000).rounded() / 1000
    }

    static func equal(_ x: Any, _ y: Any) -> Bool {
        if let s = x as? String, let t = y as? String { return s == t }
        if let m = x as? NSNumber, let n = y as? NSNumber { return abs(m.doubleValue - n.doubleValue) <= 1e-9 }
        return false
    }
}

import GPSReports
import Testing
@testable import NMEA

/// The decoder's state as the bulk JSON path compares it: two states found equal must make the
/// same output of the same bytes, so every difference that can show in what is printed must
/// make them unequal, and what cannot (memos, counts, collected fixes) must not.
@Suite("Decoder state")
struct DecoderStateTests {
    /// Feeds `text` whole to `decoder`; returns the reports it made.
    @discardableResult
    static func feed(_ decoder: inout NMEAStreamDecoder, _ text: String) -> [Report] {
        var bytes = Array(text.utf8)
        var all: [Report] = []
        var reports: [Report] = []
        bytes.withUnsafeMutableBufferPointer { buffer in
            var at = 0
            while at < buffer.count {
                let used = decoder.consume(UnsafeBufferPointer(rebasing: buffer[at...]), atEnd: true, into: &reports)
                all += reports
                reports.removeAll()
                guard used > 0 else { break }
                at += used
            }
        }
        return all
    }

    /// One reporting cycle at 12:00:`second`.
    static func cycle(_ second: Int) -> String {
        let time = "1200" + (second < 10 ? "0" : "") + "\(second).00"
        return log("$GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                   "$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                   "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")
    }

    static let cycle = cycle(0) + cycle(1)

    @Test("numbers are compared as they print: 0 and -0 differ, any two NaNs are alike")
    func bitExact() {
        #expect(BitExact(wrappedValue: 0.0) != BitExact(wrappedValue: -0.0))
        #expect(BitExact(wrappedValue: Double.nan) == BitExact(wrappedValue: -Double.nan))
        #expect(BitExact(wrappedValue: Double.nan) == BitExact(wrappedValue: Double(nan: 7, signaling: false)))
        #expect(BitExact(wrappedValue: 1.5) == BitExact(wrappedValue: 1.5))
        #expect(BitExact(wrappedValue: 1.5) != BitExact(wrappedValue: 1.5.nextUp))
        #expect(BitExact<Double?>(wrappedValue: nil) == BitExact<Double?>(wrappedValue: nil))
        #expect(BitExact<Double?>(wrappedValue: nil) != BitExact<Double?>(wrappedValue: .nan))
        #expect(BitExact<Double?>(wrappedValue: 0) != BitExact<Double?>(wrappedValue: -0.0))
        #expect(BitExact<Double?>(wrappedValue: .nan) == BitExact<Double?>(wrappedValue: -Double.nan))
    }

    @Test("states that differ only in a 0 and a -0 are unequal, wherever the number is")
    func signedZero() {
        let base = NMEACycleAssembler(device: "d")
        let changes: [(String, (inout NMEACycleAssembler) -> Void)] = [
            ("fix.speed", { $0.fix.speed = -0.0 }),
            ("newData.altMSL", { $0.newData.altMSL = -0.0 }),
            ("lastFix.epx", { $0.lastFix.epx = -0.0 }),
            ("oldFix.time", { $0.oldFix.time = -0.0 }),
            ("subseconds", { $0.subseconds = -0.0 }),
            ("thisFractionalTime", { $0.thisFractionalTime = -0.0 }),
            ("attitude.heading", { $0.attitude.heading = -0.0 }),
        ]
        for (name, change) in changes {
            var a = base, b = base
            // The same field, 0 in one and -0 in the other (time fields start at 0 already).
            change(&b)
            change(&a)
            #expect(a == b, "\(name)")
            Self.setPositiveZero(name, &a)
            #expect(a != b, "\(name): 0 against -0")
        }
    }

    private static func setPositiveZero(_ name: String, _ a: inout NMEACycleAssembler) {
        switch name {
        case "fix.speed": a.fix.speed = 0
        case "newData.altMSL": a.newData.altMSL = 0
        case "lastFix.epx": a.lastFix.epx = 0
        case "oldFix.time": a.oldFix.time = 0
        case "subseconds": a.subseconds = 0
        case "thisFractionalTime": a.thisFractionalTime = 0
        default: a.attitude.heading = 0
        }
    }

    @Test("NaNs of any sign or payload are alike: unknown is unknown")
    func nans() {
        var a = NMEACycleAssembler(device: "d"), b = NMEACycleAssembler(device: "d")
        a.hdop = .nan
        b.hdop = -Double.nan
        a.fix.epx = Double(nan: 3, signaling: false)
        b.fix.epx = .nan
        #expect(a == b)
        b.hdop = 1.3
        #expect(a != b)
    }

    @Test("a difference in any one field makes the states unequal",
          arguments: ["device", "wantsSky", "collectsRawFixes", "year", "cycleEnders", "cycleContinues",
                      "lastGSVTalker", "seenGLGSV", "usedPRNs", "sky", "geometry", "pdop", "status", "fix.mode",
                      "fix.dgpsStation", "lastFix.latitude", "newData.depth", "attitude.source", "errorModelRanPlain"])
    func oneField(_ name: String) {
        let a = NMEACycleAssembler(device: "d")
        var b = a
        switch name {
        case "device": b.device = "e"
        case "wantsSky": b.wantsSky.toggle()
        case "collectsRawFixes": b.collectsRawFixes.toggle()
        case "year": b.year = 2024
        case "cycleEnders": b.cycleEnders = 2
        case "cycleContinues": b.cycleContinues = true
        case "lastGSVTalker": b.lastGSVTalker = UInt8(ascii: "P")
        case "seenGLGSV": b.seenGLGSV = true
        case "usedPRNs": b.usedPRNs.append(12)
        case "sky": b.sky.append(Satellite(prn: 4))
        case "geometry": b.geometry.addUsedSatellite(azimuth: 40, elevation: 30)
        case "pdop": b.pdop = 2.5
        case "status": b.status = 2
        case "fix.mode": b.fix.mode = 3
        case "fix.dgpsStation": b.fix.dgpsStation = 7
        case "lastFix.latitude": b.lastFix.latitude = 48.1
        case "newData.depth": b.newData.depth = 3
        case "attitude.source": b.attitude.source = "HDT"
        default: b.errorModelRanPlain.toggle()
        }
        #expect(a != b)
    }

    @Test("a header's date counts until a sentence gives a date, never after")
    func headerDate() {
        var a = NMEAStreamDecoder(collectingFixesFor: "d")
        var b = NMEAStreamDecoder(collectingFixesFor: "d")
        Self.feed(&a, "# Date: 2020-01-02\n")
        Self.feed(&b, "# Date: 2021-05-06\n")
        #expect(a.state != b.state)
        Self.feed(&a, Self.cycle)
        Self.feed(&b, Self.cycle)
        #expect(a.state == b.state)
        // A later header changes nothing either, once the log has given its own date.
        Self.feed(&b, "# Date: 2022-07-08\n")
        #expect(a.state == b.state)
    }

    @Test("memos, counts and the fixes collected are not state")
    func notState() {
        var a = NMEAStreamDecoder(collectingFixesFor: "d")
        Self.feed(&a, Self.cycle + Self.cycle)
        var b = NMEAStreamDecoder(collectingFixesFor: "d")
        // Another position and day: other memos (models, distances, month), other counts and fixes.
        Self.feed(&b, log("$GPRMC,083000.00,A,5107.038,N,00131.000,W,010.0,184.4,150822,,",
                          "$GPRMC,083001.00,A,5107.040,N,00131.000,W,010.0,184.4,150822,,"))
        #expect(a.state != b.state)
        b.restore(a.state)
        #expect(a.state == b.state)
        #expect(a.statistics != b.statistics)
        #expect(a.workspace.rawFixes.count != b.workspace.rawFixes.count)
        // And equal states make the same fixes of the same bytes.
        a.drainFixes { _ in }
        b.drainFixes { _ in }
        let next = Self.cycle(2) + Self.cycle(3)
        Self.feed(&a, next)
        Self.feed(&b, next)
        var fixesA: [TPVValues] = [], fixesB: [TPVValues] = []
        a.drainFixes { fixesA += $0 }
        b.drainFixes { fixesB += $0 }
        #expect(!fixesA.isEmpty)
        let json = { (fixes: [TPVValues]) in fixes.map { Fix(tpvValues: $0, device: "d").tpvJSON() } }
        #expect(json(fixesA) == json(fixesB))
        #expect(a.state == b.state)
    }

    @Test("a seed forgets the last timed sentence and starts at a line")
    func seed() {
        var a = NMEAStreamDecoder(collectingFixesFor: "d")
        Self.feed(&a, Self.cycle + "$GPGGA,1200")
        let seed = a.state.seed()
        #expect(seed.assembler.lastTag == 0)
        #expect(!seed.assembler.latchFractionalTime)
        #expect(seed.atLineStart && !seed.inJunk && !seed.skipping)
        #expect(seed.assembler.year == a.state.assembler.year)
    }
}

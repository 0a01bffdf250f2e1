import CGPS
import GPSReports
import Testing
@testable import GPSD

#if canImport(Glibc)
import Glibc
#endif

/// libgps is opened when the first connection is made, not linked: other commands never load it.
@Suite struct LibGPSTests {
    @Test("the installed libgps loads, and its parser reads a line")
    func loads() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        var line = Array(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","lat":51.5,"lon":-0.12}"#.utf8) + [0]
        let outcome = line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        guard case .report(let report) = outcome else {
            Issue.record("no report: \(outcome)")
            return
        }
        #expect("\(report)".contains("51.5"))
    }

    @Test("a TPV's keys GeoTrack does not read pass through to its TPV JSON as gpsd sent them; known ones are checked, not copied")
    func unknownKeysPassThrough() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        var line = Array(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","lat":51.5,"velN":-1.1,"lon":-0.12,"eph":-5.0,"velE":-2.3,"ecef":{"x":[1,2]},"dgpsSta":"a\u001bb"}"#.utf8) + [0]
        let outcome = line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        guard case .report(.fix(let fix)) = outcome else {
            Issue.record("no fix: \(outcome)")
            return
        }
        // dgpsSta is a key GeoTrack reads: a string there is no station, and is not copied.
        #expect(fix.otherTPVMembers == #""velN":-1.1,"velE":-2.3,"ecef":{"x":[1,2]}"#)
        #expect(fix.dgpsStation == nil)
        // A negative error estimate cannot be true: left out, not copied through.
        #expect(fix.eph == nil)
        #expect(fix.tpvJSON() == #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","lat":51.500000000,"lon":-0.120000000,"velN":-1.1,"velE":-2.3,"ecef":{"x":[1,2]}}"#)
    }

    @Test("gpsd's DGPS age and station, depth and wind are read into the fix and written back as gpsd printed them")
    func dgpsDepthAndWind() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        // gpsdecode 3.22's TPV for a cycle of nmea-rtk.nmea (Tests/Fixtures/nmea-corpus, a DGPS fix), with a
        // depth and wind added where gpsd prints them.
        let sent = #"{"class":"TPV","device":"stdin","status":2,"mode":3,"time":"2020-03-18T13:28:19.700Z","ept":0.005,"lat":41.574965907,"lon":-93.750571904,"altHAE":246.7190,"altMSL":278.1610,"alt":278.1610,"track":139.0600,"magtrack":150.6585,"magvar":11.6,"speed":0.183,"climb":0.000,"geoidSep":-31.442,"eph":4.275,"depth":12.500,"dgpsAge":6.6,"dgpsSta":133,"wanglem":12.5,"wangler":-30.0,"wanglet":14.0,"wspeedr":3.1,"wspeedt":2.9}"#
        var line = Array(sent.utf8) + [0]
        let outcome = line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        guard case .report(.fix(let fix)) = outcome else {
            Issue.record("no fix: \(outcome)")
            return
        }
        #expect(fix.dgpsAge == 6.6)
        #expect(fix.dgpsStation == 133)
        #expect(fix.depth == 12.5)
        #expect(fix.wind == Wind(magneticAngle: 12.5, relativeAngle: -30, trueAngle: 14, relativeSpeed: 3.1, trueSpeed: 2.9))
        #expect(fix.otherTPVMembers == nil)
        #expect(fix.tpvJSON() == sent)
    }

    @Test("a DGPS station or depth that cannot be is left out, not copied through")
    func impossibleDGPS() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        var line = Array(#"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.700Z","lat":41.5,"lon":-93.7,"depth":-3.0,"dgpsAge":-6.6,"dgpsSta":133}"#.utf8) + [0]
        let outcome = line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        guard case .report(.fix(let fix)) = outcome else {
            Issue.record("no fix: \(outcome)")
            return
        }
        #expect(fix.depth == nil && fix.dgpsAge == nil && fix.dgpsStation == nil && fix.wind == nil)
        #expect(fix.tpvJSON() == #"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:19.700Z","lat":41.500000000,"lon":-93.700000000}"#)
    }

    @Test("DEVICES entries as long as libgps reads are parsed by it; longer ones, on which 3.22's parser loops, are refused before it")
    func deviceEntryLimits() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        func decode(_ text: String) -> GPSDMessageDecoder.Outcome {
            var line = Array(text.utf8) + [0]
            return line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        }
        let entry = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2024-05-01T10:00:00.000Z","#
        for longest in [String(repeating: "k", count: 30) + #"":"N""#, #"zz":""# + String(repeating: "v", count: 512) + #"""#,
                        #"bps":"# + String(repeating: "9", count: 512)] {
            // Were these past libgps's limits, this call would not return.
            guard case .report(.devices(let devices)) = decode(entry + #"""# + longest + "}]}") else {
                Issue.record("not parsed: \(longest.prefix(40))")
                continue
            }
            #expect(devices.map(\.path) == ["/dev/ttyACM0"])
        }
        for tooLong in [String(repeating: "k", count: 31) + #"":"N""#, #"zz":""# + String(repeating: "v", count: 513) + #"""#] {
            guard case .rejected = decode(entry + #"""# + tooLong + "}]}") else {
                Issue.record("not refused: \(tooLong.prefix(40))")
                continue
            }
        }
    }

    @Test("gpsd 3.22's broken ATT for a heading sensor is read as meant: the heading, without the time and zeros it never had")
    func gpsd322Attitude() throws {
        let library = try LibGPS.shared.get()
        var decoder = try GPSDMessageDecoder(library: library)
        func decode(_ text: String) -> GPSDMessageDecoder.Outcome {
            var line = Array(text.utf8) + [0]
            return line.withUnsafeMutableBufferPointer { decoder.decode(UnsafeMutableBufferPointer(rebasing: $0.dropLast())) }
        }
        // As gpspipe -w printed it from gpsd 3.22 fed Tests/NMEATests/Logs/marine-mix.nmea (an HDT of 90°).
        let sent = #"{"class":"ATT","device":"/dev/pts/9",,"time":"1970-01-01T00:00:01.245Z""heading":90.000,"pitch":0.00,"yaw":0.00,"roll":0.00,"dip":0.000,"mag_len":0.000,"mag_x":0.000,"mag_y":0.000,"mag_z":0.000,"acc_x":0.000,"acc_y":0.000,"acc_z":0.000,"gyro_x":0.000,"gyro_y":0.000,"temp":0.000,"depth":0.000}"#
        guard case .report(.attitude(let attitude)) = decode(sent) else {
            Issue.record("no attitude: \(decode(sent))")
            return
        }
        #expect(attitude.device == "/dev/pts/9")
        #expect(attitude.heading == 90)
        #expect(attitude.time == nil && attitude.pitch == nil && attitude.roll == nil && attitude.yaw == nil)
        // gpsd 3.25's ATT for the same reading is JSON already, and read as it is.
        guard case .report(.attitude(let newer)) = decode(#"{"class":"ATT","device":"/dev/pts/3","heading":90.000}"#) else {
            Issue.record("no attitude from gpsd 3.25's ATT")
            return
        }
        #expect(newer.heading == 90)
        // Nothing else broken is taken for it: a TPV with the same fault, an ATT broken otherwise.
        for broken in [#"{"class":"TPV","device":"/dev/pts/9",,"time":"2024-01-01T00:00:01.245Z""mode":3}"#,
                       #"{"class":"ATT","device":"/dev/pts/9",,"heading":90.000}"#,
                       #"{"class":"ATT","device":"/dev/pts/9",,"time":"1970-01-01T00:00:01.245Z","heading":90.000,,}"#] {
            guard case .rejected = decode(broken) else {
                Issue.record("not refused: \(broken)")
                continue
            }
        }
    }

    @Test("a soname that is not there is not stood in for by the development link libgps.so, which may be another release's layout")
    func noFallback() throws {
        // The tests' machine has libgps-dev: the development link is there to be (wrongly) taken.
        let development = try #require(dlopen("libgps.so", RTLD_NOW | RTLD_LOCAL), "libgps-dev's libgps.so is missing")
        defer { dlclose(development) }
        guard case .failure = LibGPS.load(soname: "libgps.so.999") else {
            Issue.record("libgps.so.999 loaded: another library stood in for it")
            return
        }
        _ = try LibGPS.load(soname: String(cString: geotrack_libgps_soname())).get()
    }

    @Test("a library that is not there is one line naming the package to install")
    func missing() {
        guard case .failure(let error) = LibGPS.load(soname: "libgps.so.999") else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(error.message.hasPrefix("cannot load libgps.so.999 ("))
        #expect(error.message.hasSuffix("(Debian: apt install libgps999)"))
        #expect(!error.message.contains("\n"))
    }
}

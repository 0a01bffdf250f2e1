import GPSReports
import Testing
@testable import GPSD

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
        #expect(fix.otherTPVMembers == #""velN":-1.1,"velE":-2.3,"ecef":{"x":[1,2]},"dgpsSta":"a\u001bb""#)
        // A negative error estimate cannot be true: left out, not copied through.
        #expect(fix.eph == nil)
        #expect(fix.tpvJSON() == #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-05-01T12:00:00.000Z","lat":51.500000000,"lon":-0.120000000,"velN":-1.1,"velE":-2.3,"ecef":{"x":[1,2]},"dgpsSta":"a\u001bb"}"#)
    }

    @Test("without the soname, the development link libgps.so is used")
    func fallback() throws {
        _ = try LibGPS.load(soname: "libgeotrack-no-such-gps.so.99", fallback: "libgps.so").get()
    }

    @Test("a library that is not there is one line naming the package to install")
    func missing() {
        guard case .failure(let error) = LibGPS.load(soname: "libgps.so.999", fallback: nil) else {
            Issue.record("a missing library loaded")
            return
        }
        #expect(error.message.hasPrefix("cannot load libgps.so.999 ("))
        #expect(error.message.hasSuffix("(Debian: apt install libgps999)"))
        #expect(!error.message.contains("\n"))
    }
}

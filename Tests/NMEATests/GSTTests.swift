import Foundation
import GPSReports
import Testing
@testable import NMEA

/// GST, the receiver's error statistics, against gpsd 3.22's own decoding: every GST object
/// gpsdecode prints, in order among the TPVs, equal in every key.
@Suite("GST against gpsd")
struct GSTTests {
    /// The TPV and GST lines of a replay of `name`, named as the replay names the device.
    static func ours(_ name: String) throws -> [String] {
        let reader = try ReplayReader(path: try logPath(name))
        var lines: [String] = []
        while let report = try reader.next() {
            switch report {
            case .fix(let fix): lines.append(fix.tpvJSON())
            case .noise(let noise): lines.append(noise.gstJSON())
            default: break
            }
        }
        return lines
    }

    /// gpsd's TPV and GST lines in a `gpsdecode` output beside the log.
    static func gpsd(_ name: String, log: String) throws -> [String] {
        let text = try String(contentsOfFile: try logPath(name), encoding: .utf8)
        let device = try logPath(log)
        return text.split(whereSeparator: \.isNewline)
            .filter { $0.contains(#""class":"TPV""#) || $0.contains(#""class":"GST""#) }
            .map { $0.replacingOccurrences(of: #""device":"stdin""#, with: #""device":"\#(device)""#) }
    }

    @Test("GSTs written well and badly: missing and malformed fields, numbers gpsd reads a prefix of, no date yet, a malformed time")
    func fields() throws {
        let ours = try Self.ours("gst-fields.nmea")
        let gpsd = try Self.gpsd("gst-fields.jsonl", log: "gst-fields.nmea")
        #expect(gpsd.filter { $0.contains("GST") }.count == 13)
        #expect(ours == gpsd)
    }

    @Test("a u-blox receiver's GSTs among its fixes, as gpsd orders them")
    func ublox() throws {
        let ours = try Self.ours("ublox-neo-m9n-nmea.nmea")
        let gpsd = try Self.gpsd("ublox-neo-m9n-nmea.tpv.jsonl", log: "ublox-neo-m9n-nmea.nmea")
        // The corpus's expected file holds the TPVs only: the GSTs are compared by time below.
        #expect(ours.filter { $0.contains("TPV") } == gpsd)
        let noise = ours.filter { $0.contains("GST") }
        #expect(noise.count == 61)
        #expect(noise.first?.hasSuffix(#""time":"2020-07-11T22:37:45.000Z","rms":228650.000,"major":2.500,"minor":2.400,"orient":126.000,"lat":0.980,"lon":1.000,"alt":3.100}"#) == true)
    }

    @Test("gpsd's prefix reading of a field", arguments: [
        ("12abc", 12.0), (".5", 0.5), ("+3", 3), ("1e3", 1000), ("1E-2", 0.01), ("1e", 1), ("1e+", 1), ("0x10", 0),
        ("-0", -0.0), ("-x", -0.0), ("-inf", -0.0), ("-.", -0.0), (" 5", 5),
    ])
    func prefix(text: String, value: Double) {
        let bytes = Array(text.utf8)
        let read = bytes.withUnsafeBufferPointer { NMEANumber.gpsdPrefix($0.baseAddress!, 0, bytes.count) }
        #expect(read == value && read.sign == value.sign)
    }

    @Test("what gpsd reads as no number", arguments: ["", "abc", "inf", "nan"])
    func notANumber(text: String) {
        let bytes = Array(text.utf8) + [0]
        let read = bytes.withUnsafeBufferPointer { NMEANumber.gpsdPrefix($0.baseAddress!, 0, bytes.count - 1) }
        #expect(read.isNaN)
    }
}

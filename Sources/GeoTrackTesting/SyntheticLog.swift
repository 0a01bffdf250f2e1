import Foundation
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// NMEA logs made for tests: as long as a test needs, with fix times it chooses.
public enum SyntheticLog {
    /// Writes an NMEA log of `cycles` cycles (an RMC and a GGA sentence each), one a second from
    /// 09:00:00 UTC on 12 September 2025, each `fraction` of a second past the second (two or
    /// three digits, "25" for .25 s), each 0.01' of longitude (about 13 m, so 13 m/s) east of the
    /// one before, at 46.2° N with HDOP 0.8.
    ///
    /// A replay reports no fix for a log's first cycle, so it reports `cycles - 1` fixes.
    public static func writeNMEA(cycles: Int, fraction: String = "25", to path: String) throws {
        var lines = ["# \(cycles) synthetic cycles, one a second, moving east at 13 m/s"]
        for index in 0..<cycles {
            let seconds = 9 * 3600 + index
            let time = String(format: "%02d%02d%02d.", seconds / 3600, seconds / 60 % 60, seconds % 60) + fraction
            let longitude = String(format: "006%07.4f", 9 + Double(index) * 0.01)
            lines.append(sentence("GPRMC,\(time),A,4612.0004,N,\(longitude),E,25.3,90.0,120925,,,A"))
            lines.append(sentence("GPGGA,\(time),4612.0004,N,\(longitude),E,1,09,0.8,380.0,M,47.9,M,,"))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Writes `fixes` (with a time and a position each) as an NMEA log: an RMC and a GGA a fix,
    /// with the fix's speed and course when it has them.
    public static func writeNMEA(_ fixes: [Fix], to path: String) throws {
        var lines = ["# \(fixes.count) synthetic fixes"]
        for fix in fixes {
            guard let time = fix.time, let latitude = fix.latitude, let longitude = fix.longitude else { continue }
            var seconds = time_t(time.timeIntervalSince1970.rounded(.down))
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let clock = String(format: "%02d%02d%02d.00", parts.tm_hour, parts.tm_min, parts.tm_sec)
            let date = String(format: "%02d%02d%02d", parts.tm_mday, parts.tm_mon + 1, parts.tm_year % 100)
            func minutes(_ value: Double, _ width: Int) -> String {
                let degrees = Int(abs(value))
                return String(format: "%0\(width)d%07.4f", degrees, (abs(value) - Double(degrees)) * 60)
            }
            let position = minutes(latitude, 2) + (latitude < 0 ? ",S," : ",N,") + minutes(longitude, 3) + (longitude < 0 ? ",W" : ",E")
            let speed = fix.speed.map { String(format: "%.2f", $0 / 0.514444) } ?? ""
            let course = fix.track.map { String(format: "%.1f", $0) } ?? ""
            lines.append(sentence("GPRMC,\(clock),A,\(position),\(speed),\(course),\(date),,,A"))
            lines.append(sentence("GPGGA,\(clock),\(position),1,09,0.8,10.0,M,40.0,M,,"))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `body` as a sentence: `$`, the body, `*` and its checksum.
    public static func sentence(_ body: String) -> String {
        checksummed("$" + body)
    }

    /// `sentence` (`$GPRMC,...` or `!AIVDM,...`) with `*` and the checksum of what follows its
    /// first character.
    public static func checksummed(_ sentence: String) -> String {
        let checksum = sentence.utf8.dropFirst().reduce(UInt8(0)) { $0 ^ $1 }
        return sentence + String(format: "*%02X", checksum)
    }
}

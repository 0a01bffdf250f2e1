import Foundation
import Testing
@testable import GPSReports

@Suite("UTC time text")
struct UTCTimeTests {
    /// What C's gmtime_r makes of a whole second, as text.
    static func gmtime(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    @Test("every whole second agrees with gmtime, before and after 1970, leap days and centuries included")
    func agreesWithGmtime() throws {
        var generator = SystemRandomNumberGenerator()
        var samples = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_399, -2_208_988_800, 253_402_300_799]
        for _ in 0..<2000 { samples.append(Int.random(in: -62_000_000_000...253_402_300_799, using: &generator)) }
        for seconds in samples {
            let time = try #require(UTCTime(secondsSince1970: Double(seconds)))
            #expect(time.iso8601(milliseconds: .whenNotZero) == Self.gmtime(seconds) + "Z", "\(seconds)")
            #expect(time.iso8601() == Self.gmtime(seconds) + ".000Z")
        }
    }

    @Test("milliseconds are rounded to the nearest, carrying into the next second, day and year")
    func rounding() throws {
        #expect(UTCTime(secondsSince1970: 1_700_000_000.1234)?.iso8601() == "2023-11-14T22:13:20.123Z")
        #expect(UTCTime(secondsSince1970: 946_684_799.9996)?.iso8601() == "2000-01-01T00:00:00.000Z")
        #expect(UTCTime(secondsSince1970: 946_684_799.9996)?.timeOfDay() == "00:00:00Z")
        #expect(UTCTime(secondsSince1970: -0.25)?.iso8601() == "1969-12-31T23:59:59.750Z")
    }

    @Test("no text for what is not a time: NaN, infinity, beyond year 9999")
    func impossible() {
        for value in [Double.nan, .infinity, -.infinity, 253_402_300_800, -253_402_300_800, 1e300] {
            #expect(UTCTime(secondsSince1970: value) == nil)
        }
        var writer = JSONWriter()
        writer.isoTime(secondsSince1970: 1e300)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == #""1970-01-01T00:00:00.000Z""#)
    }
}

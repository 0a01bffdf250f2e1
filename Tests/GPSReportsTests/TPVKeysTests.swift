import FoundationEssentials
import GPSReports
import Testing

/// GPSReports' list of TPV keys is the one the writer follows and the gpsd client reads by.
@Suite struct TPVKeysTests {
    /// The keys of a JSON object's top level, in order (the values here hold no quotes or colons).
    static func keys(_ line: String) throws -> [String] {
        line.matches(of: try Regex(#""([A-Za-z]+)":"#)).compactMap { $0.output[1].substring.map(String.init) }
    }

    @Test("a TPV with every value known has every key of the list, in the list's order, and no other")
    func everyKeyInOrder() throws {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_584_538_099.7), device: "stdin")
        fix.status = .dgps
        fix.ept = 0.005
        fix.latitude = 41.5
        fix.longitude = -93.75
        fix.altitudeHAE = 246.7
        fix.altitudeMSL = 278.1
        fix.epx = 1
        fix.epy = 2
        fix.epv = 3
        fix.track = 139.06
        fix.magneticTrack = 150.66
        fix.magneticVariation = 11.6
        fix.speed = 0.183
        fix.climb = 0
        fix.epd = 4
        fix.eps = 5
        fix.epc = 6
        fix.geoidSeparation = -31.442
        fix.eph = 4.275
        fix.sep = 7
        fix.depth = 12.5
        fix.dgpsAge = 6.6
        fix.dgpsStation = 133
        fix.wind = Wind(magneticAngle: 10, relativeAngle: -20, trueAngle: 30, relativeSpeed: 4, trueSpeed: 5)
        let written = try Self.keys(fix.tpvJSON())
        #expect(written == JSONWriter.tpvKeys.map { "\($0)" })
    }

    @Test("unknown values leave their keys out; the order of the rest stays the list's")
    func someKeys() throws {
        var fix = Fix(mode: .twoD, time: Date(timeIntervalSince1970: 1_584_538_099), device: nil)
        fix.latitude = 1
        fix.longitude = 2
        fix.dgpsAge = 6.6
        fix.dgpsStation = 133
        let written = try Self.keys(fix.tpvJSON())
        #expect(written == ["class", "mode", "time", "lat", "lon", "dgpsAge", "dgpsSta"])
        let order = JSONWriter.tpvKeys.map { "\($0)" }
        #expect(written.compactMap { order.firstIndex(of: $0) } == written.compactMap { order.firstIndex(of: $0) }.sorted())
    }
}

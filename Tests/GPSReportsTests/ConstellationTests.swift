import GPSReports
import Testing

@Suite("Constellations")
struct ConstellationTests {
    @Test("u-blox gnssId numbers name their systems; unknown numbers name none")
    func gnssIDs() {
        #expect((0...7).compactMap(Constellation.init(gnssID:)) == [.gps, .sbas, .galileo, .beidou, .imes, .qzss, .glonass, .navic])
        #expect(Constellation(gnssID: 8) == nil && Constellation(gnssID: -1) == nil)
    }

    @Test("without a gnssid, gpsd's PRN ranges decide", arguments: [
        (1, Constellation.gps), (32, .gps), (33, .sbas), (64, .sbas), (65, .glonass), (96, .glonass), (120, .sbas),
        (158, .sbas), (193, .qzss), (200, .qzss), (201, .beidou), (237, .beidou), (301, .galileo), (336, .galileo),
        (401, .beidou), (437, .beidou),
    ])
    func prnRanges(prn: Int, expected: Constellation) {
        #expect(Constellation(prn: prn) == expected)
        #expect(Satellite(prn: prn).constellation == expected)
    }

    @Test("PRNs in no range have no system; a gnssid wins over the PRN")
    func outOfRange() {
        for prn in [0, 97, 119, 159, 192, 238, 300, 337, 400, 438] {
            #expect(Constellation(prn: prn) == nil, "\(prn)")
        }
        #expect(Satellite(prn: 5, gnssID: 6, svID: 5).constellation == .glonass)
    }
}

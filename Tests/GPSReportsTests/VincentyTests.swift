import Testing
import GeoTrackTesting
@testable import GPSReports

@Suite struct VincentyTests {
    /// The memo, and the plain function, must give the formula's own result, bit for bit, whatever
    /// the memo holds and for equal points too (which both answer without the formula): a run of
    /// points each measured from one or two before it (as speeds are derived), with repeats,
    /// equal points, signed zeros, poles and the antimeridian among them.
    @Test func memoGivesTheFormulasResultBitForBit() {
        var generator = SeededGenerator(seed: 14)
        var memo = Vincenty.Memo()
        var points: [(Double, Double)] = [(0, 0), (-0.0, 0), (0, -0.0), (90, 10), (-90, -170), (45, 180), (45, -180)]
        for _ in 0..<4000 {
            let previous = points[points.count - 1]
            switch generator.next() % 6 {
            case 0: points.append(previous)                                     // standing still
            case 1: points.append((previous.0, previous.1 + 1e-6))              // same latitude
            case 2: points.append((previous.0 + 1e-7, previous.1 - 2e-7))       // a step
            case 3: points.append(points[points.count - 2])                      // back to the one before
            default:
                points.append((Double(generator.next() % 180_000_000) / 1e6 - 90,
                               Double(generator.next() % 360_000_000) / 1e6 - 180))
            }
        }
        var checked = 0
        for index in 2..<points.count {
            for back in [1, 2] {
                let (latitude1, longitude1) = points[index]
                let (latitude2, longitude2) = points[index - back]
                // The formula itself, without the shortcut for equal points that both take.
                let expected = Vincenty.distance(Vincenty.ReducedLatitude(latitude: latitude1), longitude1: longitude1,
                                                 Vincenty.ReducedLatitude(latitude: latitude2), longitude2: longitude2)
                let plain = Vincenty.distance(latitude1: latitude1, longitude1: longitude1,
                                              latitude2: latitude2, longitude2: longitude2)
                let got = memo.distance(latitude1: latitude1, longitude1: longitude1,
                                        latitude2: latitude2, longitude2: longitude2)
                #expect(got.bitPattern == expected.bitPattern, "\(points[index]) from \(points[index - back])")
                #expect(plain.bitPattern == expected.bitPattern, "\(points[index]) from \(points[index - back])")
                checked += 1
            }
        }
        #expect(checked == 2 * (points.count - 2))
        #expect(memo.distance(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0).isNaN)
        #expect(memo.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: .infinity).isNaN)
    }

    @Test func oneDegreeOfLatitudeAtTheEquator() {
        // 110 574.389 m on WGS 84 (geographiclib's Inverse gives 110574.3885578).
        let metres = Vincenty.distance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0)
        #expect(abs(metres - 110_574.3886) < 0.001)
    }
}

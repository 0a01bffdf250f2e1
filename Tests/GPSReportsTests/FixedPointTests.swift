import Foundation
import Testing
@testable import GPSReports

@Suite("One fixed-point rounding for every output")
struct FixedPointTests {
    @Test("text is printf's %.*f, halves included, and rounded reads that text back")
    func matchesPrintf() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = [0.125, 0.375, 2.5, -2.5, 1.0005, 46.2000155, -0.0000000005, 6.150108333333334, 179.9999999995]
        for _ in 0..<5000 { samples.append(Double.random(in: -180...180, using: &generator)) }
        for value in samples {
            for decimals in [0, 1, 2, 3, 9] {
                let printf = String(format: "%.\(decimals)f", value)
                #expect(FixedPoint.text(value, decimals: decimals) == printf, "\(value) \(decimals)")
                #expect(FixedPoint.rounded(value, decimals: decimals) == Double(printf), "\(value) \(decimals)")
            }
        }
    }

    @Test("not a number stays as it is")
    func notFinite() {
        #expect(FixedPoint.text(.nan, decimals: 2) == "nan")
        #expect(FixedPoint.rounded(.infinity, decimals: 2) == .infinity)
    }
}

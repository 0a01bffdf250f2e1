import Testing
@testable import GPSReports

@Suite("Powers of ten")
struct PowersOfTenTests {
    @Test("10^0 to 10^22 are the exact values; any other exponent gives 10^22, as both switches did")
    func exactValues() throws {
        var power = 1.0
        for n in 0...22 {
            // Products of exact powers stay exact up to 10^22 (5^22 < 2^53).
            #expect(PowersOfTen.exact(n) == power, "10^\(n)")
            #expect(PowersOfTen.exact(n) == (try #require(Double("1e\(n)"))))
            power *= 10
        }
        #expect(PowersOfTen.exact(23) == 1e22)
        #expect(PowersOfTen.exact(-1) == 1e22)
    }
}

import Testing
import GPSReports

/// gpsd 3.22's geoid and magnetic grids, against the answers gpsd's own test (tests/test_geoid.c)
/// expects of its `wgs84_separation()` and `mag_var()`, to the centimetre and hundredth of a
/// degree it checks: poles, the date line, cell edges and diagonals included.
@Suite("Geoid and magnetic models")
struct ModelTests {
    /// Latitude, longitude, gpsd's separation (m) and variation (degrees).
    static let gpsdAnswers: [(Double, Double, Double, Double)] = [
        (27.1127, -109.3497, -31.29, 8.45), // Easter Island
        (25.5920, 21.0937, 21.80, 3.35), // Kalahari Desert
        (71.7069, -42.6043, 40.11, -28.25), // Greenland
        (5.7837, 144.3317, 62.34, 2.42), // Kuk Swamp PG
        (44.094556, -121.200222, -21.95, 14.40), // Bend Airport, OR (KBDN)
        (61.171333, -149.991164, 13.54, 15.52), // Anchorage Airport, AK (PANC)
        (39.861666, -104.673166, -18.15, 7.84), // Denver Airport, CO (KDEN)
        (51.46970, -0.45943, 46.26, -0.28), // London Heathrow Airport, UK (LHR)
        (-22.92170, -68.158401, 35.46, -6.11), // San Pedro de Atacama Airport, CL (SCPE)
        (1.350190, 103.994003, 7.51, 0.17), // Singapore Changi Airport, SG (SIN)
        (55.617199, 38.06000, 13.22, 11.42), // Moscow Bykovo Airport, RU (UUBB)
        (33.946098, 151.177002, 13.59, -4.26), // Sydney Airport, AU (SYD)
        (40, -120, -23.34, 13.35), // Near Doyle, CA
        (90, 0, 14.90, 1.75), // North Poll 0
        (90, 2, 14.90, 3.75), // North Poll 2
        (90, 2.5, 14.90, 4.25), // North Poll 2.5
        (90, 3, 14.90, 4.75), // North Poll 3
        (90, 5, 14.90, 6.75), // North Poll 5
        (90, 180, 14.90, -178.25), // North Poll
        (0, 0, 17.23, -4.84), // Equator 0W
        (-90, 0, -30.15, -30.80), // South Poll
        (2, 0, 18.42, -4.23), // 2N 0W
        (2.5, 0, 18.71, -4.08), // 2.5N 0W
        (3, 0, 19.01, -3.92), // 3N 0W
        (3.5, 0, 19.31, -3.77), // 3.5N 0W
        (5, 0, 20.20, -3.31), // 5N 0W
        (2, 2, 18.39, -3.60), // 2N 2E
        (2.5, 2.5, 18.78, -3.30), // 2.5N 2.5E
        (3, 3, 19.20, -3.01), // 3N 3E
        (3.5, 3.5, 19.66, -2.73), // 3.5N 3.5E
        (5, 5, 21.26, -1.91), // 5, 5
        (-5, -5, 17.11, -9.03), // -5, -5
        (-5, 5, 9.40, -4.80), // -5, 5
        (5, -5, 25.77, -4.90), // 5, 5
        (0, -78.452222, 15.98, -3.89), // Equatorial Sign Bolivia
        (51.4778067, 0, 45.46, -0.11), // Lawn Greenwich Observatory UK
        (0, 180, 21.28, 9.75), // Far away from Google default
        (0, -180, 21.28, 9.75), // Away far from Google default
    ]

    @Test("the geoid separation is gpsd's")
    func separation() {
        for (latitude, longitude, separation, _) in Self.gpsdAnswers {
            let value = GeoidModel.separation(latitude: latitude, longitude: longitude)
            #expect(abs(value - separation) <= 0.01, "\(latitude), \(longitude): \(value)")
        }
    }

    @Test("the magnetic variation is gpsd's")
    func declination() {
        for (latitude, longitude, _, variation) in Self.gpsdAnswers {
            let value = MagneticModel.declination(latitude: latitude, longitude: longitude)
            #expect(abs(value - variation) <= 0.01, "\(latitude), \(longitude): \(value)")
        }
    }

    @Test("a position that is not finite or outside the grid gives 0, as gpsd answers")
    func outside() {
        // gpsd checks the cell, not the range: 91° N still reads the last row; 95° N is past it.
        #expect(GeoidModel.separation(latitude: 91, longitude: 0) == 14.9)
        for (latitude, longitude) in [(Double.nan, 0.0), (0, .infinity), (95, 0), (0, 185), (-90.5, 0), (0, -180.5), (1e300, -1e300)] {
            #expect(GeoidModel.separation(latitude: latitude, longitude: longitude) == 0)
            #expect(MagneticModel.declination(latitude: latitude, longitude: longitude) == 0)
        }
    }
}

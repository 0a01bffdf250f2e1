#if canImport(Glibc)
import Glibc
#endif

/// The directions of the satellites used in a fix, and the dilutions of precision gpsd 3.22
/// computes from them (its `fill_dop()`): NMEA gives HDOP, VDOP and PDOP at most, and gpsd's
/// longitude and latitude errors (epx, epy) need the X and Y DOPs that only the geometry gives;
/// its SKY reports print the time and geometric DOPs it gives too.
///
/// Each used satellite with a sane azimuth and elevation adds a line of sight (east, north, up,
/// and 1 for the clock); the DOPs are the square roots of the diagonal of the inverse of the
/// sum of their outer products. The sums and the inverse follow gpsd's order of operations so
/// that the digits printed come out the same.
struct SatelliteGeometry: Sendable, Equatable {
    /// One unit line of sight: east, north and up components.
    struct LineOfSight: Sendable, Equatable {
        @BitExact var east: Double
        @BitExact var north: Double
        @BitExact var up: Double
    }

    /// The DOPs gpsd computes; all finite.
    struct Dilutions: Sendable, Equatable {
        var x: Double
        var y: Double
        var horizontal: Double
        var vertical: Double
        var position: Double
        var time: Double
        var geometric: Double
    }

    /// The lines of sight so far, in the order of the sky view.
    private(set) var lines: [LineOfSight] = []

    init() {
        lines.reserveCapacity(NMEACycleAssembler.maximumChannels)
    }

    /// The lines of the last ``dilutions(of:)`` and what they gave: satellites move a whole
    /// degree in minutes, so a receiver's sky views are mostly the one before again. A memo,
    /// kept apart from the geometry it was asked about: what it holds changes no result.
    struct Memo {
        private var computedLines: [LineOfSight] = []
        private var computed: Dilutions?

        init() {
            computedLines.reserveCapacity(NMEACycleAssembler.maximumChannels)
        }

        /// `geometry`'s DOPs, or `nil` with fewer than four satellites or a geometry too close
        /// to singular (gpsd's determinant limit of 0.0001).
        mutating func dilutions(of geometry: SatelliteGeometry) -> Dilutions? {
            let lines = geometry.lines
            guard lines.count >= 4 else { return nil }
            // The same lines, as they print (``BitExact``), give the same DOPs.
            if lines == computedLines { return computed }
            computedLines.removeAll(keepingCapacity: true)
            computedLines.append(contentsOf: lines)
            computed = SatelliteGeometry.dilutions(of: lines)
            return computed
        }
    }

    /// Forgets the satellites (a new sky view).
    mutating func removeAll() {
        lines.removeAll(keepingCapacity: true)
    }

    /// Adds a used satellite at a whole-degree azimuth and elevation, as GSV gives them; one
    /// gpsd would skip (azimuth outside 0…359, elevation beyond ±90) is left out.
    @inline(__always)
    mutating func addUsedSatellite(azimuth: Int, elevation: Int) {
        guard (0...359).contains(azimuth), (-90...90).contains(elevation) else { return }
        let a = Self.sines[azimuth + 90], e = Self.sines[elevation + 90]
        lines.append(LineOfSight(east: a.sine * e.cosine, north: a.cosine * e.cosine, up: e.sine))
    }

    /// The sine and cosine of each whole degree from -90 to 359 (index: degrees + 90), computed
    /// as gpsd computes them from degrees: a GSV gives whole degrees only, and the libm calls
    /// were most of the time spent on sky views.
    private static let sines: [(sine: Double, cosine: Double)] = (-90...359).map { degrees in
        let radians = Double(degrees) * (Double.pi / 180)
        return (sin(radians), cos(radians))
    }

    /// The DOPs of `lines`, or `nil` when they are too close to singular.
    fileprivate static func dilutions(of lines: [LineOfSight]) -> Dilutions? {
        // m = Σ v vᵀ with v = (east, north, up, 1), each element summed in the satellites' order;
        // m is symmetric, and a product is the same either way round, so ten sums make it.
        var ee = 0.0, en = 0.0, eu = 0.0, e1 = 0.0, nn = 0.0, nu = 0.0, n1 = 0.0, uu = 0.0, u1 = 0.0, count = 0.0
        for l in lines {
            ee += l.east * l.east
            en += l.east * l.north
            eu += l.east * l.up
            e1 += l.east
            nn += l.north * l.north
            nu += l.north * l.up
            n1 += l.north
            uu += l.up * l.up
            u1 += l.up
            count += 1
        }
        let m = ((ee, en, eu, e1), (en, nn, nu, n1), (eu, nu, uu, u1), (e1, n1, u1, count))
        guard let d = invertedDiagonal(m) else { return nil }
        return Dilutions(x: d.0.squareRoot(), y: d.1.squareRoot(), horizontal: (d.0 + d.1).squareRoot(),
                         vertical: d.2.squareRoot(), position: (d.0 + d.1 + d.2).squareRoot(),
                         time: d.3.squareRoot(), geometric: (d.0 + d.1 + d.2 + d.3).squareRoot())
    }

    typealias Row = (Double, Double, Double, Double)

    /// The diagonal of the inverse of a 4×4 matrix, by cofactors in gpsd's order; `nil` when
    /// the determinant is below 0.0001 in size.
    private static func invertedDiagonal(_ m: (Row, Row, Row, Row)) -> (Double, Double, Double, Double)? {
        let (r0, r1, r2, r3) = m
        // 2×2 minors of rows 1–3, named by their rows and columns.
        let d12_01 = r1.0 * r2.1 - r1.1 * r2.0
        let d12_02 = r1.0 * r2.2 - r1.2 * r2.0
        let d12_12 = r1.1 * r2.2 - r1.2 * r2.1
        let d13_01 = r1.0 * r3.1 - r1.1 * r3.0
        let d13_03 = r1.0 * r3.3 - r1.3 * r3.0
        let d13_13 = r1.1 * r3.3 - r1.3 * r3.1
        let d23_01 = r2.0 * r3.1 - r2.1 * r3.0
        let d23_02 = r2.0 * r3.2 - r2.2 * r3.0
        let d23_03 = r2.0 * r3.3 - r2.3 * r3.0
        let d23_12 = r2.1 * r3.2 - r2.2 * r3.1
        let d23_13 = r2.1 * r3.3 - r2.3 * r3.1
        let d23_23 = r2.2 * r3.3 - r2.3 * r3.2
        // 3×3 minors.
        let d012_012 = r0.0 * d12_12 - r0.1 * d12_02 + r0.2 * d12_01
        let d013_013 = r0.0 * d13_13 - r0.1 * d13_03 + r0.3 * d13_01
        let d023_023 = r0.0 * d23_23 - r0.2 * d23_03 + r0.3 * d23_02
        let d123_012 = r1.0 * d23_12 - r1.1 * d23_02 + r1.2 * d23_01
        let d123_013 = r1.0 * d23_13 - r1.1 * d23_03 + r1.3 * d23_01
        let d123_023 = r1.0 * d23_23 - r1.2 * d23_03 + r1.3 * d23_02
        let d123_123 = r1.1 * d23_23 - r1.2 * d23_13 + r1.3 * d23_12
        let determinant = r0.0 * d123_123 - r0.1 * d123_023 + r0.2 * d123_013 - r0.3 * d123_012
        // A determinant this small is floating-point fuzz around a singular geometry.
        if abs(determinant) < 0.0001 { return nil }
        return (d123_123 / determinant, d023_023 / determinant, d013_013 / determinant, d012_012 / determinant)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A world table sampled every 5° (37 rows of latitude from 90° S, 73 columns of longitude from
/// 180° W, both edges included), read by bilinear interpolation the way gpsd 3.22's geoid.c
/// reads its geoid and magnetic tables.
///
/// The arithmetic follows gpsd's order of operations, so that the values, and the digits gpsd
/// prints from them, come out the same.
struct FiveDegreeGrid: Sendable {
    static let rows = 37
    static let columns = 73
    static let span = 5

    /// Row-major samples, first row at 90° S, first column at 180° W.
    private let values: [Int16]

    /// A grid of `rows × columns` samples; any other count gives a grid that answers 0 everywhere.
    init(values: [Int16]) {
        self.values = values.count == Self.rows * Self.columns ? values : []
    }

    /// The interpolated sample at a position in degrees; 0 when the position is not finite,
    /// falls outside the grid, or the grid is empty (gpsd answers 0 too).
    func value(latitude: Double, longitude: Double) -> Double {
        guard !values.isEmpty, latitude.isFinite, longitude.isFinite else { return 0 }
        let rowPosition = ((90 + latitude) / Double(Self.span)).rounded(.down)
        let columnPosition = ((180 + longitude) / Double(Self.span)).rounded(.down)
        // Checked as doubles first, so that converting to Int cannot trap.
        guard rowPosition >= 0, rowPosition < Double(Self.rows),
              columnPosition >= 0, columnPosition < Double(Self.columns) else { return 0 }
        let row1 = Int(rowPosition), column1 = Int(columnPosition)
        let row2 = row1 < Self.rows - 1 ? row1 + 1 : row1
        let column2 = column1 < Self.columns - 1 ? column1 + 1 : column1
        return Self.bilinear(x1: column1 * Self.span - 180, y1: row1 * Self.span - 90,
                             x2: column2 * Self.span - 180, y2: row2 * Self.span - 90,
                             x: longitude, y: latitude,
                             z11: sample(row1, column1), z12: sample(row1, column2),
                             z21: sample(row2, column1), z22: sample(row2, column2))
    }

    private func sample(_ row: Int, _ column: Int) -> Double {
        Double(values[row * Self.columns + column])
    }

    /// Bilinear interpolation between the corners (x1, y1) and (x2, y2), with gpsd's handling of
    /// a degenerate cell (on the last row or column) and its order of operations.
    private static func bilinear(x1: Int, y1: Int, x2: Int, y2: Int, x: Double, y: Double,
                                 z11: Double, z12: Double, z21: Double, z22: Double) -> Double {
        let xx1 = x - Double(x1)
        let x2x = Double(x2) - x
        let yy1 = y - Double(y1)
        let y2y = Double(y2) - y
        if y1 == y2 {
            if x1 == x2 { return z11 }
            return (z22 * xx1 + z11 * x2x) / Double(x2 - x1)
        }
        if x1 == x2 {
            return (z22 * yy1 + z11 * y2y) / Double(y2 - y1)
        }
        let delta = Double((y2 - y1) * (x2 - x1))
        return (z22 * yy1 * xx1 + z12 * y2y * xx1 + z21 * yy1 * x2x + z11 * y2y * x2x) / delta
    }
}

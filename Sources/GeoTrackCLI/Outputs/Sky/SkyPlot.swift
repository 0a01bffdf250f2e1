import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// The polar sky plot: the horizon and the 30° and 60° elevation rings in braille dots, north
/// up and east to the right as seen from below, and each satellite where it stands: `●` when
/// used in the fix, `○` when not.
///
/// A terminal cell is about twice as tall as it is wide and holds 2×4 braille dots, so dots are
/// square and the plot is drawn twice as many columns wide as it is rows tall.
enum SkyPlot {
    /// The mark of a satellite used in the fix.
    static let usedMark = "●"
    /// The mark of a satellite seen but not used.
    static let unusedMark = "○"

    /// The columns a plot of `rows` rows takes.
    static func columns(rows: Int) -> Int { rows * 2 }

    /// Draws the plot in the `rows`×`columns(rows:)` box whose top left cell is (`top`, `left`).
    static func draw(_ satellites: [Satellite], on canvas: inout TextCanvas, top: Int, left: Int, rows: Int) {
        let columns = columns(rows: rows)
        guard rows >= 3 else { return }
        // The centre and radius in dots; one cell of margin all round holds the compass letters.
        let centreX = Double(columns), centreY = Double(rows * 2)
        let radius = Double(rows * 2 - 4)
        let origin = (x: left * 2, y: top * 4)
        for (elevation, spacing) in [(0.0, 1), (30.0, 3), (60.0, 3)] {
            let ring = radius * (90 - elevation) / 90
            let steps = max(16, Int(ring * 8))
            for step in stride(from: 0, to: steps, by: spacing) {
                let angle = Double(step) / Double(steps) * 2 * Double.pi
                canvas.dot(x: origin.x + Int((centreX + ring * sin(angle)).rounded(.down)),
                           y: origin.y + Int((centreY - ring * cos(angle)).rounded(.down)))
            }
        }
        // The north–south and east–west lines, dotted.
        for offset in stride(from: -Int(radius), through: Int(radius), by: 3) {
            canvas.dot(x: origin.x + Int(centreX) + offset, y: origin.y + Int(centreY))
            canvas.dot(x: origin.x + Int(centreX), y: origin.y + Int(centreY) + offset)
        }
        let middleRow = top + rows / 2
        canvas.put("N", row: top, column: left + columns / 2, style: .bold)
        canvas.put("S", row: top + rows - 1, column: left + columns / 2, style: .bold)
        canvas.put("W", row: middleRow, column: left, style: .bold)
        canvas.put("E", row: middleRow, column: left + columns - 1, style: .bold)

        // Unused first, so that a used satellite sharing a cell shows.
        for satellite in satellites.sorted(by: { !$0.used && $1.used }) {
            guard let (row, column) = cell(of: satellite, top: top, left: left, rows: rows) else { continue }
            canvas.put(satellite.used ? usedMark : unusedMark, row: row, column: column,
                       style: satellite.used ? .green : .plain)
        }
    }

    /// The cell a satellite is drawn in, or nil when it has no position to draw
    /// (``Satellite/skyPosition``, which the page's plot follows too).
    static func cell(of satellite: Satellite, top: Int, left: Int, rows: Int) -> (row: Int, column: Int)? {
        guard let (elevation, azimuth) = satellite.skyPosition else { return nil }
        let radius = Double(rows * 2 - 4) * (90 - elevation) / 90
        let angle = azimuth * Double.pi / 180
        let x = Double(columns(rows: rows)) + radius * sin(angle)
        let y = Double(rows * 2) - radius * cos(angle)
        return (top + Int((y / 4).rounded(.down)), left + Int((x / 2).rounded(.down)))
    }
}

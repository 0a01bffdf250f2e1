import GPSReports

/// The sky view's satellite table: system, PRN, number within the system, elevation, azimuth,
/// signal strength, whether the fix uses it, and its health.
enum SatelliteTable {
    /// The header; the rows line up under it.
    static let header = "System   PRN  SV  El  Az SNR Use Health"
    /// The columns a row takes.
    static var width: Int { header.unicodeScalars.count }
    /// Where a row's use mark and health start, for colouring them.
    private static let useColumn = 30, healthColumn = 33

    /// The order rows are listed in: used first, then by system, then by PRN.
    static func sorted(_ satellites: [Satellite]) -> [Satellite] {
        let systems = Constellation.allCases
        return satellites.sorted { a, b in
            if a.used != b.used { return a.used }
            let systemA = a.constellation.flatMap(systems.firstIndex(of:)) ?? systems.count
            let systemB = b.constellation.flatMap(systems.firstIndex(of:)) ?? systems.count
            if systemA != systemB { return systemA < systemB }
            return a.prn < b.prn
        }
    }

    /// Draws the header and up to `rows - 1` satellites from (`top`, `left`); when they do not
    /// all fit, the last row says how many are left out.
    static func draw(_ satellites: [Satellite], on canvas: inout TextCanvas, top: Int, left: Int, rows: Int, limit: Int) {
        guard rows >= 1 else { return }
        let listed = sorted(satellites)
        if rows == 1, !listed.isEmpty {
            // Room for a header and no row under it: say what is not shown instead.
            canvas.put("\(listed.count) satellite\(listed.count == 1 ? "" : "s") (a taller window lists them)", row: top,
                       column: left, style: .dim, limit: limit)
            return
        }
        canvas.put(header, row: top, column: left, style: .bold, limit: limit)
        let room = rows - 1
        let shown = listed.count <= room ? listed.count : max(0, room - 1)
        for (index, satellite) in listed.prefix(shown).enumerated() {
            let row = top + 1 + index
            canvas.put(text(satellite), row: row, column: left, limit: limit)
            // The use mark in the plot's colour, the health in red when the receiver flags it bad.
            canvas.put(satellite.used ? SkyPlot.usedMark : SkyPlot.unusedMark, row: row, column: left + useColumn,
                       style: satellite.used ? .green : .plain, limit: max(0, limit - useColumn))
            if satellite.health == .unhealthy {
                canvas.put("BAD", row: row, column: left + healthColumn, style: .red, limit: max(0, limit - healthColumn))
            }
        }
        if shown < listed.count, room > 0 {
            canvas.put("… \(listed.count - shown) more (a taller window shows them)", row: top + room, column: left,
                       style: .dim, limit: limit)
        }
    }

    /// One row: `GLONASS   71   7  45 123  42  ●  ok`, with `-` for what is unknown.
    static func text(_ satellite: Satellite) -> String {
        func number(_ value: Double?, width: Int) -> String {
            pad(value.map { String(Int($0.rounded())) } ?? "-", width)
        }
        let system = satellite.constellation?.description ?? "?"
        let health = switch satellite.health {
        case .healthy?: "ok"
        case .unhealthy?: "BAD"
        case nil: "-"
        }
        return system + String(repeating: " ", count: max(0, 7 - system.count))
            + pad(String(satellite.prn), 5)
            + pad(satellite.svID.map(String.init) ?? "-", 4)
            + number(satellite.elevation, width: 4)
            + number(satellite.azimuth, width: 4)
            + number(satellite.signalStrength, width: 4)
            + "  " + (satellite.used ? SkyPlot.usedMark : SkyPlot.unusedMark)
            + "  " + health
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

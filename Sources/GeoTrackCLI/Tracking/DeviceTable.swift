import GPSReports

/// The table `geotrack devices` prints.
package enum DeviceTable {
    /// A header and one line per device, columns aligned. What gpsd said is made safe for the
    /// terminal first: a hostile gpsd cannot send it escape sequences.
    package static func lines(_ devices: [Device]) -> [String] {
        let rows = [["DEVICE", "DRIVER", "SPEED", "CYCLE", "MODEL"]] + devices.map { device in
            [Terminal.safe(device.path),
             device.driver.map(Terminal.safe) ?? "-",
             device.bitsPerSecond.map { "\($0) bps" } ?? "-",
             // An implausible cycle reads as unknown (the shim already undoes libgps 3.22's misparse of it).
             device.cycle.flatMap { $0 > 0 && $0 < 3600 ? NumberText.printf("%.2g s", $0) : nil } ?? "-",
             device.subtype.map(Terminal.safe) ?? "-"]
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padded(to: widths[index])
            }.joined(separator: "  ")
        }
    }
}

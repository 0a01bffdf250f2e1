import GPSReports

/// The table `geotrack devices` prints.
package enum DeviceTable {
    /// A header and one line per device, columns aligned.
    package static func lines(_ devices: [Device]) -> [String] {
        let rows = [["DEVICE", "DRIVER", "SPEED", "CYCLE", "MODEL"]] + devices.map { device in
            [device.path,
             device.driver ?? "-",
             device.bitsPerSecond.map { "\($0) bps" } ?? "-",
             device.cycle.map { String(format: "%.2g s", $0) } ?? "-",
             device.subtype ?? "-"]
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}

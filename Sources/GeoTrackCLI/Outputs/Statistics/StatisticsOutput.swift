import FoundationEssentials
import GeoTrackService
import LocationKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `--stats` output and `geotrack stats`: the run's locations summed up into
/// ``TrackStatistics``, written once at the end.
package final class StatisticsOutput: Sendable {
    private let descriptor: Int32
    private let json: Bool
    private let units: Units
    private let format: CoordinateFormat
    private let file: String?
    /// Whether the run's end writes the summary (`--stats`, whatever ended the run), or the
    /// caller does once the run succeeded (`geotrack stats`, which prints nothing for a file
    /// that is no log).
    let writesWhenFinished: Bool
    private let state = Mutex(TrackStatistics())

    /// Statistics written to `descriptor` at the end: one JSON object with `json`, else lines
    /// (headed by `file` when given); by ``write()`` only, unless `writesWhenFinished`.
    package init(descriptor: Int32, json: Bool, units: Units, format: CoordinateFormat, file: String? = nil,
                 writesWhenFinished: Bool = true) {
        self.descriptor = descriptor
        self.json = json
        self.units = units
        self.format = format
        self.file = file
        self.writesWhenFinished = writesWhenFinished
    }

    /// Adds a location the run delivered.
    package func add(_ location: Location) {
        state.withLock { $0.add(location) }
    }

    /// The statistics so far.
    package var statistics: TrackStatistics { state.withLock { $0 } }

    /// Writes the summary.
    package func write() {
        let statistics = statistics
        if json {
            // The name as it is: JSON's own escapes (\n, \u001b) keep a terminal safe, and a
            // script gets back the very name it gave, as replay's "device" has it.
            _ = Terminal.write(StatisticsReport.json(statistics, file: file) + "\n", to: descriptor)
            return
        }
        var lines = StatisticsReport.lines(statistics, units: units, format: format)
        if let file { lines.insert("== " + Terminal.safe(file), at: 0) }
        _ = Terminal.write(lines.joined(separator: "\n") + "\n", to: descriptor)
    }
}

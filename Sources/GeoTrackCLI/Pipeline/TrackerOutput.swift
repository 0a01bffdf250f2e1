import GPSReports
import Synchronization

/// Sends tracker updates to their outputs: the status line, JSON lines, a GPX file;
/// and counts positions for `--count`/`--once`.
package final class TrackerOutput: Sendable {
    /// The status line (or plain lines, or nothing).
    package let display: StatusDisplay
    private let json: LineWriter?
    private let encode: @Sendable (Fix) -> String
    private let gpx: GPXWriter?
    private let stopAfter: Int?
    private let delivered = Mutex(0)

    /// Creates the outputs; `encode` turns a fix into its TPV JSON line.
    package init(display: StatusDisplay, json: LineWriter?, encode: @escaping @Sendable (Fix) -> String,
                 gpx: GPXWriter?, stopAfter: Int?) {
        self.display = display
        self.json = json
        self.encode = encode
        self.gpx = gpx
        self.stopAfter = stopAfter
    }

    /// How many positions went out so far.
    package var positions: Int { delivered.withLock { $0 } }

    /// Handles one update; returns true when `--count` is reached.
    package func handle(_ update: TrackerUpdate) throws(CLIError) -> Bool {
        switch update {
        case .status(let status):
            display.show(status)
        case .event(let event):
            display.event(event)
        case .failed(let error):
            throw error
        case .location(let summary):
            // The file first: whatever a reader of the JSON has seen is already in the track.
            try gpx?.append(summary.fix, satellitesUsed: summary.satellitesUsed)
            json?.write(encode(summary.fix))
            let count = delivered.withLock { count in
                count += 1
                return count
            }
            if let stopAfter, count >= stopAfter {
                // The status stream may not have caught up with this fix yet: show it as the last word.
                display.show(.fix(summary))
                return true
            }
        }
        return false
    }

    /// Once a second: redraws a countdown and lets the GPX file reach the disk.
    package func tick() {
        display.tick()
        gpx?.syncIfDue()
    }

    /// Flushes JSON, closes the GPX file (writing its closing tags) and restores the terminal.
    package func finish() throws(CLIError) {
        json?.flush()
        defer { display.finish() }
        try gpx?.close()
    }
}

/// What goes into a GPX track, like gpxlogger's `-m` and `-i`.
package struct GPXOptions: Sendable, Equatable {
    /// Skip a point closer than this many metres to the last one written (gpxlogger `-m`); 0 keeps every point.
    package var minimumMove: Double
    /// Skip a point less than this many seconds after the last one written; 0 keeps every point.
    package var minimumInterval: Double
    /// Start a new `trkseg` when no position arrived for this many seconds (gpxlogger `-i`).
    package var segmentAfter: Double
    /// Force the file to disk at most this often, in seconds; what a crash can lose at worst.
    package var syncInterval: Double

    /// Creates options with gpxlogger's defaults (every point, new segment after 5 s, sync every second).
    package init(minimumMove: Double = 0, minimumInterval: Double = 0, segmentAfter: Double = 5, syncInterval: Double = 1) {
        self.minimumMove = minimumMove
        self.minimumInterval = minimumInterval
        self.segmentAfter = segmentAfter
        self.syncInterval = syncInterval
    }
}

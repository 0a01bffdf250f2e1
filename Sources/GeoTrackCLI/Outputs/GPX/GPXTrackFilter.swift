import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Decides, fix by fix, what a GPX track records: the pure part of ``GPXWriter``.
///
/// Times are the receiver's, so a replay and a live run of the same data make the same track.
/// A fix at the last point's time (a later report of the same cycle: gpsd reports a cycle again
/// as more of its sentences arrive) replaces that point, so the point holds what gpsd finally
/// said of that time (a course that came after the first report, say). A fix earlier than the last point (a receiver's clock stepping back, logs joined out
/// of order) is kept: it starts a new segment, so every time the receiver gave is in the file,
/// in the order received, and within a segment time only moves forward.
package struct GPXTrackFilter: Sendable {
    /// What to do with one fix.
    package enum Action: Sendable, Equatable {
        /// Not a position, or filtered out.
        case skip
        /// Write the point in the current segment.
        case point
        /// Close the current segment (if any), open a new one, then write the point.
        case newSegment
        /// Write the point in place of the last one written: the same time, reported again.
        case replaceLast
    }

    package let options: GPXOptions
    private var lastWritten: (coordinate: Coordinate, time: Date)?
    private var lastSeen: Date?
    /// The shortest time between two positions so far: the receiver's own interval.
    private var shortestInterval: Double?

    /// How long without a position starts a new segment: `segmentAfter`, or twice the
    /// receiver's own interval when that is longer, so that a receiver that logs every 10 s (a
    /// boat's, a phone app's) records one segment, not one per point.
    package var segmentThreshold: Double {
        max(options.segmentAfter, 2 * (shortestInterval ?? 0))
    }

    /// Creates a filter with no points seen yet.
    package init(options: GPXOptions) {
        self.options = options
    }

    /// The action for the next fix.
    package mutating func action(for fix: Fix) -> Action {
        guard let coordinate = fix.coordinate, let time = fix.time else { return .skip }
        let previousSeen = lastSeen
        lastSeen = time
        if let previousSeen {
            let interval = time.timeIntervalSince(previousSeen)
            if interval > 0 { shortestInterval = min(shortestInterval ?? interval, interval) }
        }
        guard let last = lastWritten else {
            lastWritten = (coordinate, time)
            return .newSegment
        }
        // A GPX track's own segments stay segments: its recorder stopped between them.
        if fix.beginsTrackSegment {
            lastWritten = (coordinate, time)
            return .newSegment
        }
        if time == last.time {
            lastWritten = (coordinate, time)
            return .replaceLast
        }
        if time < last.time {
            lastWritten = (coordinate, time)
            return .newSegment
        }
        if let previousSeen, time.timeIntervalSince(previousSeen) > segmentThreshold {
            lastWritten = (coordinate, time)
            return .newSegment
        }
        if options.minimumInterval > 0, time.timeIntervalSince(last.time) < options.minimumInterval {
            return .skip
        }
        if options.minimumMove > 0, coordinate.distance(to: last.coordinate) < options.minimumMove {
            return .skip
        }
        lastWritten = (coordinate, time)
        return .point
    }
}

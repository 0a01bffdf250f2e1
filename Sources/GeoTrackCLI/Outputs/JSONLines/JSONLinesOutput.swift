import GPSReports
import GeoTrackService
import Synchronization

/// `--json`: gpsd's TPV for every fix (and its SKY and GST with `--sky`), and events as `EVENT`
/// objects, one per line.
///
/// With a GPX track recorded too, whatever a reader of the JSON has seen is already in the
/// track: a position's TPV (and the events it caused) waits for its location's GPX point, or
/// for the next report when the manager's filters hold the location back. The GPX output comes
/// before this one, so it has written the point when the location reaches here.
package final class JSONLinesOutput: BuiltInOutput {
    private let writer: LineWriter
    private let includesSky: Bool
    private let holdsForTrack: Bool
    /// Lines held back until the location of the fix they start with has been recorded.
    private let held = Mutex<[String]>([])

    /// Lines to `writer`; SKY objects too with `includesSky`; fixes held for a track with `holdsForTrack`.
    package init(writer: LineWriter, includesSky: Bool, holdsForTrack: Bool) {
        self.writer = writer
        self.includesSky = includesSky
        self.holdsForTrack = holdsForTrack
    }

    /// Whether `--json` is given.
    package static func isRequested(_ context: OutputContext) -> Bool { context.options.json }

    /// The output for `--json`, when given.
    package static func make(_ context: OutputContext) -> (any RunOutput)? {
        guard isRequested(context) else { return nil }
        return JSONLinesOutput(writer: LineWriter(descriptor: context.descriptor, flushEachLine: context.live || context.inputIsStream),
                               includesSky: context.options.sky, holdsForTrack: context.options.gpxPath != nil)
    }

    package func handle(_ update: TrackingUpdate) {
        switch update {
        case .report(let report):
            releaseHeldLines()
            switch report {
            case .fix(let fix):
                let line = fix.tpvJSON()
                if holdsForTrack, fix.hasPosition {
                    held.withLock { $0 = [line] }
                } else {
                    writer.write(line)
                }
            case .sky(let sky):
                if includesSky { writer.write(sky.skyJSON()) }
            case .noise(let noise):
                // The receiver's own error statistics go with its satellites: what a precision
                // user reads beside the TPV's DOP-based estimates.
                if includesSky { writer.write(noise.gstJSON()) }
            default:
                break
            }
        case .event(let event):
            let line = EventJSON.line(event)
            let wasHeld = held.withLock { held in
                if held.isEmpty { return false }
                held.append(line)
                return true
            }
            if !wasHeld { writer.write(line) }
        case .location:
            releaseHeldLines()
        case .status:
            break
        }
    }

    package var isClosed: Bool { writer.isClosed }

    /// The GPX point of the held fix could not be written: its lines never come out, since a
    /// reader of the JSON must not have seen a position the track lacks.
    package func abandon() {
        held.withLock { $0 = [] }
    }

    package func finish() {
        releaseHeldLines()
        writer.flush()
    }

    private func releaseHeldLines() {
        let lines = held.withLock { held -> [String] in
            defer { held = [] }
            return held
        }
        for line in lines { writer.write(line) }
    }
}

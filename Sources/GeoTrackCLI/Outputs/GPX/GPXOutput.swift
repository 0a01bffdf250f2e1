import GeoTrackService

/// `--gpx FILE`: every location the run delivers, recorded as it comes (``GPXWriter``), synced
/// to disk on a timer, and valid GPX at every point (its closing tags come with each one).
package final class GPXOutput: BuiltInOutput {
    /// The file being written.
    package let writer: GPXWriter

    /// Records into `writer`.
    package init(writer: GPXWriter) {
        self.writer = writer
    }

    /// Whether `--gpx` is given.
    package static func isRequested(_ context: OutputContext) -> Bool { context.options.gpxPath != nil }

    /// The output for `--gpx`, when given.
    package static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)? {
        guard let path = context.options.gpxPath else { return nil }
        return GPXOutput(writer: try GPXWriter(path: path, options: context.settings.gpx,
                                               replacing: context.options.overwrite, appending: context.options.append,
                                               input: context.input))
    }

    package func handle(_ update: TrackingUpdate) throws(CLIError) {
        if case .location(let location) = update {
            try writer.append(location.fix, gnss: location.gnss)
        }
    }

    package var nextTick: Double? { writer.nextSync }

    package func tick() { writer.syncIfDue() }

    package func finish() throws(CLIError) { try writer.close() }

    /// Only ever abandoned before it saw a fix (it is the first output, and a later one could
    /// not be made): closing then removes the temporary file that was to become the track, and
    /// writes nothing that could fail.
    package func abandon() { try? writer.close() }
}

import GeoTrackService
#if canImport(Glibc)
import Glibc
#endif

/// `--stats`: every location summed up, written on stderr once the display is done.
extension StatisticsOutput: BuiltInOutput {
    /// Whether `--stats` is given.
    package static func isRequested(_ context: OutputContext) -> Bool { context.options.stats }

    /// The output for `--stats`, when given.
    package static func make(_ context: OutputContext) -> (any RunOutput)? {
        guard isRequested(context) else { return nil }
        return StatisticsOutput(descriptor: STDERR_FILENO, json: context.options.json,
                                units: context.settings.units, format: context.settings.format)
    }

    package func handle(_ update: TrackingUpdate) {
        if case .location(let location) = update { add(location) }
    }

    package func finishAfterDisplay() {
        if writesWhenFinished { write() }
    }
}

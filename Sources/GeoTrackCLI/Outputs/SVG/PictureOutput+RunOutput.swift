import GeoTrackService
import SystemPackage

/// `--svg FILE`: the track drawn at the end.
extension PictureOutput: BuiltInOutput {
    /// Whether `--svg` is given.
    package static func isRequested(_ context: OutputContext) -> Bool { context.options.svgPath != nil }

    /// The output for `--svg`, when given.
    package static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)? {
        guard let path = context.options.svgPath else { return nil }
        return try PictureOutput(path: path, replacing: context.options.overwrite, input: context.input,
                                 units: context.settings.units,
                                 title: FilePath(context.sourceName).lastComponent?.string ?? context.sourceName,
                                 regions: context.settings.regions)
    }

    package func handle(_ update: TrackingUpdate) {
        if case .location(let location) = update { add(location) }
    }

    package func finish() throws(CLIError) { try write() }
}

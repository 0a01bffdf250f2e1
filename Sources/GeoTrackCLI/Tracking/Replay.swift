import ArgumentParser
import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack replay FILE`: an NMEA log or GPX track, decoded as gpsd would.
    package struct Replay: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Replay an NMEA log or a GPX track (no authorization needed).",
            discussion: """
            As fast as possible by default; --realtime keeps the recorded pace, --speed N runs it N times faster. \
            A jump in the log's clock (a gap of more than 10 minutes, or a step back) plays as one second. \
            'geotrack replay FILE --json' prints one gpsd TPV line per fix.
            """
        )

        @Argument(help: ArgumentHelp("The NMEA log or GPX track; - reads standard input.", valueName: "file"),
                  completion: .file())
        package var file: String

        // Titled, so that --help shows it first: ArgumentParser puts titled groups before the
        // untitled options, and OutputOptions's "Output" and "Publishing" follow it.
        @OptionGroup(title: "Pace") package var pace: PaceOptions

        @OptionGroup package var output: OutputOptions

        package init() {}

        /// Whether the recorded pace is kept.
        package var paced: Bool { pace.isPaced }

        package func run() async throws {
            let settings = try await Settings.load(overrides: output.settingsOverrides, explicitFile: output.configFile.config)
            try output.publish.checkHasDestination(configured: settings.publish.destinations)
            try LocationSources.checkReplayable(file)
            if FastReplay.applies(options: output, settings: settings, paced: paced) {
                try await FastReplay.run(path: file)
                return
            }
            let logger = Logger.geotrack()
            let sourceName = LocationSources.sourceName(replay: file, settings: settings)
            let outputs = try TrackerOutputs.make(options: output, settings: settings, live: paced, sourceName: sourceName,
                                                  startingMessage: "replaying " + sourceName,
                                                  input: file, progress: !paced)
            let replay = LocationSources.replay(path: file, speed: pace.factor)
            let run = await MainActor.run {
                TrackingRun(manager: LocationSources.replayManager(replay, settings: settings, logger: logger), output: outputs)
            }
            let ending = try await TrackerSession.run(run, output: outputs, timeout: output.timeout.map { .seconds($0) },
                                                      logger: logger)
            LocationSources.sayWhatWasSkipped(replay)
            // A track or picture asked for and none made: said, not left to be found missing. Only
            // at the input's end: a run stopped before its first fix (Ctrl-C, --timeout) says so itself.
            if ending == .sourceFinished, outputs.positions == 0, output.gpxPath != nil || output.svgPath != nil {
                throw CLIError.noTimedFix(file, track: output.gpxPath, picture: output.svgPath)
            }
        }
    }
}

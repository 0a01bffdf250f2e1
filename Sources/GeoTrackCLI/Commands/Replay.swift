import ArgumentParser
import Foundation
import Logging

extension GeoTrack {
    /// `geotrack replay FILE`: an NMEA log or GPX track, decoded as gpsd would.
    package struct Replay: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            abstract: "Replay an NMEA log or a GPX track (no authorization needed).",
            discussion: """
            As fast as possible by default; --realtime keeps the recorded pace, --speed N runs it N times faster. \
            'geotrack replay FILE --json' prints one gpsd TPV line per fix.
            """
        )

        @Argument(help: ArgumentHelp("The NMEA log or GPX track; - reads standard input.", valueName: "file"),
                  completion: .file())
        package var file: String

        @Flag(help: "Keep the pace of the recording.")
        package var realtime = false

        @Option(help: ArgumentHelp("Play this many times faster than recorded (implies --realtime).", valueName: "n"))
        package var speed: Double?

        @OptionGroup package var output: OutputOptions

        package init() {}

        package func validate() throws {
            if let speed, !(speed > 0 && speed.isFinite) {
                throw ValidationError("--speed must be more than 0 (got \(speed)).")
            }
        }

        /// Whether the recorded pace is kept.
        package var paced: Bool { realtime || speed != nil }

        package func run() async throws {
            let settings = try await Settings.load(flags: output.configurationFlags, explicitFile: output.config)
            let logger = Logger.geotrack()
            if !paced {
                try await FastReplay.run(path: file, options: output, settings: settings)
                return
            }
            let outputs = try TrackerOutputs.make(options: output, settings: settings, live: true)
            let events = LocationSources.replay(path: file, speed: speed ?? 1)
            let updates = SourceUpdates(events, sourceName: file == "-" ? "standard input" : file, failOnDisconnect: true)
            outputs.display.show(.starting("replaying \(file)"))
            try await TrackerSession.run(updates, output: outputs, timeout: output.timeout.map { .seconds($0) },
                                         logger: logger)
        }
    }
}

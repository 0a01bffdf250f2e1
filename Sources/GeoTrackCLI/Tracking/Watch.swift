import ArgumentParser
import FoundationEssentials
import GPSD
import LocationKit
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack watch`: follow gpsd live.
    package struct Watch: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Show your position from gpsd on a status line (the default command).",
            discussion: """
            On its first run at a terminal, watch asks whether geotrack may use your location \
            (once, always, approximately, or deny). Without a terminal it never asks: run \
            'geotrack auth grant' first. With approximate access, every output shows positions \
            snapped to a 0.025-degree grid, without altitude, speed or course.
            """
        )

        // Titled, so that --help shows it first: ArgumentParser puts titled groups before the
        // untitled options, and OutputOptions's "Output" and "Publishing" follow it.
        @OptionGroup(title: "Source") package var source: SourceOptions

        @OptionGroup package var output: OutputOptions

        package init() {}

        /// `--gpsd`.
        package var gpsd: GPSDOptions { source.gpsd }
        /// `--device PATH`.
        package var device: String? { source.device }
        /// `--no-retry`.
        package var noRetry: Bool { source.noRetry }
        /// `--precise`.
        package var precise: Bool { source.precise }

        /// Where `watch` reads from, and how it asks for access: its "Source" group.
        package struct SourceOptions: ParsableArguments {
            @OptionGroup package var gpsd: GPSDOptions

            @Option(help: ArgumentHelp("Watch only this receiver (default: all).", valueName: "path"))
            package var device: String?

            @Flag(name: .customLong("no-retry"), help: "Exit (69) when gpsd cannot be reached instead of retrying.")
            package var noRetry = false

            @Flag(help: "With approximate access only, ask at the terminal for precise locations in this run (never stored).")
            package var precise = false

            package init() {}

            package func validate() throws {
                if let device, !GPSDConfiguration.isValidDevice(device) {
                    throw ValidationError(Terminal.safe(GPSDConfiguration.invalidDeviceMessage(device)))
                }
            }
        }

        /// What the command line sets of the configuration: its top layer.
        package var settingsOverrides: SettingsOverrides {
            output.settingsOverrides.merging(gpsd.settingsOverrides(device: device))
        }

        package func run() async throws {
            let settings = try await Settings.load(overrides: settingsOverrides, explicitFile: output.configFile.config)
            try output.publish.checkHasDestination(configured: settings.publish.destinations)

            let access = try RunAccess(precise: precise ? "geotrack watch --precise" : nil)
            defer { access.end() }

            let logger = Logger.geotrack()
            let outputs = try TrackerOutputs.make(options: output, settings: settings, live: true,
                                                  sourceName: LocationSources.sourceName(replay: nil, settings: settings))
            let run = await MainActor.run {
                TrackingRun(manager: LocationSources.gpsdManager(settings: settings, store: access.store,
                                                                 retries: !noRetry, allSkyViews: output.sky, logger: logger),
                            output: outputs)
            }
            try await TrackerSession.run(run, output: outputs, timeout: output.timeout.map { .seconds($0) }, logger: logger)
        }
    }
}

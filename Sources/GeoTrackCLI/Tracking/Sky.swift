import ArgumentParser
import FoundationEssentials
import GPSD
import LocationKit
import Logging
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack sky`: the satellites, the fix and the receiver, full screen, as cgps shows them.
    package struct Sky: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "sky",
            abstract: "Show satellites, the fix, its errors and the receiver full screen, like cgps.",
            discussion: """
            The left column shows the fix (time, position, altitude above sea level and the \
            ellipsoid, speed, climb, course, heading and where it comes from, mode and status), \
            the dilutions of precision, gpsd's error estimates (95%) and the receiver. The right \
            column shows a sky plot (north up; a satellite used in the fix is a filled dot, \
            one not used a hollow dot) and a satellite table. \
            The view fits the window and redraws when it is resized; Ctrl-C gives the terminal back. \
            With --replay it shows a log instead of gpsd, and its last screen stays when the log \
            ends. Not on a terminal, it prints the last screen once, at the end.
            """
        )

        @OptionGroup package var gpsd: GPSDOptions

        @Option(help: ArgumentHelp("Show only this receiver (default: all).", valueName: "path"))
        package var device: String?

        @Option(help: ArgumentHelp("Show an NMEA log or GPX track instead of gpsd (no authorization needed).",
                                   valueName: "file"), completion: .file())
        package var replay: String?

        @OptionGroup(title: "With --replay") package var pace: PaceOptions

        @OptionGroup package var display: DisplayOptions

        @OptionGroup package var configFile: ConfigFileOptions

        package init() {}

        package func validate() throws {
            if replay == nil, pace.isPaced {
                throw ValidationError("--realtime and --speed pace a replay; give --replay FILE too.")
            }
            if replay != nil, gpsd.address != nil || device != nil {
                throw ValidationError("--replay shows a log, not gpsd: leave out --gpsd and --device.")
            }
            if let device, !GPSDConfiguration.isValidDevice(device) {
                throw ValidationError(Terminal.safe(GPSDConfiguration.invalidDeviceMessage(device)))
            }
        }

        /// What the command line sets of the configuration: its top layer.
        package var settingsOverrides: SettingsOverrides {
            display.settingsOverrides.merging(gpsd.settingsOverrides(device: device))
        }

        package func run() async throws {
            let settings = try await Settings.load(overrides: settingsOverrides, explicitFile: configFile.config)
            let logger = Logger.geotrack()

            // Access is settled first: the question, if any, is asked on the normal screen.
            let access = try RunAccess.unlessReplaying(replay)
            defer { access?.end() }

            if let replay { try LocationSources.checkReplayable(replay) }
            let environment = ProcessInfo.processInfo.environment
            let isTerminal = Terminal.canRedraw(isTerminal: Terminal.isTerminal(STDOUT_FILENO), environment: environment)
            let sourceName = LocationSources.sourceName(replay: replay, settings: settings)
            let render = RenderOptions(format: settings.format, units: settings.units,
                                       color: Terminal.colorAllowed(isTerminal: isTerminal, environment: environment),
                                       sourceName: sourceName, startingMessage: replay == nil ? nil : "replaying " + sourceName,
                                       device: replay == nil ? settings.device : nil)
            let screen = SkyDisplay(mode: isTerminal ? .terminal : .snapshot(width: Terminal.columns(STDOUT_FILENO) ?? 80),
                                    screen: SkyScreen(options: render, replayedFile: replay.map { _ in FilePath(sourceName).lastComponent?.string ?? sourceName }),
                                    color: render.color, terminalMode: isTerminal ? TerminalMode() : nil)
            // A terminal that cannot redraw (TERM=dumb: an editor's shell, a screen reader) gets
            // the screen once, at the end; until then a line on stderr for each change of state
            // says that something is happening, as watch --quiet does.
            let changes: [any RunOutput] = Terminal.isTerminal(STDOUT_FILENO) && !isTerminal
                ? [StatusDisplay(mode: .changes, options: render, descriptor: STDERR_FILENO)] : []
            let output = TrackerOutput(display: screen, outputs: changes, stopAfter: nil)
            let replaying = replay.map { LocationSources.replay(path: $0, speed: pace.factor) }
            let run = await MainActor.run {
                let manager = if let replaying {
                    LocationSources.replayManager(replaying, settings: settings, logger: logger)
                } else {
                    // Every SKY report: the plot moves with each one, even when the counts repeat.
                    LocationSources.gpsdManager(settings: settings, store: access?.store ?? AuthorizationStore(),
                                                retries: true, allSkyViews: true, logger: logger)
                }
                return TrackingRun(manager: manager, output: output)
            }
            try await TrackerSession.run(run, output: output, timeout: nil, logger: logger)
            if let replaying { LocationSources.sayWhatWasSkipped(replaying) }
        }
    }
}

import ArgumentParser
import Foundation
import LocationKit
import Logging

extension GeoTrack {
    /// `geotrack watch`: follow gpsd live.
    package struct Watch: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            abstract: "Show your position from gpsd on a status line (the default command).",
            discussion: """
            On its first run at a terminal, watch asks whether geotrack may use your location \
            (once, always, or deny). Without a terminal it never asks: run 'geotrack auth grant' first.
            """
        )

        @Option(name: .customLong("gpsd"), help: ArgumentHelp("gpsd's address (default localhost:2947).", valueName: "host:port"))
        package var gpsd: GPSDAddress?

        @Option(help: ArgumentHelp("Watch only this receiver (default: all).", valueName: "path"))
        package var device: String?

        @Flag(name: .customLong("no-retry"), help: "Exit (69) when gpsd cannot be reached instead of retrying.")
        package var noRetry = false

        @OptionGroup package var output: OutputOptions

        package init() {}

        package func run() async throws {
            var flags = output.configurationFlags
            if let host = gpsd?.host { flags[ConfigKeys.gpsdHost] = host }
            if let port = gpsd?.port { flags[ConfigKeys.gpsdPort] = String(port) }
            if let device { flags[ConfigKeys.gpsdDevice] = device }
            let settings = try await Settings.load(flags: flags, explicitFile: output.config)

            let store = AuthorizationStore()
            let access = try AuthorizationGate(store: store).requireAccess()
            defer { access.cleanUp() }

            let logger = Logger.geotrack()
            let outputs = try TrackerOutputs.make(options: output, settings: settings, live: true)
            outputs.display.show(.starting("connecting to gpsd at \(settings.gpsdHost):\(settings.gpsdPort)"))
            let session = await WatchSession(settings: settings, store: access.store(default: store),
                                             failOnDisconnect: noRetry,
                                             deliversLocations: output.json || output.gpxPath != nil || output.stopAfter != nil,
                                             display: outputs.display, logger: logger)
            do {
                try await TrackerSession.run(session.updates, output: outputs,
                                             timeout: output.timeout.map { .seconds($0) }, logger: logger)
            } catch {
                await session.stop()
                throw error
            }
            await session.stop()
        }
    }
}

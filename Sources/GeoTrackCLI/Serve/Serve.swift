import ArgumentParser
import Executors
import FoundationEssentials
import LocationKit
import Logging
import MQTT
import OwnTracks
import WebServe
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack serve`: a live map in the browser, fed by the same run as the status line.
    package struct Serve: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve a live map of your position (from gpsd or a replay), and optionally a fleet, to a browser.",
            discussion: """
            Serves one page at the --listen address: the fix with its accuracy, speed, heading and mode, \
            the track so far (thinned as --svg thins it), regions and events, the sky plot and satellites, \
            and with --fleet every device on the broker. The page and Leaflet (from Debian's libjs-leaflet) \
            come from geotrack itself; only the map tiles come from outside (--tiles none for none). \
            It listens on loopback unless told otherwise. Ends on SIGINT or SIGTERM; a replay's end leaves \
            the page up until then.
            """
        )

        @Option(help: ArgumentHelp("Listen on this address (default 127.0.0.1:8080; port 0 picks a free one).",
                                   valueName: "host:port"))
        package var listen: String?

        @Option(name: .customLong("allow-host"),
                help: ArgumentHelp("Also answer requests for this name (a reverse proxy's); repeatable. "
                                   + "Addresses, localhost and this machine's name are always answered.", valueName: "name"))
        package var allowHost: [String] = []

        @OptionGroup package var gpsd: GPSDOptions

        @Option(help: ArgumentHelp("Serve a replay of this NMEA log or GPX track instead of gpsd.", valueName: "file"),
                completion: .file())
        package var replay: String?

        @OptionGroup(title: "Pace") package var pace: PaceOptions

        @Option(help: ArgumentHelp("Also show every device on this MQTT broker (as 'geotrack fleet' does).", valueName: "url"))
        package var fleet: String?

        @OptionGroup(title: "Fleet broker") package var broker: BrokerOptions

        @Option(help: ArgumentHelp("Map tiles: a URL template with {z}, {x} and {y}, or none (default: OpenStreetMap's standard tiles).",
                                   valueName: "url|none"))
        package var tiles: String?

        @OptionGroup package var display: DisplayOptions

        @OptionGroup package var configFile: ConfigFileOptions

        package init() {}

        package func validate() throws {
            for name in allowHost where !ServeHosts.isName(name) {
                throw ValidationError("--allow-host takes a host name, such as gps.example.org (got '\(Terminal.safe(name))')")
            }
            if let listen {
                do { _ = try ListenAddress.parse(listen) } catch { throw ValidationError(Terminal.safe(error.message)) }
            }
            if let tiles {
                do { _ = try TileSource.parse(tiles) } catch { throw ValidationError(Terminal.safe(error.message)) }
            }
            if replay != nil, gpsd.address != nil {
                throw ValidationError("--gpsd and --replay cannot be used together; serve reads one source.")
            }
            if replay == nil, pace.isPaced {
                throw ValidationError("--realtime and --speed pace a replay; give --replay FILE too.")
            }
            if fleet == nil, broker.isSet {
                throw ValidationError("--publish-password-file, --publish-ca, --publish-cert and --publish-key are for --fleet's broker; give --fleet URL too.")
            }
            if let fleet {
                let destination: PublishDestination
                do {
                    destination = try PublishDestination(url: fleet, option: "--fleet")
                } catch {
                    throw ValidationError(Terminal.safe(error.message))
                }
                guard !destination.isHTTP else {
                    throw ValidationError("--fleet \(Terminal.safe(fleet)): the fleet is read from an MQTT broker; write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
                }
                try broker.checkPasswordHasUser([destination], option: "--fleet")
                do {
                    try broker.checkTLSHasSecureDestination([destination], option: "--fleet")
                } catch {
                    throw ValidationError(error.message)
                }
            }
        }

        /// What the command line sets of the configuration: its top layer.
        package var settingsOverrides: SettingsOverrides {
            display.settingsOverrides.merging(gpsd.settingsOverrides(device: nil))
        }

        package func run() async throws {
            var address = ListenAddress.standard
            var tileSource: TileSource? = .openStreetMap
            do throws(ListenAddressError) {
                if let listen { address = try ListenAddress.parse(listen) }
            } catch {
                throw CLIError(.usage, error.message)
            }
            do throws(TileSourceError) {
                if let tiles { tileSource = try TileSource.parse(tiles) }
            } catch {
                throw CLIError(.usage, error.message)
            }

            let settings = try await Settings.load(overrides: settingsOverrides, explicitFile: configFile.config)
            let logger = Logger.geotrack()
            // A missing log, or a file that is not one, is found before the address is announced:
            // the error is then the only output, never a "serving" line followed by it.
            if let replay {
                try LocationSources.checkReplayable(replay)
                // Reading blocks: on a thread of its own, not on the cooperative pool.
                try await DetachedThread.value(name: "geotrack check") {
                    Result { () throws(CLIError) in try LocationSources.checkHoldsLog(replay) }
                }.get()
            }

            // Access is decided before anything is served, as for watch; a replay needs none.
            let access = try RunAccess.unlessReplaying(replay)
            defer { access?.end() }

            let sourceName = LocationSources.sourceName(replay: replay, settings: settings)
            let render = RenderOptions(format: settings.format, units: settings.units, color: false, sourceName: sourceName,
                                       startingMessage: replay == nil ? nil : "replaying " + sourceName,
                                       device: replay == nil ? settings.device : nil)
            let page = ServePage(options: render, regions: settings.regions)

            // Reading files blocks: on a thread of its own, not on the cooperative pool.
            let leaflet = await DetachedThread.value(name: "geotrack assets") { ServeAssets.leaflet() }
            if leaflet.isEmpty {
                Terminal.standardError("geotrack: Leaflet is not in \(ServeAssets.leafletDirectory): the page shows no map; install libjs-leaflet (make deps)")
            }
            let server = EventStreamServer(assets: ServeAssets.all(tiles: tileSource, leaflet: leaflet),
                                           headers: ServeAssets.headers(tiles: tileSource),
                                           hosts: HostCheck(allowing: ServeHosts.machineNames() + allowHost),
                                           snapshot: { page.snapshot() })
            page.connect { server.broadcast($0) }

            var fleetService: ServeFleet?
            if let fleet { fleetService = try ServeFleet.make(url: fleet, options: broker, page: page) }

            // SIGINT and SIGTERM are caught before the address is announced: whoever reads it and
            // stops serve at once gets the clean end, not the signal's default one.
            let lifecycle = await RunLifecycle(suspends: false, resizes: false)
            let port: Int
            do throws(WebServeError) {
                port = try await server.start(host: address.host, port: address.port)
            } catch {
                await server.stop()
                await lifecycle.end()
                throw CLIError(.unavailable, "\(error.message); choose another --listen address")
            }
            if address.isWildcard {
                // 0.0.0.0 or :: is no address a browser can open: the URL printed is loopback's,
                // and the line says where else the page can be reached.
                Terminal.standardError("geotrack: warning: listening on all interfaces (\(address.host)), not loopback: anyone who can reach this machine can see your position")
                Terminal.standardError("geotrack: serving \(address.url(port: port)) (and port \(port) on every interface; Ctrl-C to stop)")
            } else {
                if !address.isLoopback {
                    Terminal.standardError("geotrack: warning: listening on \(address.host), not loopback: anyone who can reach this machine can see your position")
                }
                Terminal.standardError("geotrack: serving \(address.url(port: port)) (Ctrl-C to stop)")
            }

            let output = TrackerOutput(display: StatusDisplay(mode: .changes, options: render, descriptor: STDERR_FILENO),
                                       outputs: [ServeOutput(page: page)], stopAfter: nil)
            let replaying = replay.map { LocationSources.replay(path: $0, speed: pace.factor) }
            let run = await MainActor.run {
                let manager = replaying.map { LocationSources.replayManager($0, settings: settings, logger: logger) }
                    ?? LocationSources.gpsdManager(settings: settings, store: access?.store ?? AuthorizationStore(),
                                                   retries: true, allSkyViews: true, logger: logger)
                return TrackingRun(manager: manager, output: output)
            }
            try await ServeSession.run(run, output: output, server: server, fleet: fleetService, lifecycle: lifecycle, logger: logger)
            if let replaying { LocationSources.sayWhatWasSkipped(replaying) }
        }
    }
}

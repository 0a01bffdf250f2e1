import ArgumentParser
import FoundationEssentials
import MQTT
import OwnTracks
#if canImport(Glibc)
import Glibc
#endif

extension GeoTrack {
    /// `geotrack fleet URL`: every device publishing to an MQTT broker in OwnTracks' format, live.
    package struct Fleet: AsyncParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "fleet",
            abstract: "Watch every device that publishes to an MQTT broker (OwnTracks' format: geotrack --publish, OwnTracks phones).",
            discussion: """
            Subscribes to owntracks/+/+ and owntracks/+/+/event and shows one line per device, redrawn in place: \
            position, accuracy, speed, course, the regions it is in, and the age of its last fix. \
            With --json, prints each location received as one JSON object instead.
            """
        )

        @Argument(help: ArgumentHelp("The broker: mqtt://[user@]host[:port], or mqtts:// for TLS.", valueName: "url"))
        package var url: String

        @Flag(help: "Print each location received as one JSON object per line (OwnTracks' fields, plus topic and received_at).")
        package var json = false

        @Option(parsing: .unconditional, help: ArgumentHelp("Mark a device stale when its last fix is older than this.", valueName: "seconds"))
        package var stale: Double = 120

        @Option(name: .customLong("client-id"), help: ArgumentHelp(
            "Connect with this client id and a lasting session: the broker queues what arrives while the view is away (QoS 1). Use one id per viewer.",
            valueName: "id"))
        package var clientID: String?

        @OptionGroup package var display: DisplayOptions

        @OptionGroup package var broker: BrokerOptions

        package init() {}

        package func validate() throws {
            let destination: PublishDestination
            do {
                destination = try PublishDestination(url: url, option: "fleet")
            } catch {
                throw ValidationError(error.message)
            }
            guard !destination.isHTTP else {
                throw ValidationError("fleet \(Terminal.safe(url)): the fleet view subscribes to an MQTT broker; write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
            }
            try broker.checkPasswordHasUser([destination], option: "fleet")
            do {
                try broker.checkTLSHasSecureDestination([destination], option: "fleet")
            } catch {
                throw ValidationError(error.message)
            }
            if let clientID, clientID.isEmpty || clientID.utf8.count > 65_535
                || !OwnTracksTopic.isMQTTText(clientID) {
                throw ValidationError("--client-id must be a name of 1 to 65535 bytes without control characters.")
            }
            // Past a year a device is stale for any purpose, and the redraw timer's duration
            // would overflow (1e30 trapped in a multiplication).
            guard stale > 0, stale <= OutputOptions.maximumTimeout else {
                throw ValidationError("--stale must be more than 0 and at most \(Int(OutputOptions.maximumTimeout)) seconds (got \(stale)).")
            }
        }

        package func run() async throws {
            let settings = try await Settings.load(overrides: display.settingsOverrides, explicitFile: nil)
            let destination = try PublishDestination(url: url, option: "fleet")
            guard let endpoint = destination.endpoint(credentials: try broker.credentials()) else {
                throw CLIError(.usage, "fleet \(Terminal.safe(url)): the fleet view subscribes to an MQTT broker; write mqtt://HOST[:PORT]")
            }
            let client: MQTTClient
            do {
                client = try MQTTClient(clientID: clientID ?? "geotrack-fleet-\(getpid())", endpoint: endpoint,
                                        keepsSession: clientID != nil)
            } catch {
                throw CLIError(error.code == .libraryMissing ? .libraryMissing : .noInput, error.message)
            }
            // A terminal that cannot redraw (TERM=dumb) gets what a pipe gets: a line per change.
            let isTerminal = Terminal.canRedraw(isTerminal: Terminal.isTerminal(STDOUT_FILENO),
                                                environment: ProcessInfo.processInfo.environment)
            let mode: FleetView.Mode = json ? .json : (isTerminal ? .terminal : .lines)
            let options = RenderOptions(format: settings.format, units: settings.units,
                                        color: mode == .terminal && Terminal.colorAllowed(
                                            isTerminal: true, environment: ProcessInfo.processInfo.environment))
            let view = FleetView(mode: mode, broker: endpoint.description, staleAfter: stale, options: options)
            try await view.run(client: client)
        }
    }
}

import FoundationEssentials
import MQTT
import OwnTracks
import Publishing
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// `serve --fleet URL`: the broker's devices into the fleet command's ``FleetRoster``, and the
/// roster onto the page after each change.
struct ServeFleet: Service {
    let client: MQTTClient
    let broker: String
    let page: ServePage
    let result: ResultBox

    /// Connects to `url` as the fleet command does: the user in the URL, the password and the
    /// TLS files from `options`.
    static func make(url: String, options: BrokerOptions, page: ServePage) throws(CLIError) -> ServeFleet {
        let destination = try PublishDestination(url: url, option: "--fleet")
        guard let endpoint = destination.endpoint(credentials: try options.credentials()) else {
            throw CLIError(.usage, "--fleet \(Terminal.safe(url)): the fleet is read from an MQTT broker; write mqtt://HOST[:PORT]")
        }
        let client: MQTTClient
        do throws(MQTTError) {
            client = try MQTTClient(clientID: "geotrack-serve-\(getpid())", endpoint: endpoint, keepsSession: false)
        } catch {
            throw CLIError(.noInput, error.message)
        }
        return ServeFleet(client: client, broker: endpoint.description, page: page, result: ResultBox())
    }

    func run() async throws {
        var feed = FleetFeed()
        page.fleet(feed.roster, broker: broker, connected: false, problem: nil)
        client.start()
        for await event in client.events.cancelOnGracefulShutdown() {
            switch feed.receive(event, broker: broker) {
            case .none:
                continue
            case .subscribe:
                for filter in OwnTracksTopic.everyDevice { _ = try? client.subscribe(filter) }
            case .refused(let error):
                result.value = error
                await client.close()
                throw CancellationError()
            case .changed, .failed:
                break
            case .location(_, _, _, let changed):
                guard changed else { continue }
            }
            page.fleet(feed.roster, broker: broker, connected: feed.connected, problem: feed.problem)
        }
        await client.close()
    }
}

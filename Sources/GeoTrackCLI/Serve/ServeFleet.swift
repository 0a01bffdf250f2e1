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

    /// Connects to `url` as the fleet command does (user in the URL, GEOTRACK_PUBLISH_PASSWORD).
    static func make(url: String, page: ServePage) throws(CLIError) -> ServeFleet {
        let destination = try PublishDestination(url: url, option: "--fleet")
        let options: BrokerOptions
        do { options = try BrokerOptions.parse([]) } catch { throw CLIError(.failure, "cannot read the broker options") }
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
        var roster = FleetRoster()
        var connected = false
        var problem: String?
        page.fleet(roster, broker: broker, connected: false, problem: nil)
        client.start()
        for await event in client.events.cancelOnGracefulShutdown() {
            switch event {
            case .connected:
                connected = true
                problem = nil
                for filter in OwnTracksTopic.everyDevice { _ = try? client.subscribe(filter) }
            case .refused(let code):
                result.value = CLIError(.noPermission, "\(broker) refused the login (\(OutboxSender.refusalReason(code))); check the user in the --fleet URL and GEOTRACK_PUBLISH_PASSWORD")
                await client.close()
                throw CancellationError()
            case .disconnected:
                connected = false
            case .failed(let code):
                problem = MQTTClient.failureReason(code)
            case .message(let topic, let payload, _):
                let received = Date()
                guard let message = OwnTracksMessage(payload: payload, receivedAt: OwnTracksLocation.seconds(received)),
                      roster.receive(topic: topic, message: message, receivedAt: received) else { continue }
            case .acknowledged, .subscribed:
                continue
            }
            page.fleet(roster, broker: broker, connected: connected, problem: problem)
        }
        await client.close()
    }
}

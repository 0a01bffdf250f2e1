import FoundationEssentials
import MQTT
import OwnTracks
import Publishing
import ServiceLifecycle
import Synchronization
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
            throw CLIError(error.code == .libraryMissing ? .libraryMissing : .noInput, error.message)
        }
        return ServeFleet(client: client, broker: endpoint.description, page: page, result: ResultBox())
    }

    /// The most often the page is sent the fleet. Each `fleet` event carries the whole roster,
    /// so one per message made a burst (every retained location at a subscription, a client
    /// publishing many devices) cost its square: 3000 devices at once took minutes of a core
    /// and sent every browser 3000 rosters. A change is shown at once, and the changes within
    /// the interval after it as one, with the latest state.
    static let interval = Duration.milliseconds(250)

    func run() async throws {
        // The feed is written by the events below and read by the pacer. The pacer waits for a
        // change (nothing wakes it while the fleet is quiet); changes made while it rests after
        // showing one collapse into the one buffered signal.
        let state = PacedFeed()
        let (changes, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        defer { signal.finish() }
        page.fleet(FleetRoster(), broker: broker, connected: false, problem: nil)
        client.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [page, broker] in
                for await _ in changes {
                    let shown = state.feed.withLock { $0 }
                    page.fleet(shown.roster, broker: broker, connected: shown.connected, problem: shown.problem)
                    try? await Task.sleep(for: Self.interval)
                }
            }
            defer { group.cancelAll() }
            for await event in client.events.cancelOnGracefulShutdown() {
                let action = state.feed.withLock { $0.receive(event, broker: broker) }
                switch action {
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
                case .location(_, _, _, let changed), .lastWill(_, _, let changed):
                    guard changed else { continue }
                }
                signal.yield()
            }
        }
        await client.close()
    }
}

/// The fleet feed, shared by ``ServeFleet``'s reading of the broker and its pacer.
private final class PacedFeed: Sendable {
    let feed = Mutex(FleetFeed())
}

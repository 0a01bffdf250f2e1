import Executors
import Logging
import ServiceLifecycle
import WebServe
#if canImport(Glibc)
import Glibc
#endif

/// Runs `geotrack serve` under a ServiceGroup: the tracker (whose end, a replay's, leaves the
/// page up), the fleet feed, the server, and the process lifecycle whose SIGINT or SIGTERM
/// shuts them all down within a second. The caller made `lifecycle` before it announced the
/// address; this ends it.
enum ServeSession {
    static func run(_ run: TrackingRun, output: TrackerOutput, server: EventStreamServer, fleet: ServeFleet?,
                    lifecycle: RunLifecycle, logger: Logger) async throws(CLIError) {
        let result = ResultBox()
        let tracker = TrackerService(verdicts: run.verdicts, output: output, timeout: nil, result: result)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            // A tracker that ends by itself (the replay's end) leaves the rest running; one that
            // failed ends the group, with its error.
            .init(service: FailingTracker(tracker: tracker, result: result), successTerminationBehavior: .ignore,
                  failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "tracker"),
            .init(service: LifecycleService(events: lifecycle.events, output: output), successTerminationBehavior: .gracefullyShutdownGroup,
                  failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "lifecycle"),
            .init(service: ServerService(server: server), successTerminationBehavior: .gracefullyShutdownGroup,
                  failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "server"),
        ]
        if let fleet {
            services.append(.init(service: fleet, successTerminationBehavior: .ignore,
                                  failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "fleet"))
        }
        var configuration = ServiceGroupConfiguration(services: services, logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(700)
        configuration.maximumCancellationDuration = .milliseconds(200)
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            // The services report through their result boxes.
        }
        await run.stop()
        await server.stop()
        await lifecycle.end()
        let statistics = server.statistics
        Terminal.standardError("geotrack: served \(statistics.connections) event stream\(statistics.connections == 1 ? "" : "s"); "
            + "\(statistics.droppedEvents) event\(statistics.droppedEvents == 1 ? "" : "s") skipped and "
            + "\(statistics.droppedClients) client\(statistics.droppedClients == 1 ? "" : "s") dropped for not reading")
        if let error = result.value ?? fleet?.result.value { throw error }
    }
}

/// The tracker service, failing when the run failed so that the group ends.
struct FailingTracker: Service {
    let tracker: TrackerService
    let result: ResultBox

    func run() async throws {
        try await tracker.run()
        if result.value != nil { throw CancellationError() }
    }
}

/// The server as a service: it serves until the group shuts down.
struct ServerService: Service {
    let server: EventStreamServer

    func run() async throws {
        try? await gracefulShutdown()
        await server.stop()
    }
}

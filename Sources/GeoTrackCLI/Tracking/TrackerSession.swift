import Executors
import FoundationEssentials
import Logging
import GeoTrackReactive
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a tracker under a ServiceGroup: the tracker loop, and the run's lifecycle (``RunLifecycle``),
/// which turns SIGINT/SIGTERM/SIGHUP into a graceful shutdown and SIGTSTP/SIGCONT into a suspended
/// terminal.
///
/// Whatever ends the run (the source, `--count`, a signal, an error), the outputs are finished:
/// the GPX file gets its closing tags and the terminal its cursor back.
package enum TrackerSession {
    /// Runs until done; returns normally for a success (including a signal), throws for a failure.
    package static func run(_ run: TrackingRun, output: TrackerOutput, timeout: Duration?, logger: Logger) async throws(CLIError) {
        // Ctrl-C, Ctrl-Z, SIGCONT and the window's resizes, answered by the lifecycle service.
        let lifecycle = await RunLifecycle(suspends: true, resizes: true)

        if let publisher = output.publisher {
            // The status line says when messages wait for a broker it cannot reach. The sender
            // tells from its own executor: the display is drawn on the main actor, as for fixes,
            // with the monitor's latest word (tasks need not run in the order they were made).
            let monitor = publisher.monitor
            monitor.observe { _ in
                Task { @MainActor in output.display.showPublishing(monitor.status) }
            }
            publisher.start()
        }
        let result = ResultBox()
        let tracker = TrackerService(verdicts: run.verdicts, output: output, timeout: timeout, result: result)
        let watcher = LifecycleService(events: lifecycle.events, output: output)
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: tracker, successTerminationBehavior: .gracefullyShutdownGroup,
                      failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "tracker"),
                .init(service: watcher, successTerminationBehavior: .gracefullyShutdownGroup,
                      failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "lifecycle"),
            ],
            logger: logger
        )
        // A signal must end the process within a second, even if something hangs.
        configuration.maximumGracefulShutdownDuration = .milliseconds(700)
        configuration.maximumCancellationDuration = .milliseconds(200)
        let group = ServiceGroup(configuration: configuration)
        do {
            try await group.run()
        } catch {
            // The services report through `result`; a group error only says one of them failed.
        }
        await run.stop()
        await lifecycle.end()
        if let error = result.value {
            throw error
        }
    }
}

/// The wait for the run's end as a service; finishes the outputs however it ends.
struct TrackerService: Service {
    let verdicts: AsyncStream<Result<TrackerOutput.Verdict, CLIError>>
    let output: TrackerOutput
    let timeout: Duration?
    let result: ResultBox

    func run() async throws {
        // Wakes only when an output has something due: nothing at all while gpsd is silent.
        let ticker = Task { await output.runTimer(clock: ContinuousClock()) }
        var failure: CLIError?
        var endedByItself = false
        do {
            let verdict = try await cancelWhenGracefulShutdown { [verdicts, output, timeout] in
                try await TrackerLoop.run(verdicts, output: output, timeout: timeout, clock: ContinuousClock())
            }
            endedByItself = verdict != nil
        } catch let error as CLIError {
            failure = error
        } catch {
            // Cancelled by the graceful shutdown: a normal end.
        }
        // However the run ended, what still waits in the outbox is said, with how to send it.
        // Only a run that ended by itself gives the brokers `--publish-wait` to take it first:
        // a signal must end the process within a second.
        var notes: [String] = []
        if let publisher = output.publisher {
            notes = endedByItself ? await publisher.drain() : await publisher.notes()
        }
        ticker.cancel()
        do {
            try output.finish()
        } catch {
            failure = failure ?? error
        }
        // After the display's end, so that a note does not land on the status line.
        for note in notes {
            Terminal.standardError("geotrack: \(Terminal.safe(note))")
        }
        await output.publisher?.close()
        result.value = failure
    }
}

/// Follows the run's lifecycle: stops the process on SIGTSTP with the terminal restored, redraws
/// on SIGCONT and at a new window size, and returns on a terminating signal, which shuts the group
/// down gracefully.
struct LifecycleService: Service {
    let events: AsyncStream<RunLifecycle.Event>
    let output: TrackerOutput

    func run() async throws {
        for await event in events.cancelOnGracefulShutdown() {
            switch event {
            case .suspend:
                output.display.suspend()
                ProcessLifecycle.stopProcess()
            case .resume:
                output.resume()
            case .resize:
                output.display.resize()
            case .terminate:
                return
            }
        }
    }
}

/// The tracker's failure, handed from the service to the session.
final class ResultBox: Sendable {
    private let storage = Mutex<CLIError?>(nil)
    var value: CLIError? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

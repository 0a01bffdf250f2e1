import Logging
import ServiceLifecycle

/// Runs a tracker under a ServiceGroup: the tracker loop, and the run's lifecycle (``RunLifecycle``),
/// which turns SIGINT/SIGTERM/SIGHUP into a graceful shutdown and SIGTSTP/SIGCONT into a suspended
/// terminal.
///
/// Whatever ends the run (the source, `--count`, a signal, an error), the outputs are finished:
/// the GPX file is synced and the terminal gets its cursor back.
package enum TrackerSession {
    /// Runs until done; returns normally for a success (including a signal), throws for a failure.
    /// Returns what ended the run by itself (the source's end, `--count`), nil for a signal.
    @discardableResult
    package static func run(_ run: TrackingRun, output: TrackerOutput, timeout: Duration?,
                            logger: Logger) async throws(CLIError) -> TrackerOutput.Verdict? {
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
        return result.verdict
    }
}

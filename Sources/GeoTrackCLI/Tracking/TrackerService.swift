import ServiceLifecycle

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
            result.verdict = verdict
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
            // Ended by a signal, the run has no time to wait for an acknowledgement: the senders
            // stop before the location still waiting is queued, so that it waits in the outbox
            // for the next run instead of going out now unacknowledged, to be sent again then.
            if !endedByItself { await publisher.stopSending() }
            // The location still waiting for a later report of its fix time goes first.
            do {
                try publisher.flush()
            } catch {
                failure = failure ?? error
            }
            notes = endedByItself ? await publisher.drain() : await publisher.notes()
            // The status line's last word on publishing is the one the notes give: the counts
            // the senders reached while the outbox drained, not the last one drawn before.
            output.display.showPublishing(publisher.monitor.status)
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

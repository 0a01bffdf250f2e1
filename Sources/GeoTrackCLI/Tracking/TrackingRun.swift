import GPSReports
import GeoTrackService
import LocationKit
import GeoTrackReactive

/// One run of `watch` or `replay`: a location manager on its source, the service over it, and
/// the run's outputs as the service's one consumer.
///
/// The outputs are driven synchronously by the service's updates on the main actor, as the
/// manager handles each report: a fix costs no task and no thread wake-up between the manager
/// and the terminal. Only the verdicts that end the run (`--count`, the source's end, a failure)
/// cross to the waiting task.
@MainActor
package final class TrackingRun {
    /// The service the outputs draw.
    package let service: GeolocationService
    /// What ends the run; the first element decides.
    package let verdicts: AsyncStream<Result<TrackerOutput.Verdict, CLIError>>
    private let continuation: AsyncStream<Result<TrackerOutput.Verdict, CLIError>>.Continuation
    private var observation: ObservationToken?
    private var ended = false

    /// Starts `manager` under a service whose updates go to `output`.
    package init(manager: LocationManager, output: TrackerOutput) {
        let (verdicts, continuation) = AsyncStream.makeStream(of: Result<TrackerOutput.Verdict, CLIError>.self)
        self.verdicts = verdicts
        self.continuation = continuation
        // Observed before the service starts the manager, so nothing is missed.
        service = GeolocationService(manager: manager, startsUpdates: false)
        observation = service.observe { [weak self] update in self?.handle(update, output: output) }
        service.start()
    }

    private func handle(_ update: TrackingUpdate, output: TrackerOutput) {
        guard !ended else { return }
        do throws(CLIError) {
            guard let verdict = try output.handle(update) else { return }
            end(.success(verdict))
        } catch {
            end(.failure(error))
        }
    }

    private func end(_ result: Result<TrackerOutput.Verdict, CLIError>) {
        // What arrives after the run has what it needs is not drawn: `--count 3` prints three.
        ended = true
        continuation.yield(result)
        continuation.finish()
    }

    /// Stops the manager and the outputs' observation.
    package func stop() {
        ended = true
        observation?.cancel()
        observation = nil
        service.stop()
        continuation.finish()
    }
}

import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

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

import GPSD
import Logging

extension LocationManager {
    /// Creates a manager reading gpsd, the usual source on a machine with a receiver.
    ///
    /// - Parameters:
    ///   - configuration: where gpsd listens, which device, staleness and reconnection timing.
    ///   - clock: the clock for timeouts, reconnection backoff and staleness.
    ///   - authorizationStore: where the user's decision lives.
    ///   - prompter: asks the user when authorization is requested while undecided.
    ///   - logger: where the manager and the gpsd client log.
    public convenience init(gpsd configuration: GPSDConfiguration = GPSDConfiguration(),
                            clock: any Clock<Duration> = ContinuousClock(),
                            authorizationStore: AuthorizationStore = AuthorizationStore(),
                            prompter: (any AuthorizationPrompter)? = nil, logger: Logger) {
        self.init(source: GPSDClient(configuration: configuration, clock: clock, logger: logger), clock: clock,
                  authorizationStore: authorizationStore, prompter: prompter, logger: logger)
    }
}

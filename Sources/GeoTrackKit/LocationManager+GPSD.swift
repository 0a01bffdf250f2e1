import GPSD
import LocationKit
import Logging

extension LocationManager {
    /// Creates a manager reading gpsd, the usual source on a machine with a receiver.
    ///
    /// - Parameters:
    ///   - configuration: where gpsd listens, which device, staleness and reconnection timing.
    ///     Its `GPSDConfiguration.skyViews` is set to `SkyViewDelivery.whenSummaryChanges`:
    ///     a manager uses only the satellite counts and dilutions of a sky view.
    ///   - clock: the clock for timeouts, reconnection backoff and staleness.
    ///   - authorizationStore: where the user's decision lives.
    ///   - prompter: asks the user when authorization is requested while undecided.
    ///   - logger: where the manager and the gpsd client log; `nil` (the default) logs nothing.
    public convenience init(gpsd configuration: GPSDConfiguration = GPSDConfiguration(),
                            clock: any Clock<Duration> = ContinuousClock(),
                            authorizationStore: AuthorizationStore = AuthorizationStore(),
                            prompter: (any AuthorizationPrompter)? = nil, logger: Logger? = nil) {
        var configuration = configuration
        configuration.skyViews = .whenSummaryChanges
        self.init(source: GPSDClient(configuration: configuration, clock: clock, logger: logger), clock: clock,
                  authorizationStore: authorizationStore, prompter: prompter, logger: logger)
    }
}

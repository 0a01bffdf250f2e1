/// A region that could not be monitored, and why.
public struct MonitoringFailure: Sendable, Hashable {
    /// The region, when the failure concerns one.
    public var region: CircularRegion?
    /// Why.
    public var error: LocationError

    /// Creates a failure.
    public init(region: CircularRegion?, error: LocationError) {
        self.region = region
        self.error = error
    }
}

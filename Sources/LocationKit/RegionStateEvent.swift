/// A region's state, as ``LocationManagerDelegate/locationManager(_:didDetermineState:for:)`` reports it.
public struct RegionStateEvent: Sendable, Hashable {
    /// Inside, outside or unknown.
    public var state: RegionState
    /// The region.
    public var region: CircularRegion

    /// Creates an event.
    public init(state: RegionState, region: CircularRegion) {
        self.state = state
        self.region = region
    }
}

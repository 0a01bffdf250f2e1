/// What the device is used for, like CoreLocation's `CLActivityType`: it decides when
/// ``LocationManager/pausesLocationUpdatesAutomatically`` counts the device as standing still.
public enum ActivityType: Sendable, Hashable, CaseIterable {
    /// Anything else (the default).
    case other
    /// Driving.
    case automotiveNavigation
    /// Running, cycling, hiking.
    case fitness
    /// Navigation on foot, by bicycle or on water.
    case otherNavigation
    /// Flight: never paused.
    case airborne

    /// The live-update configuration for the same activity, whose stationary radius and
    /// interval the manager pauses by: one rule for both APIs.
    public var liveConfiguration: LocationUpdate.LiveConfiguration {
        switch self {
        case .other: .default
        case .automotiveNavigation: .automotiveNavigation
        case .fitness: .fitness
        case .otherNavigation: .otherNavigation
        case .airborne: .airborne
        }
    }
}

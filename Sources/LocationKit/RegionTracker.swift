/// Decides, fix by fix, whether the device is inside one circular region.
///
/// Hysteresis keeps boundary noise from flapping: once inside, the device must be
/// farther than `radius + band` from the centre to be outside, and once outside it must
/// be nearer than `radius - band` to be inside. The band is the larger of the fix's
/// horizontal accuracy and ``minimumBand(for:)`` (10% of the radius, at least 5 m), so a
/// poor fix must be deeper inside or outside to count. A fix whose accuracy is no better
/// than the radius itself decides nothing.
struct RegionTracker {
    /// A change worth reporting.
    enum Transition: Equatable {
        /// The first decisive fix settled the state.
        case determined(RegionState)
        /// Outside, then inside.
        case entered
        /// Inside, then outside.
        case exited
    }

    var region: CircularRegion
    private(set) var state: RegionState = .unknown

    init(region: CircularRegion, state: RegionState = .unknown) {
        self.region = region
        self.state = state
    }

    /// The band for a fix of unknown or very good accuracy.
    static func minimumBand(for radius: Double) -> Double {
        max(5, radius * 0.1)
    }

    mutating func update(with location: Location) -> Transition? {
        let accuracy = location.horizontalAccuracy ?? 0
        guard accuracy < region.radius else { return nil }
        let distance = region.center.distance(to: location.coordinate)
        let band = max(Self.minimumBand(for: region.radius), accuracy)
        switch state {
        case .unknown:
            state = distance <= region.radius ? .inside : .outside
            return .determined(state)
        case .inside:
            guard distance > region.radius + band else { return nil }
            state = .outside
            return .exited
        case .outside:
            guard distance < region.radius - band else { return nil }
            state = .inside
            return .entered
        }
    }
}

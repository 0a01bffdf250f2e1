extension LocationUpdate {
    /// How ``LocationUpdate/liveUpdates(_:from:)`` filters for an activity, like CoreLocation's
    /// `CLLocationUpdate.LiveConfiguration`.
    public struct LiveConfiguration: Sendable, Hashable {
        /// Locations less accurate than this many metres, or of unknown accuracy, are left out;
        /// zero or less keeps every one.
        public var accuracyFilter: Double
        /// Metres to move before the next location; zero or less delivers every one.
        public var distanceFilter: Double
        /// Staying within this many metres for ``stationaryInterval`` makes the device
        /// stationary; zero or less never does (an aircraft is never parked in the sky).
        ///
        /// A receiver at rest reports positions scattered over about its accuracy, so each fix
        /// is allowed its own error: it counts as staying when it lies within this radius plus
        /// its horizontal accuracy of where the stay began (of the stay's mean position once
        /// stationary). A 15 m receiver standing still is therefore stationary under every
        /// configuration but ``airborne``. Fixes less accurate than 100 m are not considered,
        /// and the configuration's ``accuracyFilter`` applies first.
        public var stationaryRadius: Double
        /// How long a stay must last to count as stationary, on the fixes' own times.
        public var stationaryInterval: Duration

        /// Creates a configuration.
        public init(accuracyFilter: Double = 0, distanceFilter: Double = 0, stationaryRadius: Double = 25,
                    stationaryInterval: Duration = .seconds(120)) {
            self.accuracyFilter = accuracyFilter
            self.distanceFilter = distanceFilter
            self.stationaryRadius = stationaryRadius
            self.stationaryInterval = stationaryInterval
        }

        /// Every location; stationary after two minutes within 25 m.
        public static let `default` = LiveConfiguration()
        /// Driving: locations better than 50 m, every one; stationary after a minute within 15 m
        /// (a long red light or a jam, not every stop).
        public static let automotiveNavigation = LiveConfiguration(accuracyFilter: 50, stationaryRadius: 15,
                                                                   stationaryInterval: .seconds(60))
        /// Navigation on foot, by bicycle or on water: better than 30 m, every one;
        /// stationary after a minute within 10 m.
        public static let otherNavigation = LiveConfiguration(accuracyFilter: 30, stationaryRadius: 10,
                                                              stationaryInterval: .seconds(60))
        /// Running, cycling, hiking: better than 20 m, so the track's distance is not inflated by
        /// poor fixes; a location every 2 m at most; stationary after 30 s within 5 m (a pause).
        public static let fitness = LiveConfiguration(accuracyFilter: 20, distanceFilter: 2, stationaryRadius: 5,
                                                      stationaryInterval: .seconds(30))
        /// Flight: better than 100 m, and never stationary.
        public static let airborne = LiveConfiguration(accuracyFilter: 100, stationaryRadius: 0)
    }
}

/// One element of ``LocationUpdate/liveUpdates(_:from:)``, like CoreLocation's `CLLocationUpdate`
/// (iOS 17–18): a location when there is one, and flags that say why there is none.
public struct LocationUpdate: Sendable, Hashable {
    /// The location, or `nil` when an update only reports a change (access, availability).
    public let location: Location?
    /// The device has stayed in one place (within the configuration's radius for its interval);
    /// no further locations come until it moves again.
    public let isStationary: Bool
    /// The user denied location access (`geotrack auth deny`).
    public let authorizationDenied: Bool
    /// The administrator's policy forbids location use on this machine.
    public let authorizationRestricted: Bool
    /// Access is not decided yet; updates begin once it is granted.
    public let authorizationRequestInProgress: Bool
    /// No location can be had now: gpsd is unreachable, no receiver is attached, or the source
    /// went quiet.
    public let locationUnavailable: Bool
    /// Access is granted for approximate locations only (``AccuracyAuthorization/reducedAccuracy``):
    /// ``location`` is snapped to a grid (see ``ApproximateLocation``), and the configuration's
    /// accuracy filter is not applied, since no approximate location could pass it.
    public let accuracyLimited: Bool
    /// CoreLocation's "the app is not in use" diagnostic. A Linux process has no foreground or
    /// background, so this is always `false`.
    public let insufficientlyInUse: Bool

    /// How many updates were left out just before this one because the loop fell more than
    /// ``bufferLimit`` updates behind a live receiver, which cannot wait for it; zero otherwise.
    /// A replay waits for the loop, so under a replay this is always zero. CoreLocation has no
    /// such count: there, an update a slow loop missed is simply gone.
    public private(set) var droppedUpdates = 0

    /// How many updates wait for a loop before the oldest is dropped (see ``droppedUpdates``).
    public static let bufferLimit = 256

    /// This update, saying that `count` updates were dropped just before it.
    func afterDropping(_ count: Int) -> LocationUpdate {
        var update = self
        update.droppedUpdates += count
        return update
    }

    /// CoreLocation's spelling of ``isStationary``.
    public var stationary: Bool { isStationary }

    init(location: Location? = nil, isStationary: Bool = false, authorizationDenied: Bool = false,
         authorizationRestricted: Bool = false, authorizationRequestInProgress: Bool = false,
         locationUnavailable: Bool = false, accuracyLimited: Bool = false) {
        self.location = location
        self.isStationary = isStationary
        self.authorizationDenied = authorizationDenied
        self.authorizationRestricted = authorizationRestricted
        self.authorizationRequestInProgress = authorizationRequestInProgress
        self.locationUnavailable = locationUnavailable
        self.accuracyLimited = accuracyLimited
        self.insufficientlyInUse = false
    }
}

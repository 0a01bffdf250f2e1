/// Whether the user lets GeoTrack use their location, like CoreLocation's `CLAuthorizationStatus`.
///
/// The raw value is what ``AuthorizationStore`` writes to its file.
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The user has not decided yet.
    case notDetermined
    /// An administrator's policy forbids location use; the user cannot change it.
    case restricted
    /// The user said no.
    case denied
    /// Allowed while an app using GeoTrack runs.
    case authorizedWhenInUse
    /// Allowed at any time, including for region and visit monitoring in the background.
    case authorizedAlways

    /// Whether locations may be delivered.
    public var isAuthorized: Bool {
        self == .authorizedWhenInUse || self == .authorizedAlways
    }

    /// The case's name, as `geotrack auth status` prints it.
    public var description: String { rawValue }
}

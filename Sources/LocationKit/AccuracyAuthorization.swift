/// How precise the locations an app gets are, like CoreLocation's `CLAccuracyAuthorization`.
///
/// The user chooses it with the access itself (`geotrack auth grant --approximate`, or
/// "approximate" at the prompt). The raw value is what ``AuthorizationStore`` writes.
public enum AccuracyAuthorization: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Locations as precise as the receiver gives them.
    case fullAccuracy
    /// Approximate locations only: each is snapped to a grid of ``ApproximateLocation/gridSpacing``
    /// degrees, with a horizontal accuracy that covers the snap, and carries no altitude, speed
    /// or course (see ``ApproximateLocation``).
    case reducedAccuracy

    /// `full` or `approximate`.
    public var description: String {
        switch self {
        case .fullAccuracy: "full"
        case .reducedAccuracy: "approximate"
        }
    }
}

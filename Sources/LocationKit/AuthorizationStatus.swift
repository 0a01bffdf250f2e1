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

    public var description: String { rawValue }
}

/// How much access an app asks for.
public enum AuthorizationLevel: Sendable, Hashable {
    /// Access while the app runs.
    case whenInUse
    /// Access at any time.
    case always

    /// The status a grant of this level gives.
    public var grantedStatus: AuthorizationStatus {
        switch self {
        case .whenInUse: .authorizedWhenInUse
        case .always: .authorizedAlways
        }
    }
}

/// The user's answer to an authorization prompt.
public enum AuthorizationDecision: Sendable, Hashable {
    /// The user allowed access.
    case granted
    /// The user refused access.
    case denied
    /// The user closed the prompt without deciding; the status stays undetermined.
    case dismissed
}

/// Asks the user for location access: a terminal question, a desktop dialog, or a test double.
///
/// ``LocationManager`` calls it when authorization is requested while the status is
/// ``AuthorizationStatus/notDetermined``; the decision is then saved in the ``AuthorizationStore``.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user, and returns their answer.
    func requestAuthorization(for level: AuthorizationLevel) async -> AuthorizationDecision
}

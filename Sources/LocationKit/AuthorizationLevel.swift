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

/// The user's decision as ``AuthorizationStore`` keeps it: the status and, for a grant, how
/// precise the locations may be.
public struct StoredAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// Whether access is granted.
    public var status: AuthorizationStatus
    /// How precise granted locations are; ``AccuracyAuthorization/fullAccuracy`` unless the
    /// user chose approximate locations.
    public var accuracy: AccuracyAuthorization

    /// A decision; the accuracy of one that grants nothing is always full (there is nothing to blur).
    public init(_ status: AuthorizationStatus, accuracy: AccuracyAuthorization = .fullAccuracy) {
        self.status = status
        self.accuracy = status.isAuthorized ? accuracy : .fullAccuracy
    }

    /// The decision file's text: the status, then `reducedAccuracy` for an approximate grant.
    var fileText: String {
        accuracy == .reducedAccuracy ? "\(status.rawValue) \(accuracy.rawValue)\n" : "\(status.rawValue)\n"
    }

    /// `authorizedAlways`, or `authorizedAlways (approximate)`.
    public var description: String {
        accuracy == .reducedAccuracy ? "\(status) (approximate)" : status.description
    }
}

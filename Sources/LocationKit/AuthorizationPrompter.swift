/// Asks the user for location access: a terminal question, a desktop dialog, or a test double.
///
/// ``LocationManager`` calls it when authorization is requested while the status is
/// ``AuthorizationStatus/notDetermined``; the decision is then saved in the ``AuthorizationStore``.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user, and returns their answer.
    func requestAuthorization(for level: AuthorizationLevel) async -> AuthorizationDecision

    /// Asks whether this run may have precise locations although only approximate ones are
    /// allowed (see ``LocationManager/requestTemporaryFullAccuracyAuthorization(purpose:)``).
    func requestTemporaryFullAccuracy(purpose: String) async -> Bool
}

extension AuthorizationPrompter {
    /// Asks the user whether this run may have precise locations although they allowed
    /// approximate ones only; `purpose` says why. Returns whether they allowed it.
    ///
    /// The default answers no without asking, so a prompter that cannot ask keeps locations
    /// approximate.
    public func requestTemporaryFullAccuracy(purpose: String) async -> Bool { false }
}

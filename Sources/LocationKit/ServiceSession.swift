import GeoTrackReactive

/// Holding one says "this program needs location access now", like iOS 18's
/// `CLServiceSession`: creating it asks for the authorization it requires when the user has not
/// decided yet, and its ``diagnostics`` say what is still missing.
///
/// ```swift
/// let session = ServiceSession(authorization: .whenInUse, manager: manager)
/// for await diagnostic in session.diagnostics where diagnostic.isBlocking {
///     print("location is not available:", diagnostic)
/// }
/// ```
///
/// A Linux process has no foreground and background, so a session does not keep anything
/// running on its own; services run while something (updates, ``LocationUpdate/liveUpdates(_:from:)``,
/// regions) asks for them. Call ``invalidate()``, or let the session go, when the need ends.
@MainActor
public final class ServiceSession {
    /// The access a session requires.
    public enum AuthorizationRequirement: Sendable, Hashable {
        /// No access of its own; the session only reports.
        case none
        /// Access while the program runs (``AuthorizationStatus/authorizedWhenInUse`` or better).
        case whenInUse
        /// Access at any time (``AuthorizationStatus/authorizedAlways``), for regions and visits.
        case always
    }

    /// What stands between the session and locations, like `CLServiceSession.Diagnostic`.
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        /// The user denied access.
        public let authorizationDenied: Bool
        /// The administrator's policy forbids location use.
        public let authorizationRestricted: Bool
        /// The user has not decided yet; the request is pending.
        public let authorizationRequestInProgress: Bool
        /// The session requires ``AuthorizationRequirement/always`` and the user allowed only
        /// while in use.
        public let alwaysAuthorizationDenied: Bool
        /// Locations are approximate: the user allowed ``AccuracyAuthorization/reducedAccuracy``
        /// only. Not blocking: approximate locations still come.
        public let fullAccuracyDenied: Bool
        /// CoreLocation's "the app is not in use". Always `false` on Linux.
        public let insufficientlyInUse: Bool

        /// Whether the session's requirement is not met.
        public var isBlocking: Bool {
            authorizationDenied || authorizationRestricted || authorizationRequestInProgress || alwaysAuthorizationDenied
        }

        /// The names of the flags set, or `nothing missing`.
        public var description: String {
            let flags = [("authorizationDenied", authorizationDenied), ("authorizationRestricted", authorizationRestricted),
                         ("authorizationRequestInProgress", authorizationRequestInProgress),
                         ("alwaysAuthorizationDenied", alwaysAuthorizationDenied), ("fullAccuracyDenied", fullAccuracyDenied)]
                .filter(\.1).map(\.0)
            return flags.isEmpty ? "nothing missing" : flags.joined(separator: ", ")
        }

        init(status: AuthorizationStatus, accuracy: AccuracyAuthorization, requirement: AuthorizationRequirement) {
            let requires = requirement != .none
            authorizationDenied = requires && status == .denied
            authorizationRestricted = requires && status == .restricted
            authorizationRequestInProgress = requires && status == .notDetermined
            alwaysAuthorizationDenied = requirement == .always && status == .authorizedWhenInUse
            fullAccuracyDenied = requires && status.isAuthorized && accuracy == .reducedAccuracy
            insufficientlyInUse = false
        }
    }

    /// The access this session requires.
    public let authorization: AuthorizationRequirement
    private let channel = Broadcaster<Diagnostic>()
    private var watch: Task<Void, Never>?
    /// The latest diagnostic, which a new subscriber receives first.
    private var current: Diagnostic
    /// Whether ``invalidate()`` was called.
    public private(set) var isValid = true

    /// Starts a session on `manager`. When access is undecided, it is requested (the manager's
    /// prompter asks the user; without one, `geotrack auth grant` decides).
    public init(authorization: AuthorizationRequirement, manager: LocationManager) {
        self.authorization = authorization
        current = Diagnostic(status: manager.authorizationStatus, accuracy: manager.accuracyAuthorization,
                             requirement: authorization)
        // Each change of access or of its accuracy; the manager is read for both.
        let statuses = manager.rx.authorizationStatus
        watch = Task { [weak self, weak manager] in
            for await status in statuses {
                guard let self, self.isValid, let manager else { return }
                let diagnostic = Diagnostic(status: status, accuracy: manager.accuracyAuthorization,
                                            requirement: authorization)
                guard diagnostic != self.current else { continue }
                self.current = diagnostic
                self.channel.send(diagnostic)
            }
        }
        if manager.authorizationStatus == .notDetermined {
            switch authorization {
            case .none: break
            case .whenInUse: manager.requestWhenInUseAuthorization()
            case .always: manager.requestAlwaysAuthorization()
            }
        }
    }

    isolated deinit {
        watch?.cancel()
        channel.finish()
    }

    /// The current diagnostic, then one per change of authorization, until ``invalidate()``.
    public var diagnostics: EventStream<Diagnostic> {
        isValid ? channel.subscribe(startingWith: current) : channel.subscribe()
    }

    /// Ends the session: its diagnostics finish.
    public func invalidate() {
        guard isValid else { return }
        isValid = false
        watch?.cancel()
        channel.finish()
    }
}

import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Why the location manager could not do what was asked. The description says what failed;
/// what a user should do about it is the program's to say (it knows how access is decided there).
public enum LocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The user denied location access.
    case denied
    /// An administrator's policy (the file at `policyPath`) forbids location access.
    case restricted(policyPath: String)
    /// Access was requested and is still undecided: the manager has no prompter to ask with,
    /// or the question was dismissed unanswered.
    case notDetermined
    /// No fix arrived within `timeout`.
    case locationUnknown(timeout: Duration)
    /// The location source failed (gpsd unreachable, no receiver, unreadable log...).
    case source(SourceError)
    /// A region could not be monitored.
    case regionMonitoringFailed(identifier: String, reason: String)
    /// The authorization decision's file could not be read or saved, or holds no decision.
    case authorizationStore(path: String, reason: String)
    /// The folder that holds the authorization decision may not hold it (another user's, or
    /// others may write to it), or cannot be made or watched; `reason` says which.
    case stateFolder(path: String, reason: String)
    /// A ``Monitor``'s conditions could not be read or saved at `path`, or a monitor or
    /// condition was given something it cannot hold.
    case monitorFailed(name: String, path: String, reason: String)
    /// Another ``Monitor`` named `name` is open, in this process or another: a name is open in
    /// one monitor at a time, as in CoreLocation. `path` is the monitor's file; `processID` is
    /// the process that holds it, when it could be told.
    case monitorInUse(name: String, path: String, processID: Int32?)

    /// What failed, in a sentence that says what to do where there is something to do.
    public var description: String {
        switch self {
        case .denied:
            "location access is denied"
        case .restricted(let policyPath):
            "location access is disabled by the administrator policy in \(policyPath)"
        case .notDetermined:
            "location access has not been decided"
        case .locationUnknown(let timeout):
            "no position fix within \(timeout.components.seconds)s"
        case .source(let error):
            error.message
        case .regionMonitoringFailed(let identifier, let reason):
            "cannot monitor region '\(identifier)': \(reason)"
        case .authorizationStore(let path, let reason):
            "cannot use the authorization file \(path): \(reason)"
        case .stateFolder(let path, let reason):
            "refusing the authorization decision in \(path): \(reason)"
        case .monitorFailed(let name, let path, let reason):
            "monitor '\(name)' (\(path)): \(reason)"
        case .monitorInUse(let name, let path, let processID):
            "monitor '\(name)' (\(path)) is open already \(Self.holder(processID)); a name is open in one Monitor at a time"
        }
    }
}

extension LocationError {
    /// Who holds a monitor's name, in words.
    static func holder(_ processID: Int32?) -> String {
        guard let processID else { return "elsewhere" }
        return processID == getpid() ? "in this process" : "in process \(processID)"
    }
}

import GPSReports
import LocationKit

/// Folds the manager's events into a ``ServiceStatus``. Pure, so it is tested without a manager.
struct ServiceStatusReducer: Sendable {
    /// One input from the location manager.
    enum Input: Sendable {
        case authorization(AuthorizationStatus)
        case receiver(ReceiverStatus)
        case location(Location)
    }

    var authorization: AuthorizationStatus
    var receiver: ReceiverStatus
    var location: Location?

    mutating func apply(_ input: Input) {
        switch input {
        case .authorization(let status): authorization = status
        case .receiver(let status): receiver = status
        case .location(let new): location = new
        }
    }

    var status: ServiceStatus {
        switch authorization {
        case .notDetermined: return .waitingForAuthorization
        case .denied, .restricted: return .denied
        case .authorizedWhenInUse, .authorizedAlways: break
        }
        switch receiver.sourceState {
        case .disconnected: return .gpsdUnreachable(retryingIn: nil)
        case .retrying(let delay): return .gpsdUnreachable(retryingIn: delay)
        case .receiverAbsent: return .noReceiver
        case .stale, .finished: return location == nil ? .searching(seen: receiver.satellitesSeen, used: receiver.satellitesUsed) : .stale
        case .connecting, .connected, .receiverPresent, nil: break
        }
        if receiver.isStale { return .stale }
        if let location, !location.isStale, receiver.fixMode >= .twoD {
            return .fix(mode: location.gnss.fixMode, location: location)
        }
        return .searching(seen: receiver.satellitesSeen, used: receiver.satellitesUsed)
    }
}

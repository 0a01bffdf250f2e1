import GPSReports
import LocationKit

/// Folds the manager's authorization, receiver status, locations and headings into a
/// ``TrackingStatus``, and notices the connection and access changes worth an event.
///
/// Pure and synchronous, so each rule is tested without a manager; ``GeolocationService`` feeds
/// it on the main actor as the manager calls its delegate.
struct TrackingReducer: Sendable {
    /// One input from the manager.
    enum Input: Sendable {
        /// Location access changed.
        case authorization(AuthorizationStatus)
        /// The receiver's status changed.
        case receiver(ReceiverStatus)
        /// A location was delivered; `heading` is the one that describes it, if any.
        case location(Location, heading: Heading?)
        /// The heading that describes the current location changed (a heading sensor's reading).
        case heading(Heading?)
    }

    /// What an input changed that is worth telling, besides the status.
    enum Notice: Sendable, Equatable {
        case disconnected(SourceError)
        case reconnected
        case authorizationChanged(AuthorizationStatus)
        case otherReceiver(String, following: String)
    }

    private(set) var authorization: AuthorizationStatus
    private(set) var receiver: ReceiverStatus
    private(set) var location: Location?
    private(set) var heading: Heading?
    /// The administrator's policy file, named in ``TrackingStatus/restricted(policyPath:)``.
    let policyPath: String
    /// The last connection failure, until a connection works again.
    private var lastError: SourceError?
    /// Whether a connection ever worked, and whether it has been lost since.
    private var everConnected = false
    private var connectionLost = false
    /// gpsd said it has no receiver, and no position came since: a silence then is not "searching".
    private var receiverAbsent = false
    /// The source answered on the current connection (gpsd's device list, or a position). A TCP
    /// connection alone is not gpsd: a port that accepts and closes, or another service there
    /// (an ssh banner), never answers, and is neither "searching" nor gpsd come back.
    private var answered = false
    /// The location came before the connection or the fix was lost: after a reconnection, or
    /// once the receiver reports a fix again, it is the last known position (stale), not a
    /// fix, until a new location comes.
    private var locationBeforeLoss = false

    init(authorization: AuthorizationStatus, receiver: ReceiverStatus, location: Location?, policyPath: String) {
        self.authorization = authorization
        self.receiver = receiver
        self.location = location.flatMap { $0.isStale ? nil : $0 }
        self.policyPath = policyPath
    }

    /// Applies one input; returns what it changed that is worth an event.
    mutating func apply(_ input: Input) -> [Notice] {
        switch input {
        case .authorization(let status):
            guard status != authorization else { return [] }
            authorization = status
            return [.authorizationChanged(status)]
        case .receiver(let status):
            let previous = receiver.sourceState
            let known = Set(receiver.otherReceivers)
            receiver = status
            // Another receiver of the same source, set aside: said once, naming the one followed.
            let others: [Notice] = status.receiver.map { followed in
                status.otherReceivers.filter { !known.contains($0) }.map { .otherReceiver($0, following: followed) }
            } ?? []
            // The receiver says it has no fix: the position it had no longer holds. When its fix
            // comes back, the report's mode arrives a moment before its location; the status
            // must not show the old position, with its old time, as that fix.
            if status.fixMode == .noFix, location != nil { locationBeforeLoss = true }
            guard status.sourceState != previous, let state = status.sourceState else { return others }
            return sourceStateChanged(to: state) + others
        case .location(let new, let shown):
            location = new
            heading = shown
            receiverAbsent = false
            locationBeforeLoss = false
            return answeredNow()
        case .heading(let shown):
            heading = shown
            return []
        }
    }

    private mutating func sourceStateChanged(to state: SourceState) -> [Notice] {
        switch state {
        case .receiverPresent, .receiverAbsent:
            receiverAbsent = state == .receiverAbsent
            return answeredNow()
        case .connecting:
            answered = false
            return []
        case .disconnected(let error):
            answered = false
            lastError = error
            locationBeforeLoss = location != nil
            // A source that failed for good is no lost connection: the run ends with its error,
            // said once, by whoever ends it (a replay of a file that holds no log).
            guard everConnected, !connectionLost, !Self.failsForGood(error) else { return [] }
            connectionLost = true
            return [.disconnected(error)]
        case .connected, .stale, .retrying, .finished:
            return []
        }
    }

    /// Whether retrying cannot help after `error`: a file that cannot be read, an input that is
    /// not a log, or a request gpsd cannot take. The source has failed.
    private static func failsForGood(_ error: SourceError) -> Bool {
        error.code == .unreadableFile || error.code == .protocolError || error.code == .libraryMissing
    }

    /// The source answered: the connection works (again).
    private mutating func answeredNow() -> [Notice] {
        guard !answered else { return [] }
        answered = true
        lastError = nil
        everConnected = true
        guard connectionLost else { return [] }
        connectionLost = false
        return [.reconnected]
    }

    /// The status the inputs so far add up to.
    var status: TrackingStatus {
        switch authorization {
        case .notDetermined: return .waitingForAuthorization
        case .denied: return .denied
        case .restricted: return .restricted(policyPath: policyPath)
        case .authorizedWhenInUse, .authorizedAlways: break
        }
        let searching = TrackingStatus.searching(seen: receiver.satellitesSeen, used: receiver.satellitesUsed)
        switch receiver.sourceState {
        case nil:
            return .starting
        case .connecting?:
            // While reconnecting, gpsd is still unreachable until it answers.
            return lastError.map { .unreachable($0, retryingIn: nil) } ?? .starting
        case .connected? where !answered, .stale? where !answered:
            // Connected, but nothing answered yet (and silent since: stale): as good as still
            // connecting, until the handshake's deadline gives up on the peer.
            return lastError.map { .unreachable($0, retryingIn: nil) } ?? .starting
        case .disconnected(let error)? where Self.failsForGood(error):
            return .failed(error)
        case .disconnected(let error)?:
            return .unreachable(error, retryingIn: nil)
        case .retrying(let delay)?:
            return .unreachable(lastError, retryingIn: delay)
        case .finished?:
            return lastError.map { .failed($0) } ?? .finished
        case .receiverAbsent?:
            return .noReceiver
        case .stale?:
            if receiverAbsent { return .noReceiver }
            // Silent now, so not searching: a receiver working towards a fix reports every
            // second (gpsd's mode 1 TPVs, its SKYs); one that sends nothing is unplugged, dead,
            // or at a speed gpsd cannot read.
            return .stale(location)
        case .connected?, .receiverPresent?:
            break
        }
        if receiver.isStale { return location.map { .stale($0) } ?? searching }
        // gpsd back, and no position since: the receiver's fix mode is from before the loss, and
        // the position too; searching until a new one comes.
        if locationBeforeLoss { return searching }
        if let location, receiver.fixMode >= .twoD {
            return .fix(location, heading: heading)
        }
        return searching
    }
}

extension TrackingReducer {
    /// Access was reduced to approximate: the location the status shows is snapped to the grid.
    mutating func reduceAccuracy() {
        location = location.map(ApproximateLocation.reduce)
    }
}

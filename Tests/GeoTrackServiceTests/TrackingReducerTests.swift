import Foundation
@testable import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

@Suite struct TrackingReducerTests {
    let location = Location(fix: .synthetic(at: ServiceHarness.origin, second: 0)) ?? Location(coordinate: ServiceHarness.origin, timestamp: Date())
    let refused = SourceError.connectionRefused(host: "h", port: 1)

    func reducer(_ authorization: AuthorizationStatus, _ receiver: ReceiverStatus = ReceiverStatus(),
                 location: Location? = nil) -> TrackingReducer {
        TrackingReducer(authorization: authorization, receiver: receiver, location: location, policyPath: "/etc/geotrack/policy")
    }

    @Test func authorizationComesFirst() {
        var reducer = reducer(.notDetermined, ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD), location: location)
        #expect(reducer.status == .waitingForAuthorization)
        #expect(reducer.apply(.authorization(.restricted)) == [.authorizationChanged(.restricted)])
        #expect(reducer.status == .restricted(policyPath: "/etc/geotrack/policy"))
        _ = reducer.apply(.authorization(.denied))
        #expect(reducer.status == .denied)
        _ = reducer.apply(.authorization(.authorizedAlways))
        #expect(reducer.status == .fix(location, heading: nil))
        // The same status again is no change.
        #expect(reducer.apply(.authorization(.authorizedAlways)) == [])
    }

    @Test func sourceStatesMapToTheirStatus() {
        var reducer = reducer(.authorizedWhenInUse)
        #expect(reducer.status == .starting)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused))))
        #expect(reducer.status == .unreachable(refused, retryingIn: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .retrying(after: .seconds(2)))))
        #expect(reducer.status == .unreachable(refused, retryingIn: .seconds(2)))
        // Reconnecting is still unreachable until gpsd answers.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connecting)))
        #expect(reducer.status == .unreachable(refused, retryingIn: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverAbsent)))
        #expect(reducer.status == .noReceiver)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 3, fixMode: .noFix)))
        #expect(reducer.status == .searching(seen: 8, used: 3))
        _ = reducer.apply(.location(location, heading: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 5, fixMode: .threeD)))
        #expect(reducer.status == .fix(location, heading: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, fixMode: .threeD, isStale: true)))
        #expect(reducer.status == .stale(location))
    }

    @Test("no receiver stays no receiver through gpsd's silence, instead of turning into searching")
    func noReceiverSurvivesStaleness() {
        var reducer = reducer(.authorizedAlways)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connected)))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverAbsent)))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, isStale: true)))
        #expect(reducer.status == .noReceiver)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, isStale: true)))
        #expect(reducer.status == .searching(seen: 0, used: 0))
    }

    @Test("a receiver gpsd lists but that has sent nothing for the stale time is not searching: it is silent")
    func silentReceiverIsNotSearching() {
        var reducer = reducer(.authorizedAlways)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connected)))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent)))
        #expect(reducer.status == .searching(seen: 0, used: 0))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, isStale: true)))
        #expect(reducer.status == .stale(nil))
        // It speaks again (a mode 1 TPV, a SKY): searching once more.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 5, isStale: true)))
        #expect(reducer.status == .searching(seen: 5, used: 0))
    }

    @Test("a source that ends after a failure failed; one that ends cleanly finished")
    func endings() {
        var failed = reducer(.authorizedAlways)
        let missing = SourceError(.unreadableFile, message: "cannot replay x: no such file")
        _ = failed.apply(.receiver(ReceiverStatus(sourceState: .connecting)))
        _ = failed.apply(.receiver(ReceiverStatus(sourceState: .disconnected(missing))))
        #expect(failed.status == .failed(missing))
        var noRetry = reducer(.authorizedAlways)
        _ = noRetry.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused))))
        _ = noRetry.apply(.receiver(ReceiverStatus(sourceState: .finished)))
        #expect(noRetry.status == .failed(refused))
        var finished = reducer(.authorizedAlways)
        _ = finished.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent)))
        _ = finished.apply(.receiver(ReceiverStatus(sourceState: .finished)))
        #expect(finished.status == .finished)
        #expect(finished.status.hasEnded && failed.status.hasEnded)
    }

    @Test("a lost connection is one event, however many attempts fail; its return is another")
    func connectionEvents() {
        var reducer = reducer(.authorizedAlways)
        // A first attempt that fails is not a lost connection: nothing had worked yet.
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused)))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .connected))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused)))) == [.disconnected(refused)])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .retrying(after: .seconds(1))))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused)))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .connected))) == [])
        // gpsd is back once it answers (its device list), not at the TCP connection.
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent))) == [.reconnected])
        // A change of satellites alone is not a change of connection.
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 3))) == [])
    }

    @Test("after gpsd comes back, the fix from before the loss is not shown as current: searching until a new position, then that fix")
    func noOldFixAfterReconnection() throws {
        var reducer = reducer(.authorizedAlways)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD)))
        _ = reducer.apply(.location(location, heading: nil))
        #expect(reducer.status == .fix(location, heading: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(refused), fixMode: .threeD)))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connected, fixMode: .threeD)))
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 9, satellitesUsed: 6, fixMode: .threeD)))
                == [.reconnected])
        #expect(reducer.status == .searching(seen: 9, used: 6), "\(reducer.status)")
        // Silent since: the old position is the last known one, marked stale.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, fixMode: .threeD)))
        #expect(reducer.status == .stale(location))
        let later = try #require(Location(fix: .synthetic(at: ServiceHarness.origin, second: 60)))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD)))
        _ = reducer.apply(.location(later, heading: nil))
        #expect(reducer.status == .fix(later, heading: nil))
    }

    @Test("a fix lost and found again: searching until the new position, never the old one shown with the fix's return")
    func noOldFixAfterTheFixReturns() throws {
        var reducer = reducer(.authorizedAlways)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD)))
        _ = reducer.apply(.location(location, heading: nil))
        #expect(reducer.status == .fix(location, heading: nil))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 2, fixMode: .noFix)))
        #expect(reducer.status == .searching(seen: 8, used: 2))
        // The fix is back: gpsd's report says 3D before the manager delivers its location.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 6, fixMode: .threeD)))
        #expect(reducer.status == .searching(seen: 8, used: 6), "\(reducer.status)")
        let later = try #require(Location(fix: .synthetic(at: ServiceHarness.origin, second: 25)))
        _ = reducer.apply(.location(later, heading: nil))
        #expect(reducer.status == .fix(later, heading: nil))
    }

    @Test("a source that failed for good (a file that holds no log) is no lost connection: no event, the status says it failed")
    func failedForGoodIsNoEvent() {
        let notALog = SourceError(.protocolError, message: "junk.bin holds no NMEA sentence or GPX track point gpsd would read")
        var reducer = reducer(.authorizedAlways)
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .connected))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent))) == [])
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(notALog)))) == [])
        #expect(reducer.status == .failed(notALog))
    }

    @Test("a port that accepts but never answers as gpsd does (another service, a proxy) is not gpsd: not searching, not reconnected")
    func connectionThatNeverAnswers() {
        let silent = SourceError(.timedOut, message: "no answer from gpsd at localhost:2947 within 10 s")
        var reducer = reducer(.authorizedAlways)
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connecting)))
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .connected))) == [])
        #expect(reducer.status == .starting)
        // The stale watchdog fires before the handshake's deadline: still not searching.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, isStale: true)))
        #expect(reducer.status == .starting)
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(silent)))) == [])
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .retrying(after: .seconds(1)))))
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connecting)))
        #expect(reducer.apply(.receiver(ReceiverStatus(sourceState: .connected))) == [])
        #expect(reducer.status == .unreachable(silent, retryingIn: nil))
        // A position answers too, for a source that lists no receivers.
        _ = reducer.apply(.receiver(ReceiverStatus(sourceState: .connected, fixMode: .threeD)))
        #expect(reducer.apply(.location(location, heading: nil)) == [])
        #expect(reducer.status == .fix(location, heading: nil))
    }
}

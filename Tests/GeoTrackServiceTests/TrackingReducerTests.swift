import Foundation
@testable import GeoTrackService
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

@Suite struct ServiceStatusReducerTests {
    let location = Location(fix: .synthetic(at: ServiceHarness.origin, second: 0)) ?? Location(coordinate: ServiceHarness.origin, timestamp: Date())

    @Test func authorizationComesFirst() {
        var reducer = ServiceStatusReducer(authorization: .notDetermined, receiver: ReceiverStatus(sourceState: .receiverPresent, fixMode: .threeD), location: location)
        #expect(reducer.status == .waitingForAuthorization)
        reducer.apply(.authorization(.restricted))
        #expect(reducer.status == .denied)
        reducer.apply(.authorization(.authorizedAlways))
        #expect(reducer.status == .fix(mode: .threeD, location: location))
    }

    @Test func sourceStatesMapToTheirStatus() {
        var reducer = ServiceStatusReducer(authorization: .authorizedWhenInUse, receiver: ReceiverStatus(), location: nil)
        #expect(reducer.status == .searching(seen: 0, used: 0))
        reducer.apply(.receiver(ReceiverStatus(sourceState: .disconnected(.connectionRefused(host: "h", port: 1)))))
        #expect(reducer.status == .gpsdUnreachable(retryingIn: nil))
        reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverAbsent)))
        #expect(reducer.status == .noReceiver)
        reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 3, fixMode: .noFix)))
        #expect(reducer.status == .searching(seen: 8, used: 3))
        reducer.apply(.location(location))
        reducer.apply(.receiver(ReceiverStatus(sourceState: .receiverPresent, satellitesSeen: 8, satellitesUsed: 5, fixMode: .threeD)))
        #expect(reducer.status == .fix(mode: .threeD, location: location))
        reducer.apply(.receiver(ReceiverStatus(sourceState: .stale, fixMode: .threeD, isStale: true)))
        #expect(reducer.status == .stale)
    }
}

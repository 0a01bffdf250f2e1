import Foundation
import GeoTrackTesting
@testable import GPSD
import GPSReports
import Testing

/// The session's decisions, input by input, on manual instants.
struct GPSDStateMachineTests {
    typealias Machine = GPSDStateMachine<ManualClock.Instant>
    let t0 = ManualClock.Instant(offset: .zero)

    func at(_ seconds: Int) -> ManualClock.Instant { t0.advanced(by: .seconds(seconds)) }

    func fix(_ device: String = "/dev/ttyACM0") -> Report {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_666_092_780), device: device)
        fix.latitude = 32.6
        fix.longitude = -108.3
        return .fix(fix)
    }

    @Test func connectingThenConnectedArmsTheWatchdog() {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        #expect(machine.connecting().events == [.state(.connecting)])
        #expect(machine.staleDeadline() == nil)
        let connected = machine.connected(now: t0)
        #expect(connected.events == [.state(.connected)])
        #expect(connected.rearmWatchdog)
        #expect(machine.staleDeadline()?.deadline == at(5))
    }

    @Test func staleOnlyWhenNothingArrivedSinceTheTimerWasSet() throws {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        let armed = try #require(machine.staleDeadline())
        _ = machine.received(fix(), now: at(3))
        // The timer set at t0 fires at t5, but a report came at t3: not stale, look again at t8.
        #expect(machine.staleTimerFired(generation: armed.generation).events.isEmpty)
        let rearmed = try #require(machine.staleDeadline())
        #expect(rearmed.deadline == at(8))
        #expect(machine.staleTimerFired(generation: rearmed.generation).events == [.state(.stale)])
        // Once per silence: nothing more to time until a report comes.
        #expect(machine.staleDeadline() == nil)
        #expect(machine.staleTimerFired(generation: rearmed.generation).events.isEmpty)
    }

    @Test func aFixAfterSilenceSaysCurrentFirst() {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        _ = machine.received(fix(), now: at(1))
        let generation = machine.staleDeadline()?.generation ?? 0
        _ = machine.staleTimerFired(generation: generation)
        let action = machine.received(fix(), now: at(20))
        #expect(action.events == [.state(.receiverPresent), .report(fix())])
        #expect(action.rearmWatchdog)
        #expect(machine.staleDeadline()?.deadline == at(25))
    }

    @Test func receiverPresenceFollowsTheDeviceList() {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        let empty = machine.received(.devices([]), now: t0)
        #expect(empty.events == [.report(.devices([])), .state(.receiverAbsent)])
        let device = Device(path: "/dev/ttyACM0", activated: Date(timeIntervalSince1970: 1))
        let added = machine.received(.deviceAdded(device), now: t0)
        #expect(added.events == [.report(.deviceAdded(device)), .state(.receiverPresent)])
        // The first fix of a known receiver changes nothing about presence.
        #expect(machine.received(fix(), now: t0).events == [.report(fix())])
        var gone = device
        gone.activated = nil
        let removed = machine.received(.deviceRemoved(gone), now: t0)
        #expect(removed.events == [.report(.deviceRemoved(gone)), .state(.receiverAbsent)])
    }

    @Test func aWatchedDeviceIgnoresOthers() {
        var machine = Machine(device: "/dev/ttyUSB1", staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        let other = Device(path: "/dev/ttyACM0", activated: Date(timeIntervalSince1970: 1))
        #expect(machine.received(.devices([other]), now: t0).events == [.report(.devices([other])), .state(.receiverAbsent)])
    }

    @Test func disconnectionForgetsTheConnection() {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        let error = SourceError.connectionClosed(host: "localhost", port: 2947)
        #expect(machine.disconnected(error).events == [.state(.disconnected(error))])
        #expect(machine.staleDeadline() == nil)
        #expect(machine.retrying(after: .seconds(2)).events == [.state(.retrying(after: .seconds(2)))])
    }
}

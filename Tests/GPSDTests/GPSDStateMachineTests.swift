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

    @Test("gpsd's greeting alone is no answer: a peer that sends VERSION and then nothing is still awaited, and given up on at the handshake deadline")
    func greetingIsNoAnswer() {
        var machine = Machine(device: nil, staleAfter: .seconds(5))
        _ = machine.connected(now: t0)
        #expect(machine.isAwaitingFirstMessage)
        _ = machine.received(.version(Version(release: "3.22", revision: "3.22", protocolMajor: 3, protocolMinor: 14)), now: at(1))
        #expect(machine.isAwaitingFirstMessage)
        _ = machine.received(.devices([]), now: at(2))
        #expect(!machine.isAwaitingFirstMessage)
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

    func sky(seen: Int, used: Int, hdop: Double = 0.9, azimuthShift: Double = 0) -> Report {
        let satellites = (0..<seen).map {
            Satellite(prn: $0 + 1, elevation: 40, azimuth: Double($0 * 30) + azimuthShift, signalStrength: 35, used: $0 < used)
        }
        var view = SkyView(satellites: satellites)
        view.device = "/dev/ttyACM0"
        view.hdop = hdop
        return .sky(view)
    }

    func skyReports(_ action: Machine.Action) -> Int {
        action.events.filter { if case .report(.sky) = $0 { true } else { false } }.count
    }

    @Test func repeatedSkySummariesAreDroppedOnlyWhenAsked() {
        for delivery in [SkyViewDelivery.every, .whenSummaryChanges] {
            var machine = Machine(device: nil, staleAfter: .seconds(5), skyViews: delivery)
            _ = machine.connected(now: t0)
            let first = machine.received(sky(seen: 9, used: 6), now: at(1))
            #expect(skyReports(first) == 1)
            // Satellites move across the sky between cycles; the counts and dilutions do not.
            let repeated = machine.received(sky(seen: 9, used: 6, azimuthShift: 0.5), now: at(2))
            #expect(skyReports(repeated) == (delivery == .every ? 1 : 0))
            // The fix between two SKYs does not make a repeated summary news.
            _ = machine.received(fix(), now: at(3))
            #expect(skyReports(machine.received(sky(seen: 9, used: 6), now: at(3))) == (delivery == .every ? 1 : 0))
            #expect(skyReports(machine.received(sky(seen: 9, used: 7), now: at(4))) == 1)
            #expect(skyReports(machine.received(sky(seen: 9, used: 7, hdop: 1.4), now: at(5))) == 1)
        }
    }

    @Test func afterAnyChangeOfStateTheNextSkyIsDelivered() throws {
        var machine = Machine(device: nil, staleAfter: .seconds(5), skyViews: .whenSummaryChanges)
        _ = machine.connected(now: t0)
        #expect(skyReports(machine.received(sky(seen: 9, used: 6), now: at(1))) == 1)
        // Silence: stale. The same summary afterwards is delivered, with the state that says current again.
        let armed = try #require(machine.staleDeadline())
        #expect(machine.staleTimerFired(generation: armed.generation).events == [.state(.stale)])
        let afterSilence = machine.received(sky(seen: 9, used: 6), now: at(9))
        #expect(skyReports(afterSilence) == 1)
        #expect(afterSilence.events.contains(.state(.receiverPresent)))
        // gpsd's device list changes: the next SKY is delivered even though it repeats.
        _ = machine.received(.deviceRemoved(Device(path: "/dev/ttyACM0")), now: at(10))
        _ = machine.received(.deviceAdded(Device(path: "/dev/ttyACM0")), now: at(11))
        #expect(skyReports(machine.received(sky(seen: 9, used: 6), now: at(12))) == 1)
        // A new connection starts afresh.
        _ = machine.disconnected(SourceError(.connectionClosed, message: "gone"))
        _ = machine.connected(now: at(20))
        #expect(skyReports(machine.received(sky(seen: 9, used: 6), now: at(21))) == 1)
    }
}

import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Logging
import GeoTrackReactive
import Testing

@MainActor
@Suite struct DelegateProxyTests {
    @Test func settingTheDelegateAfterTheProxyKeepsBothWorking() async throws {
        let harness = try Harness { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)), .wait(.seconds(1)),
             .fix(.synthetic(at: .at(north: 10), second: 1))]
        }
        let manager = harness.manager
        let proxy = manager.rx.delegate
        #expect(manager.delegate === harness.delegate)
        #expect(proxy.forwardToDelegate === harness.delegate)

        // The classic RxCocoa complaint: assigning a delegate once the proxy is in place.
        let replacement = RecordingLocationDelegate()
        manager.delegate = replacement
        #expect(manager.delegate === replacement)
        #expect(manager.rx.delegate === proxy)
        #expect(proxy.forwardToDelegate === replacement)

        let updates = manager.rx.didUpdateLocations
        manager.startUpdatingLocation()
        let first = await updates.firstElements(1).flatMap { $0 }
        #expect(replacement.locations == first)
        #expect(harness.delegate.locations.isEmpty)

        // Setting nil detaches the user's delegate; the streams keep going.
        manager.delegate = nil
        let more = manager.rx.didUpdateLocations
        await harness.clock.sleepers(atLeast: 1)
        harness.clock.advance(by: .seconds(1))
        #expect(await more.firstElements(1).count == 1)
        #expect(replacement.locations.count == 1)
    }

    @Test func assigningTheProxyAsDelegateIsIgnored() throws {
        let harness = try Harness(fixes: [])
        let proxy = harness.manager.rx.delegate
        harness.manager.delegate = proxy
        #expect(harness.manager.delegate === harness.delegate)
    }

    @Test func manySubscribersEachSeeEveryEventInOrder() async throws {
        let fixes = (0..<20).map { Fix.synthetic(at: .at(north: Double($0) * 10), second: Double($0)) }
        let harness = try Harness(fixes: fixes)
        let streams = (0..<12).map { _ in harness.manager.rx.location }
        let tasks = streams.map { stream in Task { await stream.firstElements(20) } }
        harness.manager.startUpdatingLocation()
        let expected = fixes.compactMap { Location(fix: $0, sourceInformation: .simulated) }
        for task in tasks {
            #expect(await task.value == expected)
        }
        #expect(harness.delegate.locations == expected)
    }

    @Test func locationStreamStartsWithTheLatestLocation() async throws {
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0)])
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let first = await updates.firstElements(1).flatMap { $0 }
        let late = await harness.manager.rx.location.firstElements(1)
        #expect(late == first)
    }

    /// Reads the manager's streams from an actor of its own, as a recorder in an app would.
    actor Recorder {
        func firstLocation(of manager: LocationManager) async -> Location? {
            // `manager.rx` crosses from the main actor to this one: it must be Sendable.
            let stream = await manager.rx.location
            for await location in stream { return location }
            return nil
        }
    }

    @Test func streamsAreReadFromAnotherActor() async throws {
        let harness = try Harness(fixes: [.synthetic(at: .at(north: 0), second: 0)])
        let updates = harness.manager.rx.didUpdateLocations
        harness.manager.startUpdatingLocation()
        let first = await updates.firstElements(1).flatMap { $0 }
        let read = await Recorder().firstLocation(of: harness.manager)
        #expect(read.map { [$0] } == first)
    }

    @Test func cancelledSubscriberIsReleasedAtOnce() async throws {
        let harness = try Harness { _ in
            [.state(.receiverPresent), .fix(.synthetic(at: .at(north: 0), second: 0)), .wait(.seconds(1)),
             .fix(.synthetic(at: .at(north: 10), second: 1))]
        }
        let proxy = harness.manager.rx.delegate
        let cancelled = harness.manager.rx.didUpdateLocations
        let kept = harness.manager.rx.didUpdateLocations
        let task = Task {
            var count = 0
            for await _ in cancelled { count += 1 }
            return count
        }
        let keptTask = Task { await kept.firstElements(2).count }
        #expect(proxy.subscriberCount(for: DelegateEvent<[Location]>("didUpdateLocations")) == 2)
        harness.manager.startUpdatingLocation()
        await harness.clock.sleepers(atLeast: 1)
        task.cancel()
        let seen = await task.value
        #expect(seen <= 1)
        #expect(proxy.subscriberCount(for: DelegateEvent<[Location]>("didUpdateLocations")) == 1)
        harness.clock.advance(by: .seconds(1))
        #expect(await keptTask.value == 2)
    }

    @Test func deallocatingTheManagerFinishesEveryStreamWithoutLeaks() async throws {
        let directory = try TemporaryDirectory()
        let store = AuthorizationStore(directory: directory.path, policyPath: directory.path + "/policy")
        try store.write(.authorizedWhenInUse)
        let clock = ManualClock()
        weak var weakManager: LocationManager?
        weak var weakProxy: LocationManagerDelegateProxy?
        weak var weakDelegate: RecordingLocationDelegate?
        var tasks: [Task<Int, Never>] = []
        do {
            let manager = LocationManager(source: ScriptedLocationSource([.state(.receiverPresent), .wait(.seconds(3600))], clock: clock),
                                          clock: clock, authorizationStore: store, logger: Logger(label: "test"))
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            let streams: [EventStream<Int>] = [
                manager.rx.didUpdateLocations.counted, manager.rx.location.counted, manager.rx.didUpdateHeading.counted,
                manager.rx.didChangeAuthorization.counted, manager.rx.didVisit.counted, manager.rx.didPause.counted,
            ]
            tasks = streams.map { stream in Task { await stream.firstElements(Int.max).count } }
            manager.startUpdatingLocation()
            manager.startUpdatingHeading()
            manager.startMonitoringVisits()
            manager.requestLocation()
            await clock.sleepers(atLeast: 2) // the source is waiting, the one-shot timeout is pending
            weakManager = manager
            weakProxy = manager.rx.delegate
            weakDelegate = delegate
            #expect(weakDelegate != nil)
        }
        #expect(weakManager == nil)
        #expect(weakProxy == nil)
        #expect(weakDelegate == nil)
        for task in tasks {
            #expect(await task.value == 0)
        }
    }

    @Test func slowSubscriberLosesOnlyItsOldestEvents() async throws {
        let fixes = (0..<200).map { Fix.synthetic(at: .at(north: Double($0)), second: Double($0)) }
        let harness = try Harness(fixes: fixes)
        let proxy = harness.manager.rx.delegate
        let idle = harness.manager.rx.location
        let statuses = harness.manager.rx.didChangeReceiverStatus
        harness.manager.startUpdatingLocation()
        _ = await statuses.firstMatching { $0.sourceState == .finished }
        // The delegate got everything; the idle subscriber kept only the newest 128.
        #expect(harness.delegate.locations.count == 200)
        #expect(proxy.droppedEventCount == 200 - proxy.bufferLimit)
        let kept = await idle.firstElements(proxy.bufferLimit)
        #expect(kept.first?.timestamp == harness.delegate.locations[200 - proxy.bufferLimit].timestamp)
        #expect(kept.last == harness.delegate.locations.last)
    }
}

extension EventStream {
    /// Each event as 1, to put streams of different types in one array.
    var counted: EventStream<Int> {
        let broadcaster = Broadcaster<Int>()
        let stream = broadcaster.subscribe()
        let source = self
        Task {
            for await _ in source { broadcaster.send(1) }
            broadcaster.finish()
        }
        return stream
    }
}

import GeoTrackTesting
import GeoTrackReactive
import Synchronization
import Testing

@MainActor
@Suite struct DriverRelayTests {
    @Test func acceptedValuesReachEveryConsumerAndLateOnesStartWithTheLatest() async {
        let relay = DriverRelay<Int>(0)
        let early = relay.driver.subscribe()
        relay.accept(1)
        relay.accept(2)
        #expect(relay.value == 2)
        #expect(relay.driver.latest == 2)
        #expect(relay.driver.isConnected)
        let late = relay.driver.subscribe()
        relay.accept(3)
        relay.finish()
        #expect(await early.firstElements(10) == [0, 1, 2, 3])
        #expect(await late.firstElements(10) == [2, 3])
    }

    @Test func aRelayWithoutAnInitialValueStartsEmpty() async {
        let relay = DriverRelay<String>(nil)
        #expect(relay.value == nil)
        let stream = relay.driver.subscribe()
        relay.accept("first")
        relay.finish()
        #expect(await stream.firstElements(10) == ["first"])
    }

    @Test func theProxysDriverIsCurrentAsSoonAsTheCallbackReturns() async {
        let toy = Toy()
        let recorder = ToyRecorder()
        toy.delegate = recorder
        let driver = toy.rx.proxy.driver(.ticks, startingWith: 0)
        #expect(driver.latest == 0)
        #expect(toy.rx.proxy.driver(.ticks) === driver)
        let stream = toy.rx.ticks
        let consumer = driver.subscribe()
        toy.tick(7)
        // No task between the proxy and the driver: the value is there before anything is awaited.
        #expect(driver.latest == 7)
        toy.tick(8)
        #expect(recorder.ticks == [7, 8])
        #expect(await stream.firstElements(2) == [7, 8])
        #expect(await consumer.firstElements(3) == [0, 7, 8])
    }

    @Test func theProxysDriverFinishesWithItsObject() async {
        var toy: Toy? = Toy()
        let driver = toy?.rx.proxy.driver(.ticks)
        let consumer = driver?.subscribe()
        toy?.tick(1)
        toy = nil
        #expect(await consumer?.firstElements(10) == [1])
    }
}

@Suite struct ObservationTests {
    @Test func observersAreCalledInOrderWithinSendUntilCancelled() {
        let broadcaster = Broadcaster<Int>(replaysLatest: true)
        broadcaster.send(1)
        let seen = Mutex<[String]>([])
        let first = broadcaster.observe { value in seen.withLock { $0.append("a\(value)") } }
        let second = broadcaster.observe { value in seen.withLock { $0.append("b\(value)") } }
        // The replay comes at once; each send reaches every observer before it returns.
        #expect(seen.withLock { $0 } == ["a1", "b1"])
        broadcaster.send(2)
        #expect(seen.withLock { $0 } == ["a1", "b1", "a2", "b2"])
        first.cancel()
        broadcaster.send(3)
        #expect(seen.withLock { $0 } == ["a1", "b1", "a2", "b2", "b3"])
        #expect(broadcaster.subscriberCount == 1)
        _ = second
    }

    @Test func droppingTheObservationStopsIt() {
        let broadcaster = Broadcaster<Int>()
        let count = Mutex(0)
        var observation: ObservationToken? = broadcaster.observe { _ in count.withLock { $0 += 1 } }
        broadcaster.send(1)
        observation = nil
        broadcaster.send(2)
        #expect(count.withLock { $0 } == 1)
        #expect(broadcaster.subscriberCount == 0)
        _ = observation
    }

    @Test @MainActor func theProxyCallsObserversSynchronouslyAfterTheDelegate() {
        let toy = Toy()
        let recorder = ToyRecorder()
        toy.delegate = recorder
        var seen: [Int] = []
        let observation = toy.rx.proxy.observe(.ticks) { value in
            // The user's delegate has already been called.
            seen.append(value * 10 + recorder.ticks.count)
        }
        toy.tick(1)
        toy.tick(2)
        #expect(seen == [11, 22])
        observation.cancel()
        toy.tick(3)
        #expect(seen == [11, 22])
    }
}

import Reactive
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
        #expect(await early.collect(10) == [0, 1, 2, 3])
        #expect(await late.collect(10) == [2, 3])
    }

    @Test func aRelayWithoutAnInitialValueStartsEmpty() async {
        let relay = DriverRelay<String>(nil)
        #expect(relay.value == nil)
        let stream = relay.driver.subscribe()
        relay.accept("first")
        relay.finish()
        #expect(await stream.collect(10) == ["first"])
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
        #expect(await stream.collect(2) == [7, 8])
        #expect(await consumer.collect(3) == [0, 7, 8])
    }

    @Test func theProxysDriverFinishesWithItsObject() async {
        var toy: Toy? = Toy()
        let driver = toy?.rx.proxy.driver(.ticks)
        let consumer = driver?.subscribe()
        toy?.tick(1)
        toy = nil
        #expect(await consumer?.collect(10) == [1])
    }
}

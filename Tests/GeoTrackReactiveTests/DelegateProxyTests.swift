import GeoTrackTesting
import GeoTrackReactive
import Testing

@MainActor
@Suite struct GenericDelegateProxyTests {
    @Test func installingKeepsTheDelegateAndForwardsEverything() async {
        let toy = Toy()
        let recorder = ToyRecorder()
        toy.delegate = recorder
        let a = toy.rx.ticks
        let b = toy.rx.ticks
        #expect(toy.rx.proxy.forwardToDelegate === recorder)
        #expect(toy.delegate === recorder)
        for value in 1...3 { toy.tick(value) }
        toy.reset()
        #expect(recorder.ticks == [1, 2, 3])
        #expect(recorder.resets == 1)
        #expect(await a.firstElements(3) == [1, 2, 3])
        #expect(await b.firstElements(3) == [1, 2, 3])
    }

    @Test func settingTheDelegateLaterRetargetsTheForwardDelegate() async {
        let toy = Toy()
        let proxy = toy.rx.proxy
        let stream = toy.rx.ticks
        let first = ToyRecorder()
        toy.delegate = first
        toy.tick(1)
        let second = ToyRecorder()
        toy.delegate = second
        toy.tick(2)
        #expect(toy.rx.proxy === proxy)
        #expect(first.ticks == [1])
        #expect(second.ticks == [2])
        #expect(await stream.firstElements(2) == [1, 2])
    }

    @Test func forwardDelegateIsWeak() {
        let toy = Toy()
        _ = toy.rx.proxy
        weak var weakRecorder: ToyRecorder?
        do {
            let recorder = ToyRecorder()
            weakRecorder = recorder
            toy.delegate = recorder
        }
        #expect(weakRecorder == nil)
        #expect(toy.delegate == nil)
        toy.tick(1) // no crash with the delegate gone
    }

    @Test func deallocatingTheParentFinishesStreamsAndFreesTheProxy() async {
        weak var weakToy: Toy?
        weak var weakProxy: ToyDelegateProxy?
        var stream: EventStream<Int>?
        do {
            let toy = Toy()
            weakToy = toy
            weakProxy = toy.rx.proxy
            stream = toy.rx.ticks
            toy.tick(7)
        }
        #expect(weakToy == nil)
        #expect(weakProxy == nil)
        // The buffered event, then the end.
        #expect(await stream?.firstElements(10) == [7])
    }

    @Test func aProxyTheAppHoldsFinishesItsStreamsWithTheParent() async {
        var toy: Toy? = Toy()
        // The app keeps the proxy (to observe it), as the docs suggest.
        let proxy = toy?.rx.proxy
        let stream = toy?.rx.ticks
        toy?.tick(3)
        toy = nil
        #expect(proxy?.parentObject == nil)
        // The buffered event, then the end: the loop does not wait forever.
        #expect(await stream?.firstElements(10) == [3])
        #expect(await proxy?.events(.ticks).firstElements(10) == [])
    }

    @Test func eachIteratorOfAStreamIsASubscriptionOfItsOwn() async {
        let toy = Toy()
        let ticks = toy.rx.ticks
        var first = ticks.makeAsyncIterator()
        var second = ticks.makeAsyncIterator()
        toy.tick(1)
        toy.tick(2)
        // Both see both events: two iterators never split one buffer.
        #expect(await first.next() == 1)
        #expect(await second.next() == 1)
        #expect(await first.next() == 2)
        #expect(await second.next() == 2)
        // A later iterator receives what is sent from its own start on.
        var third = ticks.makeAsyncIterator()
        toy.tick(3)
        #expect(await third.next() == 3)
        #expect(await first.next() == 3)
    }

    @Test func boundedBufferKeepsTheNewestAndCountsDrops() async {
        let toy = Toy()
        let slow = toy.rx.ticks
        for value in 1...10 { toy.tick(value) }
        let fast = toy.rx.ticks
        toy.tick(11)
        #expect(toy.rx.proxy.droppedEventCount == 7) // 11 events into a buffer of 4
        #expect(await slow.firstElements(4) == [8, 9, 10, 11])
        #expect(await fast.firstElements(1) == [11])
    }

    @Test func subscribingAfterTheProxyFinishedEndsAtOnce() async {
        let toy = Toy()
        toy.rx.proxy.finishStreams()
        #expect(await toy.rx.ticks.firstElements(1).isEmpty)
    }
}

@Suite struct BroadcasterTests {
    @Test func cancellationUnsubscribesAndOthersContinue() async {
        let broadcaster = Broadcaster<Int>(bufferLimit: 8)
        let a = broadcaster.subscribe()
        let b = broadcaster.subscribe()
        let cancelled = Task { await a.firstElements(100) }
        #expect(broadcaster.subscriberCount == 2)
        cancelled.cancel()
        _ = await cancelled.value
        #expect(broadcaster.subscriberCount == 1)
        broadcaster.send(1)
        broadcaster.finish()
        #expect(await b.firstElements(10) == [1])
    }

    @Test func discardedStreamIsReleased() {
        let broadcaster = Broadcaster<Int>()
        do {
            _ = broadcaster.subscribe()
        }
        #expect(broadcaster.subscriberCount == 0)
    }

    @Test func startingValueComesFirst() async {
        let broadcaster = Broadcaster<String>()
        let stream = broadcaster.subscribe(startingWith: "now")
        broadcaster.send("next")
        #expect(await stream.firstElements(2) == ["now", "next"])
    }
}

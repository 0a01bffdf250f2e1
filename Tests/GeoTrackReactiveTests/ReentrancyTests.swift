import Foundation
import GeoTrackTesting
import GeoTrackReactive
import Synchronization
import Testing

/// No lock is held while an observer runs or a replay is delivered: observers may observe,
/// subscribe, cancel and send from inside their callbacks, and ordering holds without the lock.
@Suite struct ReentrancyTests {
    @Test("observing a Driver from inside another observer's callback works (it trapped: recursive lock)")
    func observeInsideObserver() {
        let outer = DriverRelay(1)
        let inner = DriverRelay("a")
        let seen = Mutex<[String]>([])
        let nested = Mutex<[ObservationToken]>([])
        let observation = outer.driver.observe { value in
            // Observing a replaying driver calls this closure's caller back with its latest value at once.
            let child = inner.driver.observe { text in seen.withLock { $0.append("\(value)\(text)") } }
            nested.withLock { $0.append(child) }
            // And the driver being delivered from can be observed again from here, too.
            let again = outer.driver.observe { number in seen.withLock { $0.append("again\(number)") } }
            nested.withLock { $0.append(again) }
        }
        outer.accept(2)
        inner.accept("b")
        observation.cancel()
        let all = seen.withLock { $0 }
        // Each nested observer got its replay at once, then every later value; the order between
        // observers registered from inside a replay is not promised, only that nothing is lost.
        #expect(all.prefix(2) == ["1a", "again1"])
        for expected in ["2a", "again2", "1b", "2b"] { #expect(all.contains(expected), "\(expected) missing from \(all)") }
        nested.withLock { $0.removeAll() }
    }

    @Test("an observer may cancel itself, subscribe, and send to its own broadcaster")
    func cancelSubscribeAndSendInside() async {
        let broadcaster = Broadcaster<Int>(replaysLatest: true)
        let received = Mutex<[Int]>([])
        let selfObservation = Mutex<ObservationToken?>(nil)
        let stream = Mutex<EventStream<Int>?>(nil)
        let observation = broadcaster.observe { value in
            received.withLock { $0.append(value) }
            if value == 1 {
                stream.withLock { $0 = broadcaster.subscribe() }
                broadcaster.send(2)
            }
            if value == 2 { selfObservation.withLock { $0?.cancel() } }
        }
        selfObservation.withLock { $0 = observation }
        broadcaster.send(1)
        broadcaster.send(3)
        broadcaster.finish()
        // 1, then the 2 it sent from inside; cancelled on 2, so 3 never arrives.
        #expect(received.withLock { $0 } == [1, 2])
        let subscribed = stream.withLock { $0 }
        #expect(await subscribed?.firstElements(10) == [1, 2, 3])
    }

    @Test("a replay is never overtaken by an element sent at the same time from another thread")
    func replayOrderUnderConcurrentSends() async {
        let broadcaster = Broadcaster<Int>(bufferLimit: 100_000, replaysLatest: true)
        broadcaster.send(0)
        let sender = Thread {
            for value in 1...20_000 { broadcaster.send(value) }
        }
        sender.start()
        var checked = 0
        while checked < 200 {
            let values = Mutex<[Int]>([])
            let observation = broadcaster.observe { value in values.withLock { $0.append(value) } }
            observation.cancel()
            let seen = values.withLock { $0 }
            #expect(seen == seen.sorted() && Set(seen).count == seen.count, "out of order: \(seen.prefix(10))")
            checked += 1
        }
        while broadcaster.latest != 20_000 { await Task.yield() }
    }
}

import Foundation
import GeoTrackTesting
import GeoTrackReactive
import Synchronization
import Testing

/// An upstream that counts how often it is subscribed, fed by the test.
final class CountingUpstream: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = any Error

    let subscriptions = Mutex(0)
    let stream: AsyncThrowingStream<Int, any Error>
    let continuation: AsyncThrowingStream<Int, any Error>.Continuation

    init() {
        (stream, continuation) = AsyncThrowingStream.makeStream()
    }

    func makeAsyncIterator() -> AsyncThrowingStream<Int, any Error>.Iterator {
        subscriptions.withLock { $0 += 1 }
        return stream.makeAsyncIterator()
    }
}

@MainActor
@Suite struct DriverTests {
    @Test func consumersShareOneUpstreamAndLateOnesGetTheLatest() async {
        let upstream = CountingUpstream()
        let driver = Driver(upstream, onError: .complete)
        #expect(!driver.isConnected)
        let firstStream = driver.subscribe()
        let secondStream = driver.subscribe()
        #expect(driver.consumerCount == 2)
        let first = Task { await firstStream.firstElements(2) }
        let second = Task { await secondStream.firstElements(2) }
        upstream.continuation.yield(1)
        upstream.continuation.yield(2)
        #expect(await first.value == [1, 2])
        #expect(await second.value == [1, 2])
        // A late consumer sees the latest value at once, then new ones.
        let lateStream = driver.subscribe()
        let late = Task { await lateStream.firstElements(2) }
        upstream.continuation.yield(3)
        #expect(await late.value == [2, 3])
        #expect(upstream.subscriptions.withLock { $0 } == 1)
        #expect(driver.latest == 3)
    }

    @Test func errorsBecomeTheFallbackValue() async {
        struct Boom: Error {}
        let upstream = CountingUpstream()
        let driver = Driver(upstream, onError: .justReturn(-1))
        let consumer = Task { await driver.firstElements(10) }
        upstream.continuation.yield(5)
        upstream.continuation.finish(throwing: Boom())
        #expect(await consumer.value == [5, -1])
    }

    @Test func errorsCanBeDroppedExplicitly() async {
        struct Boom: Error {}
        let upstream = CountingUpstream()
        let driver = Driver(upstream, onError: .complete)
        let consumer = Task { await driver.firstElements(10) }
        upstream.continuation.yield(5)
        upstream.continuation.finish(throwing: Boom())
        #expect(await consumer.value == [5])
    }

    @Test func driveDeliversOnTheMainActor() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let driver = Driver(stream)
        let received = Mutex<[Int]>([])
        let done = AsyncStream<Void>.makeStream()
        let task = driver.drive { value in
            // Traps (failing the run) when the observer is not on the main actor's executor.
            MainActor.assertIsolated()
            received.withLock { $0.append(value) }
            if value == 3 { done.continuation.yield() }
        }
        // Produced off the main actor; observed on it.
        Task.detached {
            for value in 1...3 { continuation.yield(value) }
        }
        _ = await done.stream.firstElements(1)
        task.cancel()
        #expect(received.withLock { $0 } == [1, 2, 3])
    }

    @Test func justReplaysToEveryConsumer() async {
        let driver = Driver.just("fixed")
        #expect(await driver.firstElements(1) == ["fixed"])
        #expect(await driver.firstElements(1) == ["fixed"])
    }

    @Test func aConsumerKeepsTheDriverItDrivesFromGoing() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let received = Mutex<[Int]>([])
        // The driver itself is a temporary, as in `Driver(sequence).drive { … }`.
        let task = Driver(stream).drive { value in received.withLock { $0.append(value) } }
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish()
        await task.value
        #expect(received.withLock { $0 } == [1, 2])

        // And an iterator of a driver that is not held.
        let (values, feed) = AsyncStream<Int>.makeStream()
        feed.yield(10)
        feed.yield(11)
        feed.finish()
        var iterated: [Int] = []
        for await value in Driver(values) { iterated.append(value) }
        #expect(iterated == [10, 11])
    }

    @Test func theUpstreamIsCancelledOnceTheDriverAndItsConsumersAreGone() async {
        let (upstream, continuation) = AsyncStream<Int>.makeStream()
        let ended = AsyncStream<Void>.makeStream()
        continuation.onTermination = { _ in ended.continuation.yield() }
        var driver: Driver<Int>? = Driver(upstream)
        var stream = driver?.subscribe()
        let token = driver?.observe { _ in }
        continuation.yield(1)
        #expect(await stream?.firstElements(1) == [1])
        driver = nil
        // A stream and a token are still held: the connection stays.
        continuation.yield(2)
        stream = nil
        token?.cancel()
        // The last consumer went: the shared subscription is cancelled.
        _ = await ended.stream.firstElements(1)
        #expect(stream == nil)
    }
}

import GeoTrackTesting
import Synchronization
import Testing
@testable import GeoTrackReactive

/// `BufferedChannel`: a producer that can wait never loses an element; one that cannot loses the
/// oldest beyond the capacity, and the consumer is told how many with the next element.
@Suite(.timeLimit(.minutes(5)))
struct BufferedChannelTests {
    @Test("a waiting producer never outruns a slow consumer: every element arrives, in order, none dropped")
    func waitingProducerLosesNothing() async {
        let channel = BufferedChannel<Int>(capacity: 8, highWater: 4)
        let producer = Task {
            for value in 0..<500 {
                channel.send(value)
                await channel.waitForRoom()
                // Never more than the mark plus the one just sent.
                #expect(channel.count <= 5)
            }
            channel.finish()
        }
        var received: [Int] = []
        while let delivery = await channel.next() {
            #expect(delivery.dropped == 0)
            received.append(delivery.element)
            if received.count.isMultiple(of: 50) { await Task.yield() }
        }
        await producer.value
        #expect(received == Array(0..<500))
        #expect(channel.droppedCount == 0)
    }

    @Test("a producer that cannot wait loses the oldest beyond the capacity; the next element says how many")
    func droppedCountComesWithTheNextElement() async {
        let channel = BufferedChannel<Int>(capacity: 4, highWater: 2)
        for value in 0..<10 { channel.send(value) }
        #expect(channel.droppedCount == 6)
        let first = await channel.next()
        #expect(first?.element == 6 && first?.dropped == 6)
        let second = await channel.next()
        #expect(second?.element == 7 && second?.dropped == 0)
        channel.finish()
        #expect(await channel.next()?.element == 8)
        #expect(await channel.next()?.element == 9)
        #expect(await channel.next() == nil)
    }

    @Test("waiting for room ends when the consumer takes, when the channel ends, or when the producer is cancelled")
    func waitingEnds() async {
        let channel = BufferedChannel<Int>(capacity: 4, highWater: 2)
        channel.send(1)
        channel.send(2)
        let waiting = Task { await channel.waitForRoom() }
        _ = await channel.next()
        await waiting.value

        channel.send(3)
        let cancelled = Task { await channel.waitForRoom() }
        cancelled.cancel()
        await cancelled.value

        let finished = Task { await channel.waitForRoom() }
        channel.finish()
        await finished.value
        #expect(channel.count == 2)
    }

    @Test("cancelling the consumer terminates the channel once: nothing more is kept and the handler runs")
    func consumerCancellationTerminates() async {
        let channel = BufferedChannel<Int>(capacity: 4, highWater: 2)
        let terminations = Mutex(0)
        channel.onTermination { terminations.withLock { $0 += 1 } }
        let consumer = Task { await channel.next() }
        // Parked or not yet: cancelling ends it either way.
        consumer.cancel()
        #expect(await consumer.value == nil)
        channel.send(1)
        #expect(channel.count == 0)
        channel.finish()
        channel.terminate()
        #expect(terminations.withLock { $0 } == 1)
    }

    @Test("a broadcaster's producer that waits for room loses nothing to a slow stream subscriber")
    func broadcasterWaitsForItsSlowestSubscriber() async {
        let broadcaster = Broadcaster<Int>(bufferLimit: 8)
        let fast = broadcaster.subscribe()
        let slow = broadcaster.subscribe()
        let fastSeen = Task { await fast.firstElements(300) }
        let slowSeen = Task {
            var seen: [Int] = []
            for await value in slow {
                seen.append(value)
                await Task.yield()
                if seen.count == 300 { break }
            }
            return seen
        }
        for value in 0..<300 {
            broadcaster.send(value)
            await broadcaster.waitForRoom()
        }
        #expect(await fastSeen.value == Array(0..<300))
        #expect(await slowSeen.value == Array(0..<300))
        #expect(broadcaster.droppedCount == 0)
    }
}

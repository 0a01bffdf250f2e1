import Dispatch
@testable import GPSD
import GPSReports
import Synchronization
import Testing

/// The channel between a session and its consumer, without a gpsd: iteration and queue delivery.
struct GPSDEventChannelTests {
    static let events: [SourceEvent] = [.state(.connecting), .state(.connected), .state(.receiverPresent), .state(.stale)]

    @Test func deliveryOnAQueueKeepsTheOrderAndEndsWithOneNil() async {
        let channel = GPSDEventChannel()
        let ended = Mutex(0)
        channel.onTermination { ended.withLock { $0 += 1 } }
        // Two events wait in the buffer before delivery starts; two come after.
        channel.yield(Self.events[0])
        channel.yield(Self.events[1])
        let received = Mutex<[SourceEvent?]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "test")
            channel.deliver(through: { queue.async(execute: $0) }) { event in
                received.withLock { $0.append(event) }
                if event == nil { done.resume() }
            }
            channel.yield(Self.events[2])
            channel.yield(Self.events[3])
            channel.finish()
            // Ending twice, or terminating after the end, delivers nothing more.
            channel.finish()
            channel.terminate()
        }
        #expect(received.withLock { $0 } == Self.events.map { $0 } + [nil])
        #expect(ended.withLock { $0 } == 1)
    }

    @Test func iterationGetsTheBufferedEventsThenNil() async {
        let channel = GPSDEventChannel()
        for event in Self.events { channel.yield(event) }
        channel.finish()
        var collected: [SourceEvent] = []
        while let event = await channel.next(isolation: nil) { collected.append(event) }
        #expect(collected == Self.events)
    }

    @Test func cancellingTheConsumerEndsTheSession() async {
        let channel = GPSDEventChannel()
        let ended = Mutex(false)
        channel.onTermination { ended.withLock { $0 = true } }
        let consumer = Task { await channel.next(isolation: nil) }
        consumer.cancel()
        #expect(await consumer.value == nil)
        #expect(ended.withLock { $0 })
        // Nothing is delivered after the end.
        channel.yield(Self.events[0])
        #expect(await channel.next(isolation: nil) == nil)
    }
}

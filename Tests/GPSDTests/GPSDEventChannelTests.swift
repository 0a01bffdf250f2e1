import Dispatch
import Foundation
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

    /// Whether a producer thread got through.
    private final class Finished: Sendable {
        private let flag = Mutex(false)
        var isSet: Bool { flag.withLock { $0 } }
        func set() { flag.withLock { $0 = true } }
    }

    /// A producer on a thread of its own, as the session's reader is: yields `count` numbered
    /// events, waiting for room after each, then finishes the channel.
    private static func startProducer(_ count: Int, into channel: GPSDEventChannel) -> Finished {
        let finished = Finished()
        Thread {
            for index in 0..<count {
                channel.yield(.state(.retrying(after: .seconds(index))))
                channel.awaitRoom()
            }
            channel.finish()
            finished.set()
        }.start()
        return finished
    }

    /// Waits for a condition, never for a time; the test's time limit cancels a wait that hangs.
    private static func waitUntil(_ condition: () -> Bool) async {
        while !condition(), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private static func number(_ event: SourceEvent?) -> Int? {
        if case .state(.retrying(let after)) = event { Int(after.components.seconds) } else { nil }
    }

    @Test("an iterator that falls behind holds the producer back at the capacity, then gets every event in order",
          .timeLimit(.minutes(1)))
    func iteratorHoldsBackTheProducer() async {
        let channel = GPSDEventChannel(capacity: 8)
        let done = Self.startProducer(100, into: channel)
        // A channel without the bound takes all 100: the wait ends then too, and fails below.
        await Self.waitUntil { channel.isHoldingBackProducer || channel.pendingCount == 100 }
        #expect(channel.pendingCount == 8)
        var received: [Int] = []
        var most = 0
        while let event = await channel.next(isolation: nil) {
            most = max(most, channel.pendingCount)
            if let number = Self.number(event) { received.append(number) }
        }
        #expect(received == Array(0..<100))
        #expect(most <= 8)
        await Self.waitUntil { done.isSet }
    }

    @Test("a queue that falls behind holds the producer back at the capacity, then gets every event in order",
          .timeLimit(.minutes(1)))
    func deliveryHoldsBackTheProducer() async {
        let channel = GPSDEventChannel(capacity: 8)
        let queue = DispatchQueue(label: "test")
        // The consumer's queue is busy elsewhere: nothing it was posted runs yet.
        queue.suspend()
        let received = Mutex<[Int]>([])
        let most = Mutex(0)
        let done = Mutex<Finished?>(nil)
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            channel.deliver(through: { queue.async(execute: $0) }) { event in
                most.withLock { $0 = max($0, channel.pendingCount) }
                guard let event else { return ended.resume() }
                if let number = Self.number(event) { received.withLock { $0.append(number) } }
            }
            done.withLock { $0 = Self.startProducer(100, into: channel) }
            Task {
                await Self.waitUntil { channel.isHoldingBackProducer || channel.pendingCount == 100 }
                #expect(channel.pendingCount == 8)
                queue.resume()
            }
        }
        #expect(received.withLock { $0 } == Array(0..<100))
        #expect(most.withLock { $0 } <= 8)
        await Self.waitUntil { done.withLock { $0?.isSet == true } }
    }

    @Test("ending the channel lets a held-back producer go on, and it yields nothing more", .timeLimit(.minutes(1)))
    func terminatingReleasesTheProducer() async {
        let channel = GPSDEventChannel(capacity: 4)
        let done = Self.startProducer(1_000, into: channel)
        await Self.waitUntil { channel.isHoldingBackProducer || channel.pendingCount == 1_000 }
        #expect(channel.isHoldingBackProducer)
        channel.terminate()
        await Self.waitUntil { done.isSet }
        #expect(!channel.isHoldingBackProducer)
        #expect(await channel.next(isolation: nil) == nil)
    }
}

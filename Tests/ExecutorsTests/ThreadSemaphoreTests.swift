@testable import Executors
import Synchronization
import Testing

@Suite("Thread semaphore")
struct ThreadSemaphoreTests {
    @Test("a producer and a consumer on threads of their own: every unit signalled is taken once, and a wait blocks until one is there")
    func producerConsumer() async {
        let items = ThreadSemaphore()
        let slots = ThreadSemaphore(value: 4)
        let buffer = Mutex<[Int]>([])
        let taken = Mutex<[Int]>([])
        let count = 10_000
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DetachedThread.startOrRun(name: "consumer") {
                for _ in 0..<count {
                    items.wait()
                    let value = buffer.withLock { $0.removeFirst() }
                    taken.withLock { $0.append(value) }
                    slots.signal()
                }
                done.resume()
            }
            DetachedThread.startOrRun(name: "producer") {
                for value in 0..<count {
                    slots.wait()
                    // At most four wait in the buffer: the producer blocks on the slots.
                    let waiting = buffer.withLock { buffer in
                        buffer.append(value)
                        return buffer.count
                    }
                    precondition(waiting <= 4, "the producer ran past its four slots")
                    items.signal()
                }
            }
        }
        #expect(taken.withLock { $0 } == Array(0..<count))
        #expect(buffer.withLock { $0.isEmpty })
    }
}

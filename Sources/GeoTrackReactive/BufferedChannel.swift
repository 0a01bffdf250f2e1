import Synchronization

/// A buffered channel from producers to one consumer, with back-pressure for producers that can
/// wait and a counted drop for those that cannot.
///
/// Two marks bound the buffer. A producer that can wait (one that pulls its input, as a replay
/// does) calls ``waitForRoom()`` between elements: it returns once the buffer is below the
/// *high-water mark*, so such a producer never loses an element, however slow the consumer.
/// A producer that cannot wait (a live receiver) just sends: when the buffer holds *capacity*
/// elements, the oldest is dropped, counted in ``droppedCount``, and the number dropped is handed
/// to the consumer with the next element it takes (``next()``).
///
/// The consumer's task being cancelled, or its iterator being released, terminates the channel:
/// what is buffered goes, waiting producers resume, and the termination handler runs once.
@usableFromInline
package final class BufferedChannel<Element: Sendable>: Sendable {
    private let state: Mutex<BufferedChannelStateMachine<Element>>

    /// Creates a channel holding at most `capacity` elements; a waiting producer resumes below
    /// `highWater` (at most `capacity`).
    package init(capacity: Int, highWater: Int) {
        state = Mutex(BufferedChannelStateMachine(capacity: capacity, highWater: highWater))
    }

    /// Elements dropped so far because the buffer was full.
    package var droppedCount: Int { state.withLock { $0.droppedCount } }

    /// Whether ``waitForRoom()`` would wait now: the buffer is at its high-water mark or above.
    package var needsRoom: Bool { state.withLock { $0.isAboveHighWater } }

    /// Elements waiting for the consumer.
    package var count: Int { state.withLock { $0.count } }

    /// Calls `handler` once when the channel finishes or its consumer goes away (at once when
    /// that already happened).
    package func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { $0.setOnTermination(handler) }
        now?()
    }

    /// Sends `element`; returns whether the oldest buffered element was dropped to make room.
    @discardableResult
    @usableFromInline
    package func send(_ element: Element) -> Bool {
        switch state.withLock({ $0.send(element) }) {
        case .buffered(let dropped):
            return dropped
        case .resume(let consumer, let delivery):
            consumer.resume(returning: delivery)
            return false
        case .ignored:
            return false
        }
    }

    /// Ends the channel after the buffered elements.
    package func finish() {
        perform(state.withLock { $0.finish() })
    }

    /// Ends the channel now: the consumer went away.
    package func terminate() {
        perform(state.withLock { $0.terminate() })
    }

    private func perform(_ action: BufferedChannelStateMachine<Element>.EndAction) {
        action.consumer?.resume(returning: nil)
        for waiter in action.waiters { waiter.resume() }
        action.onTermination?()
    }

    /// The next element with the number dropped just before it, or `nil` once the channel ended.
    /// Cancelling the calling task terminates the channel. One consumer at a time.
    package func next(isolation actor: isolated (any Actor)? = #isolation) async -> (element: Element, dropped: Int)? {
        switch state.withLock({ $0.next() }) {
        case .deliver(let delivery, let waiters):
            for waiter in waiters { waiter.resume() }
            return delivery
        case .end:
            return nil
        case .wait:
            break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<(element: Element, dropped: Int)?, Never>) in
                if let ended = state.withLock({ $0.suspend(continuation) }) {
                    ended.resume(returning: nil)
                }
            }
        } onCancel: {
            terminate()
        }
    }

    /// Returns once the buffer is below its high-water mark, the channel ended, or the calling
    /// task is cancelled: the pause of a producer that can wait.
    package func waitForRoom() async {
        guard state.withLock({ $0.isAboveHighWater }) else { return }
        let id = state.withLock { $0.makeWaiterID() }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                if let free = state.withLock({ $0.waitForRoom(continuation, id: id) }) {
                    free.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.cancelRoomWaiter(id) }?.resume()
        }
    }
}

@testable import Publishing
import Testing

/// The sender's state machine without a broker: window, order, batching, and what a
/// disconnection does.
struct SenderStateTests {
    @Test("nothing is read before the broker connects; then a full window")
    func waitsForConnection() {
        var state = SenderState(window: 10)
        #expect(state.queued().isEmpty)
        #expect(state.connected() == [.fetch(after: 0, limit: 10)])
    }

    @Test("a short read marks the outbox exhausted until more is queued")
    func exhaustion() {
        var state = SenderState(window: 10)
        _ = state.connected()
        #expect(state.published([(1, 5), (2, 6)], requested: 10).isEmpty)
        #expect(state.cursor == 6)
        #expect(!state.isIdle)
        #expect(state.acknowledged(messageID: 1).isEmpty)
        // The last one in flight acknowledged: both deleted in one batch, and then idle.
        #expect(state.acknowledged(messageID: 2) == [.remove([5, 6])])
        #expect(state.isIdle)
        #expect(state.queued() == [.fetch(after: 6, limit: 10)])
    }

    @Test("a read cut short by the client (closed) is not exhaustion: a wait for delivery goes on, and the rest is read again")
    func interrupted() {
        var state = SenderState(window: 10)
        _ = state.connected()
        #expect(state.published([(1, 5)], requested: 10, interrupted: true).isEmpty)
        #expect(state.acknowledged(messageID: 1) == [.remove([5]), .fetch(after: 5, limit: 10)])
        #expect(!state.isIdle, "messages read after the refused one still wait")
    }

    @Test("dead letters count as read: a batch of only them reads on, and a short one ends the reading")
    func setAside() {
        var state = SenderState(window: 2)
        _ = state.connected()
        #expect(state.published([], requested: 2, setAside: 2) == [.fetch(after: 0, limit: 2)])
        #expect(state.published([], requested: 2, setAside: 1).isEmpty)
        #expect(state.isIdle)
    }

    @Test("acknowledgements refill at half the window, and deletions come in batches")
    func refill() {
        var state = SenderState(window: 4)
        _ = state.connected()
        _ = state.published([(1, 1), (2, 2), (3, 3), (4, 4)], requested: 4)
        #expect(state.acknowledged(messageID: 1).isEmpty)
        #expect(state.acknowledged(messageID: 2) == [.fetch(after: 4, limit: 2)])
        #expect(state.acknowledgedCount == 2)
        #expect(state.acknowledged(messageID: 99).isEmpty)
    }

    @Test("a disconnection deletes what was delivered and stops reading; a reconnection reads again")
    func disconnection() {
        var state = SenderState(window: 4)
        _ = state.connected()
        _ = state.published([(1, 1), (2, 2)], requested: 2)
        _ = state.acknowledged(messageID: 1)
        #expect(state.disconnected() == [.remove([1])])
        #expect(state.queued().isEmpty)
        // Message 2 is still the client's: it sends it again by itself; the read goes past it.
        #expect(state.connected() == [.fetch(after: 2, limit: 3)])
    }
}

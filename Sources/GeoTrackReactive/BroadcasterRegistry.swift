import Synchronization

/// The proxy's broadcasters, one per event, created on first subscription.
@usableFromInline
final class BroadcasterRegistry: Sendable {
    @usableFromInline
    struct Key: Hashable, Sendable {
        @usableFromInline let name: String
        @usableFromInline let type: ObjectIdentifier

        @inlinable
        init(name: String, type: ObjectIdentifier) {
            self.name = name
            self.type = type
        }
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var broadcasters: [Key: any FinishableBroadcaster] = [:]
        @usableFromInline var relays: [Key: any FinishableBroadcaster] = [:]
        @usableFromInline var finished = false
    }

    @usableFromInline let state = Mutex(State())
    private let bufferLimit: Int

    init(bufferLimit: Int) {
        self.bufferLimit = bufferLimit
    }

    func broadcaster<Element: Sendable>(for event: DelegateEvent<Element>) -> Broadcaster<Element> {
        outlet(\.broadcasters, for: event) { Broadcaster<Element>(bufferLimit: bufferLimit) }
    }

    func existing<Element: Sendable>(_ event: DelegateEvent<Element>) -> Broadcaster<Element>? {
        existingOutlets(event).0
    }

    /// The relay that feeds the driver of `event`, created (holding `initial`) on first use.
    func relay<Element: Sendable>(for event: DelegateEvent<Element>, initial: Element?) -> DriverRelay<Element> {
        outlet(\.relays, for: event) { DriverRelay<Element>(initial, bufferLimit: bufferLimit) }
    }

    /// The entry of `table` for `event`, made on first use; already finished when the registry is.
    private func outlet<Element: Sendable, Outlet: FinishableBroadcaster>(
        _ table: WritableKeyPath<State, [Key: any FinishableBroadcaster]>, for event: DelegateEvent<Element>,
        make: () -> Outlet
    ) -> Outlet {
        let key = Key(name: event.name, type: ObjectIdentifier(Element.self))
        let (outlet, finished) = state.withLock { s -> (Outlet, Bool) in
            // The key holds the element type, so an entry under it is an `Outlet`.
            if let existing = s[keyPath: table][key] { return (unsafeDowncast(existing, to: Outlet.self), s.finished) }
            let created = make()
            s[keyPath: table][key] = created
            return (created, s.finished)
        }
        if finished { outlet.finish() }
        return outlet
    }

    /// Where an emitted `event` goes: its streams' broadcaster and its driver's relay, if any.
    ///
    /// The key holds the element type, so what is stored under it has that type: the entries are
    /// downcast without a run-time check, which on every callback cost more than the lookup.
    @inlinable
    func existingOutlets<Element: Sendable>(_ event: DelegateEvent<Element>) -> (Broadcaster<Element>?, DriverRelay<Element>?) {
        let key = Key(name: event.name, type: ObjectIdentifier(Element.self))
        let (broadcaster, relay) = state.withLock { s in
            (s.broadcasters[key].map { $0 as AnyObject }, s.relays[key].map { $0 as AnyObject })
        }
        return (broadcaster.map { unsafeDowncast($0, to: Broadcaster<Element>.self) },
                relay.map { unsafeDowncast($0, to: DriverRelay<Element>.self) })
    }

    var droppedCount: Int {
        let all = state.withLock { Array($0.broadcasters.values) }
        return all.reduce(0) { $0 + $1.droppedCount }
    }

    /// Whether ``waitForRoom()`` would wait now.
    var needsRoom: Bool {
        state.withLock { Array($0.broadcasters.values) }.contains { $0.needsRoom }
    }

    /// Returns once every stream subscriber of every event has room (see ``Broadcaster/waitForRoom()``).
    /// Drivers are not waited for: a driver's consumer wants the latest value, not every one.
    func waitForRoom() async {
        let all = state.withLock { Array($0.broadcasters.values) }
        for broadcaster in all { await broadcaster.waitForRoom() }
    }

    func finishAll() {
        let all = state.withLock { s -> [any FinishableBroadcaster] in
            s.finished = true
            return Array(s.broadcasters.values) + Array(s.relays.values)
        }
        for broadcaster in all { broadcaster.finish() }
    }
}

/// Lets the registry finish broadcasters of any element type.
@usableFromInline
protocol FinishableBroadcaster: AnyObject, Sendable {
    func finish()
    func waitForRoom() async
    var needsRoom: Bool { get }
    var droppedCount: Int { get }
}

extension Broadcaster: FinishableBroadcaster {}

extension DriverRelay: FinishableBroadcaster {}

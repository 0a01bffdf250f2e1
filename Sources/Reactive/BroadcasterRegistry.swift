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
        let key = Key(name: event.name, type: ObjectIdentifier(Element.self))
        let (broadcaster, finished) = state.withLock { s -> (Broadcaster<Element>, Bool) in
            if let existing = s.broadcasters[key] as? Broadcaster<Element> { return (existing, s.finished) }
            let created = Broadcaster<Element>(bufferLimit: bufferLimit)
            s.broadcasters[key] = created
            return (created, s.finished)
        }
        if finished { broadcaster.finish() }
        return broadcaster
    }

    func existing<Element: Sendable>(_ event: DelegateEvent<Element>) -> Broadcaster<Element>? {
        let key = Key(name: event.name, type: ObjectIdentifier(Element.self))
        return state.withLock { $0.broadcasters[key] as? Broadcaster<Element> }
    }

    /// The relay that feeds the driver of `event`, created (holding `initial`) on first use.
    func relay<Element: Sendable>(for event: DelegateEvent<Element>, initial: Element?) -> DriverRelay<Element> {
        let key = Key(name: event.name, type: ObjectIdentifier(Element.self))
        let (relay, finished) = state.withLock { s -> (DriverRelay<Element>, Bool) in
            if let existing = s.relays[key] as? DriverRelay<Element> { return (existing, s.finished) }
            let created = DriverRelay<Element>(initial, bufferLimit: bufferLimit)
            s.relays[key] = created
            return (created, s.finished)
        }
        if finished { relay.finish() }
        return relay
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
    var droppedCount: Int { get }
}

extension Broadcaster: FinishableBroadcaster {}

extension DriverRelay: FinishableBroadcaster {}

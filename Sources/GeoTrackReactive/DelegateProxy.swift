/// A pure-Swift delegate proxy: it stands in as an object's delegate, calls the
/// user's delegate (the *forward delegate*) for every callback, and emits the
/// callback as an event on any number of ``EventStream``s.
///
/// Subclass it and conform to the delegate protocol and ``DelegateProxyType``;
/// implement each callback as `forward(.event, value) { $0.callback(...) }`.
///
/// Lifetime: the parent object owns the proxy (through its ``DelegateSlot``) and the
/// proxy holds the parent weakly, so there is no cycle. When the parent goes away
/// the proxy does too, and every stream finishes; a proxy the app still holds has its streams
/// finished all the same (its ``DelegateSlot`` finishes them as it goes).
///
/// Buffering: each subscriber keeps at most ``bufferLimit`` undelivered events; beyond
/// that its oldest event is dropped and counted in ``droppedEventCount`` (see ``Broadcaster``).
/// A parent that can pause its input (one reading a replay) calls ``waitForRoom()`` between
/// inputs, so no stream subscriber ever falls that far behind.
@MainActor
open class DelegateProxy<ParentObject: AnyObject, Delegate>: DelegateForwarding {
    /// The object whose delegate this proxy is.
    public private(set) weak var parentObject: ParentObject?

    private weak var forwardObject: AnyObject?
    @usableFromInline let registry: BroadcasterRegistry

    /// The most events one subscriber may have waiting before its oldest is dropped.
    public let bufferLimit: Int

    /// Creates a proxy for `parentObject`.
    public init(parentObject: ParentObject, bufferLimit: Int = 128) {
        self.parentObject = parentObject
        self.bufferLimit = bufferLimit
        self.registry = BroadcasterRegistry(bufferLimit: bufferLimit)
    }

    /// The user's delegate, held weakly; it receives every callback before the streams do.
    public var forwardToDelegate: Delegate? {
        get {
            // Most proxies forward to nobody; skip the run-time cast then.
            guard let forwardObject else { return nil }
            return forwardObject as? Delegate
        }
        set { forwardObject = newValue.map { $0 as AnyObject } }
    }

    /// Subscribes to `event` from now on (optionally starting with `initial`).
    public func events<Element: Sendable>(_ event: DelegateEvent<Element>, startingWith initial: Element? = nil) -> EventStream<Element> {
        registry.broadcaster(for: event).subscribe(startingWith: initial)
    }

    /// Observes `event` as a ``Driver``: `initial` (if any) until the event is next emitted,
    /// then each new value; every call for the same event returns the same driver.
    ///
    /// The proxy feeds the driver as it emits, on the main actor, with no task in between;
    /// its ``Driver/latest`` is therefore current as soon as the callback has been made.
    public func driver<Element: Sendable>(_ event: DelegateEvent<Element>, startingWith initial: Element? = nil) -> Driver<Element> {
        registry.relay(for: event, initial: initial).driver
    }

    /// Replaces the latest value of `event`'s driver, if it has one, with `revise` applied to
    /// it, and delivers the revised value to the driver's consumers. No event is emitted on the
    /// streams: nothing new happened, an old value is corrected (as when precision is withdrawn).
    public func reviseDriver<Element: Sendable>(_ event: DelegateEvent<Element>, _ revise: (Element) -> Element) {
        guard let relay = registry.existingOutlets(event).1, let value = relay.value else { return }
        let revised = revise(value)
        relay.accept(revised)
    }

    /// Forgets the latest value of `event`'s driver, if it has one, without emitting anything: a
    /// later consumer starts with the next value (see ``DriverRelay/clear()``).
    public func clearDriver<Element: Sendable>(_ event: DelegateEvent<Element>) {
        registry.existingOutlets(event).1?.clear()
    }

    /// Calls `observer` synchronously on the main actor each time `event` is emitted, right after
    /// the forward delegate, until the returned ``ObservationToken`` is cancelled or deallocated.
    ///
    /// The synchronous counterpart of ``events(_:startingWith:)``, for code that derives state
    /// from the callbacks (as RxSwift's `subscribe(onNext:)` does): no task, no buffer and no
    /// thread wake-up per event. The observer must be quick.
    public func observe<Element: Sendable>(_ event: DelegateEvent<Element>,
                                           _ observer: @escaping @MainActor (Element) -> Void) -> ObservationToken {
        registry.broadcaster(for: event).observe { value in
            // The proxy emits only on the main actor (it is main-actor isolated).
            MainActor.assumeIsolated { observer(value) }
        }
    }

    /// Emits `value` on the streams of `event` without calling the forward delegate.
    @inlinable
    public func emit<Element: Sendable>(_ event: DelegateEvent<Element>, _ value: Element) {
        let (broadcaster, relay) = registry.existingOutlets(event)
        relay?.accept(value)
        broadcaster?.send(value)
    }

    /// Calls the forward delegate with `call`, then emits `value` on the streams of `event`.
    @inlinable
    public func forward<Element: Sendable>(_ event: DelegateEvent<Element>, _ value: Element, _ call: (Delegate) -> Void) {
        if let delegate = forwardToDelegate { call(delegate) }
        emit(event, value)
    }

    /// How many subscribers currently listen to `event`.
    public func subscriberCount<Element: Sendable>(for event: DelegateEvent<Element>) -> Int {
        registry.existing(event)?.subscriberCount ?? 0
    }

    /// Returns once every stream subscriber has room for more events (fewer than half of
    /// ``bufferLimit`` waiting), went away, or the calling task was cancelled. Drivers are not
    /// waited for: their consumers want the latest value.
    public func waitForRoom() async {
        await registry.waitForRoom()
    }

    /// Whether ``waitForRoom()`` would wait now: some stream subscriber has half of
    /// ``bufferLimit`` events or more waiting.
    public var needsRoom: Bool { registry.needsRoom }

    /// Events dropped so far, over every stream, because a subscriber's buffer was full.
    public var droppedEventCount: Int { registry.droppedCount }

    /// Finishes every stream now; later subscriptions get finished streams.
    public func finishStreams() {
        registry.finishAll()
    }

    deinit {
        registry.finishAll()
    }
}

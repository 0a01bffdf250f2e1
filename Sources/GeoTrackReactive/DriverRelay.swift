/// A current value that its owner changes with ``accept(_:)`` and others observe as a ``Driver``,
/// like RxRelay's `BehaviorRelay` and its `asDriver()`.
///
/// Use it where a value is computed as events arrive rather than by transforming one upstream
/// sequence: ``accept(_:)`` sends straight to the driver's consumers, with no task in between.
/// The driver starts with the initial value, replays the latest one to a late consumer, and
/// finishes when the relay is deallocated or ``finish()`` is called.
///
/// A ``DelegateProxy`` keeps one per event that is observed as a driver
/// (``DelegateProxy/driver(_:startingWith:)``), and feeds it as it emits the event.
public final class DriverRelay<Element: Sendable>: Sendable {
    @usableFromInline let broadcaster: Broadcaster<Element>

    /// The driver that observes this relay; every call returns the same one.
    public let driver: Driver<Element>

    /// Creates a relay holding `initial`, or nothing yet when it is nil.
    /// - Parameters:
    ///   - initial: the value a first consumer receives, if any.
    ///   - bufferLimit: each consumer's buffer (see ``Broadcaster``).
    public init(_ initial: Element?, bufferLimit: Int = 16) {
        broadcaster = Broadcaster(bufferLimit: bufferLimit, replaysLatest: true)
        if let initial { broadcaster.send(initial) }
        driver = Driver(storage: DriverStorage(feeding: broadcaster))
    }

    /// Replaces the value and delivers it to every consumer of ``driver``.
    ///
    /// Values reach consumers in the order of `accept` calls; call it from one producer at a
    /// time (an actor, or under a lock).
    @inlinable
    public func accept(_ element: Element) {
        broadcaster.send(element)
    }

    /// Forgets the current value without delivering anything: a later consumer of ``driver``
    /// starts with the next ``accept(_:)``, as for a value that no longer holds (a position
    /// gone stale). Consumers already attached keep what they were given.
    public func clear() {
        broadcaster.forgetLatest()
    }

    /// The current value, once there is one.
    public var value: Element? { broadcaster.latest }

    /// Values dropped because a consumer of ``driver`` fell behind (see ``Broadcaster``).
    @usableFromInline var droppedCount: Int { broadcaster.droppedCount }

    /// Returns at once: a driver's consumer wants the latest value, so a producer never waits
    /// for one (a consumer that falls behind loses older values, counted as ``Broadcaster`` says).
    @usableFromInline func waitForRoom() async {}

    /// Never: see ``waitForRoom()``.
    @usableFromInline var needsRoom: Bool { false }

    /// Ends the driver's streams after their buffered values.
    public func finish() {
        broadcaster.finish()
    }

    deinit {
        broadcaster.finish()
    }
}

extension DriverRelay where Element: Equatable {
    /// Accepts `element` only when it differs from the current value, so the driver never
    /// delivers the same value twice in a row (RxSwift's `distinctUntilChanged`).
    public func acceptIfChanged(_ element: Element) {
        if element != value { accept(element) }
    }
}

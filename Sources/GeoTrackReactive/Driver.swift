/// A stream for driving output (a terminal line, a UI), like RxCocoa's `Driver` trait:
///
/// - it never fails: an upstream error becomes a fallback value or a plain end,
///   as the ``DriverErrorPolicy`` given at creation says;
/// - ``drive(_:)`` calls its observer on the main actor;
/// - all consumers share **one** upstream subscription, made when the first consumer
///   subscribes and kept until the upstream ends, or until the driver and every consumer
///   (stream, iterator, ``drive(_:)`` task, ``observe(_:)`` token) are gone: as in RxSwift, a
///   subscription keeps its chain alive, so `Driver(sequence).drive { … }` goes on driving;
/// - a late consumer first receives the latest value (replay 1), then every new one.
///
/// Each consumer has a bounded buffer (``Broadcaster`` policy: the newest
/// `bufferLimit` values are kept, older ones dropped and counted in ``droppedCount``), so a
/// slow consumer never holds up the producer or the others: a driver is for showing the
/// current value. A consumer that must see every value (to record or count them) reads a
/// stream that its producer waits for, such as a delegate proxy's
/// ``DelegateProxy/events(_:startingWith:)``.
public final class Driver<Element: Sendable>: AsyncSequence, Sendable {
    /// Drivers never fail.
    public typealias Failure = Never
    /// Consumers iterate an ``EventStream``.
    public typealias AsyncIterator = EventStream<Element>.AsyncIterator

    @usableFromInline let storage: DriverStorage<Element>

    /// Shares `upstream`, which cannot fail.
    public convenience init<Upstream: AsyncSequence & Sendable>(_ upstream: Upstream, bufferLimit: Int = 16)
    where Upstream.Element == Element, Upstream.Failure == Never {
        self.init(upstream, onError: .complete, bufferLimit: bufferLimit)
    }

    /// Shares `upstream`; when it fails, `onError` decides what consumers see.
    public init<Upstream: AsyncSequence & Sendable>(_ upstream: Upstream, onError: DriverErrorPolicy<Element>, bufferLimit: Int = 16)
    where Upstream.Element == Element {
        storage = DriverStorage(bufferLimit: bufferLimit) { broadcaster in
            // The shared upstream is read on the global pool, not the main actor: sending only
            // enqueues for the consumers, and on Linux every resumption on the main actor wakes
            // the main queue's thread, which cost several times the work done per value.
            // Consumers on the main actor (``drive(_:)``) still receive every value there.
            Task.detached {
                do {
                    for try await element in upstream {
                        broadcaster.send(element)
                    }
                } catch {
                    if case .justReturn(let fallback) = onError { broadcaster.send(fallback) }
                }
                broadcaster.finish()
            }
        }
    }

    /// A driver over storage fed by a ``DriverRelay``.
    init(storage: DriverStorage<Element>) {
        self.storage = storage
    }

    /// A driver that delivers `value` to every consumer and never changes.
    public static func just(_ value: Element) -> Driver<Element> {
        Driver(Just(value: value))
    }

    /// The latest value, once the upstream produced one.
    @inlinable
    public var latest: Element? { storage.latest }

    /// Whether the single upstream subscription has been made.
    public var isConnected: Bool { storage.isConnected }

    /// How many consumers are attached.
    public var consumerCount: Int { storage.consumerCount }

    /// Values dropped so far, over every consumer, because a consumer fell `bufferLimit`
    /// values behind.
    public var droppedCount: Int { storage.broadcaster.droppedCount }

    /// Subscribes a consumer (connecting the upstream on the first one).
    public func makeAsyncIterator() -> EventStream<Element>.AsyncIterator {
        storage.subscribe().makeAsyncIterator()
    }

    /// Subscribes a consumer now (connecting the upstream on the first one): the stream
    /// starts with the latest value, if any, and keeps the shared connection alive while it
    /// (or an iterator of it) is held.
    public func subscribe() -> EventStream<Element> {
        storage.subscribe()
    }

    /// Calls `observer` synchronously, where each value is produced, with the latest value and
    /// each new one, until the returned ``ObservationToken`` is cancelled or deallocated (the
    /// token keeps the shared connection alive).
    ///
    /// For a consumer that does its own synchronisation and wants no task and no thread wake-up
    /// per value. A driver from a ``DriverRelay`` produces where ``DriverRelay/accept(_:)`` is
    /// called (for a proxy-fed driver, on the main actor); one with an upstream produces on the
    /// global pool. The observer must be quick. Use ``drive(_:)`` to be called on the main actor.
    public func observe(_ observer: @escaping @Sendable (Element) -> Void) -> ObservationToken {
        storage.observe(observer)
    }

    /// Calls `observer` on the main actor with the latest value and each new one.
    ///
    /// The subscription is made before this returns, and the task keeps it alive, however
    /// briefly the driver itself is held. Cancel the returned task to stop.
    @discardableResult
    public func drive(_ observer: @escaping @MainActor (Element) -> Void) -> Task<Void, Never> {
        let stream = storage.subscribe()
        return Task { @MainActor in
            for await element in stream {
                observer(element)
            }
        }
    }
}

/// One value, then the end.
private struct Just<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = Never
    let value: Element

    func makeAsyncIterator() -> Iterator { Iterator(value: value) }

    struct Iterator: AsyncIteratorProtocol {
        var value: Element?
        mutating func next() async -> Element? {
            defer { value = nil }
            return value
        }
        mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            defer { value = nil }
            return value
        }
    }
}

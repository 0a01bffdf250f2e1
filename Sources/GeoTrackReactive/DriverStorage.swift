import Synchronization

/// The shared connection of a ``Driver``.
@usableFromInline
final class DriverStorage<Element: Sendable>: Sendable {
    private enum Connection {
        case idle
        case connecting
        case connected(Task<Void, Never>)
        /// Fed by a relay: there is no upstream task to start or cancel.
        case fed
        case disconnected
    }

    @usableFromInline let broadcaster: Broadcaster<Element>
    private let connection: Mutex<Connection>
    /// Starts the upstream; nil when a relay feeds the broadcaster and there is nothing to start.
    private let connect: (@Sendable (Broadcaster<Element>) -> Task<Void, Never>)?

    init(bufferLimit: Int, connect: @escaping @Sendable (Broadcaster<Element>) -> Task<Void, Never>) {
        self.broadcaster = Broadcaster(bufferLimit: bufferLimit, replaysLatest: true)
        self.connection = Mutex(.idle)
        self.connect = connect
    }

    /// Storage fed from outside (a ``DriverRelay``): always connected, nothing to start.
    init(feeding broadcaster: Broadcaster<Element>) {
        self.broadcaster = broadcaster
        self.connection = Mutex(.fed)
        self.connect = nil
    }

    @inlinable var latest: Element? { broadcaster.latest }
    var consumerCount: Int { broadcaster.subscriberCount }
    var isConnected: Bool {
        connection.withLock {
            switch $0 {
            case .connecting, .connected, .fed: true
            case .idle, .disconnected: false
            }
        }
    }

    /// A consumer's stream; it keeps this storage, and so the shared connection, alive.
    func subscribe() -> EventStream<Element> {
        let stream = broadcaster.subscribe(startingWith: nil, retaining: self)
        connectIfIdle()
        return stream
    }

    /// An observer; its token keeps this storage, and so the shared connection, alive.
    func observe(_ observer: @escaping @Sendable (Element) -> Void) -> ObservationToken {
        let observation = broadcaster.observe(observer)
        connectIfIdle()
        return ObservationToken { [self] in
            withExtendedLifetime(self) { observation.cancel() }
        }
    }

    private func connectIfIdle() {
        guard let connect else { return }
        let shouldConnect = connection.withLock { state -> Bool in
            guard case .idle = state else { return false }
            // Reserve the connection before starting it, so exactly one caller starts it.
            state = .connecting
            return true
        }
        if shouldConnect {
            let task = connect(broadcaster)
            let cancelNow = connection.withLock { state -> Bool in
                if case .disconnected = state { return true }
                state = .connected(task)
                return false
            }
            if cancelNow { task.cancel() }
        }
    }

    /// Ends the shared connection: the driver and every consumer went away.
    deinit {
        disconnect()
    }

    func disconnect() {
        let task = connection.withLock { state -> Task<Void, Never>? in
            defer { state = .disconnected }
            if case .connected(let task) = state { return task }
            return nil
        }
        task?.cancel()
        broadcaster.finish()
    }
}

import Synchronization

/// Keeps a synchronous observer registered (``Broadcaster/observe(_:)``,
/// ``Driver/observe(_:)``, ``DelegateProxy/observe(_:_:)``) until it is cancelled or
/// deallocated, like RxSwift's `Disposable`.
public final class ObservationToken: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Stops observing; later calls do nothing.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        cancel()
    }
}

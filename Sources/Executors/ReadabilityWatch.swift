import CExecutors
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler each time a file descriptor becomes readable, from a thread of its own
/// blocked in `poll(2)`, without Dispatch and without waking in between.
///
/// The watch owns the descriptor: ``cancel()`` wakes the thread through an eventfd, and the
/// thread closes the descriptor as it ends. A watch that is released without ``cancel()``
/// is cancelled then.
public final class ReadabilityWatch: Sendable {
    private let wake: Int32
    private let cancelled = Atomic<Bool>(false)

    /// Starts watching `fd` (non-blocking, so `handler` can drain it); `handler` must read what
    /// is there, or it is called again at once.
    public init(fd: Int32, name: String, handler: @escaping @Sendable () -> Void) {
        let wake = geotrack_eventfd()
        self.wake = wake
        DetachedThread.startOrRun(name: name) { ReadabilityWatch.poll(fd: fd, wake: wake, handler: handler) }
    }

    /// Stops the calls and closes the descriptor (from the watching thread, soon after).
    public func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        guard wake >= 0 else { return }
        _ = geotrack_eventfd_signal(wake)
    }

    deinit {
        cancel()
    }

    private static func poll(fd: Int32, wake: Int32, handler: @Sendable () -> Void) {
        defer {
            close(fd)
            if wake >= 0 { close(wake) }
        }
        guard wake >= 0 else { return }
        var descriptors = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = Glibc.poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                handler()
            } else if descriptors[0].revents != 0 {
                // POLLERR/POLLHUP/POLLNVAL: nothing more will come.
                return
            }
        }
    }
}

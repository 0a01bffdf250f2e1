import Executors
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension AuthorizationStore {
    /// Each new status or accuracy, whenever the decision file or the policy file changes — from this
    /// process or another (`geotrack auth grant`).
    ///
    /// The watch is in place when this returns. It uses inotify on the decision's directory
    /// (created if missing) and on the policy's directory, read by a `ReadabilityWatch` thread:
    /// no polling, no wake-up between changes, and no thread of the cooperative pool blocks.
    /// Only actual changes of status are yielded. The watch ends when the consuming task is cancelled.
    public func changes() throws(LocationError) -> AsyncStream<StoredAuthorization> {
        if let memory { return memory.changes() }
        try ensureDirectory()
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw .stateFolder(path: directory, reason: "cannot watch it for changes: \(String(cString: strerror(errno)))")
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .stateFolder(path: directory, reason: "cannot watch it for changes: \(reason)")
        }
        // The policy directory may not exist (no policy at all); then there is nothing to watch.
        let policyDirectory = policyPath.deletingLastPathComponent
        _ = inotify_add_watch(fd, policyDirectory, mask)

        let (stream, continuation) = AsyncStream.makeStream(of: StoredAuthorization.self, bufferingPolicy: .bufferingNewest(8))
        let last = LastStatus((try? readAuthorization()) ?? StoredAuthorization(.notDetermined))
        // The watch owns `fd` from here, and closes it when cancelled.
        let watch = ReadabilityWatch(fd: fd, name: "geotrack.authorization-watch") { [self] in
            Self.drain(fd)
            // Any change in the directory may be ours; re-reading is cheap and dedupes by status.
            guard let status = try? readAuthorization(), last.replace(with: status) else { return }
            continuation.yield(status)
        }
        continuation.onTermination = { _ in watch.cancel() }
        return stream
    }

    private static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return }
        }
    }
}

/// The status last yielded by a watch.
private final class LastStatus: Sendable {
    private let status: Mutex<StoredAuthorization>

    init(_ status: StoredAuthorization) {
        self.status = Mutex(status)
    }

    /// Stores `new`; returns whether it differs from the previous status.
    func replace(with new: StoredAuthorization) -> Bool {
        status.withLock { old in
            defer { old = new }
            return old != new
        }
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One process's claim on the messages of one destination in an ``Outbox``: while it holds
/// the claim, no other process can take it, so no two processes send one queue. Two would send
/// every message twice, and two MQTT clients with one client id throw each other off the broker.
///
/// Made by ``Outbox/claim(_:)``; held until ``release()``, the claim's release from memory, or
/// the end of the process, however it ends (`kill -9` too): the system drops the lock with it.
public final class OutboxClaim: Sendable {
    /// The outbox key of the messages claimed.
    public let destination: String
    private let outbox: Outbox
    private let released = Atomic(false)

    init(destination: String, outbox: Outbox) {
        self.destination = destination
        self.outbox = outbox
    }

    deinit {
        release()
    }

    /// Lets another process claim the destination. Releasing twice does nothing.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        outbox.releaseClaim(destination)
    }
}

/// The claims an ``Outbox`` holds, under its lock: the lock file's descriptor, opened at the
/// first claim, and the destinations claimed.
struct ClaimTable: ~Copyable {
    var descriptor: Int32 = -1
    var destinations: Set<String> = []

    /// The byte of the lock file that stands for `destination`: FNV-1a of its bytes, which is
    /// the same in every process and release, kept below `off_t`'s maximum.
    static func byte(of destination: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in destination.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash & 0x3fff_ffff_ffff_ffff)
    }

    /// What a lock or unlock of a destination's byte came to.
    enum Outcome {
        case done
        /// Another process holds the byte; its id when the system says it.
        case held(by: pid_t?)
        /// The system refused for this reason (`errno`).
        case failed(Int32)
    }

    /// Locks or unlocks `destination`'s byte (`F_SETLK`, never waiting).
    mutating func lock(_ destination: String, _ type: Int32) -> Outcome {
        var region = Self.region(of: destination, type)
        if fcntl(descriptor, F_SETLK, &region) == 0 { return .done }
        let error = errno
        guard error == EAGAIN || error == EACCES else { return .failed(error) }
        var probe = Self.region(of: destination, Int32(F_WRLCK))
        let known = fcntl(descriptor, F_GETLK, &probe) == 0 && probe.l_type != Int16(F_UNLCK) && probe.l_pid > 0
        return .held(by: known ? probe.l_pid : nil)
    }

    /// The one-byte region that stands for `destination`, for a lock of `type`.
    private static func region(of destination: String, _ type: Int32) -> flock {
        var region = flock()
        region.l_type = Int16(type)
        region.l_whence = Int16(SEEK_SET)
        region.l_start = off_t(byte(of: destination))
        region.l_len = 1
        return region
    }
}

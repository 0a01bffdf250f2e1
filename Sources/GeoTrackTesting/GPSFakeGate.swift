import Executors
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Holds gpsfake's log until a client watches gpsd, then lets it play at gpsfake's own pace.
///
/// gpsfake plays its log at a fixed pace from the moment it adds its receiver, watched or not:
/// a client that subscribes late (its threads starved on a busy machine) misses the start, and
/// when the log is played once, everything. Run with `-i` (`--promptme`), gpsfake waits for a
/// line on its stdin before each sentence, after its `-c` delay; the gate is the other end of
/// that stdin. It sends nothing until gpsd has the receiver open, which gpsd (run by gpsfake
/// without `-n`) does only once a client watches, then as many lines as gpsfake takes: the log
/// then plays at `-c`, from its first sentence, for the first watcher however late it comes.
///
/// A log played once (`-1`) leaves gpsfake spinning on a core once it is done, until its 60 s
/// timeout (on a two-core machine, half of what the tests have): gpsd has closed the receiver
/// at the log's `# EOF` by then. The gate then stops
/// gpsfake (`SIGSTOP`; gpsd, in its own process, stays up and quiet) so the tests keep the core.
///
/// Its thread polls gpsd and writes; ``close()`` ends it, and gpsfake then reads the end of its
/// input.
final class GPSFakeGate: Sendable {
    /// The harness's end of gpsfake's stdin (a socket: a write to it never raises SIGPIPE).
    private let descriptor: Int32
    private let state = Mutex(State())

    private struct State {
        var closed = false
        var opened = false
        var parked = false
        /// Whether ``descriptor`` is still open: the gate's thread closes it when it ends, and
        /// nothing may use the number after (another file may have it by then).
        var descriptorOpen = true
    }

    /// A connected pair: the gate's end, and gpsfake's stdin (which the caller closes once
    /// gpsfake has it). Both are closed on exec.
    static func pair() throws -> (gate: Int32, gpsfake: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw HarnessError("socketpair for gpsfake's stdin: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }

    /// A gate on `descriptor` (its end of ``pair()``, which its thread closes; until ``start(process:port:once:)``,
    /// the caller does).
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Whether a client has watched and the log was let through.
    var isOpen: Bool { state.withLock { $0.opened } }

    /// Starts the gate's thread for gpsfake `process`, whose gpsd listens on `port`; `once`: the
    /// log is played once, and gpsfake is stopped when it spins after it.
    func start(process: ChildProcess, port: Int, once: Bool) {
        DetachedThread.startOrRun(name: "gpsfake gate") { [self] in
            run(process: process, port: port, once: once)
            state.withLock { state in
                Glibc.close(descriptor)
                state.descriptorOpen = false
            }
        }
    }

    /// Ends the gate: gpsfake reads the end of its stdin (and exits, as `SIGTERM` has it do, even
    /// while it waits for a line). A parked gpsfake is continued, so that it can handle the
    /// signal it is sent next.
    func close(process: ChildProcess) {
        let parked = state.withLock { state in
            state.closed = true
            if state.descriptorOpen { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return state.parked
        }
        if parked { kill(process.pid, SIGCONT) }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    private func run(process: ChildProcess, port: Int, once: Bool) {
        // Closed, or gpsfake gone: a poll every 20 ms costs gpsd one ?DEVICES.
        while !isClosed, !process.hasExited, !GPSFake.hasOpenDevice(port: port) {
            usleep(20_000)
        }
        guard state.withLock({ state in
            guard !state.closed else { return false }
            state.opened = true
            return true
        }) else { return }
        let lines = [UInt8](repeating: UInt8(ascii: "\n"), count: 4096)
        var spin = SpinWatch(pid: process.pid)
        while !isClosed {
            let sent = send(descriptor, lines, lines.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent < 0, errno != EAGAIN, errno != EINTR { return }
            // gpsfake takes a line a sentence: it is full; look again in 100 ms.
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if sent < 0 || sent < lines.count { _ = poll(&ready, 1, 100) }
            if once, spin.isSpinning(), !GPSFake.hasOpenDevice(port: port) {
                let parked = state.withLock { state in
                    guard !state.closed else { return false }
                    state.parked = true
                    return true
                }
                if parked { kill(process.pid, SIGSTOP) }
                return
            }
        }
    }
}

/// Whether a process is spinning: over the last half second it used the CPU and never once
/// waited. gpsfake, done with a log it plays once, loops without a blocking call; playing one,
/// it sleeps between sentences (a voluntary context switch each time). Counting waits rather
/// than CPU time holds on a loaded machine, where a spinning process gets only a share of a core.
private struct SpinWatch {
    let pid: pid_t
    private var last: (at: ContinuousClock.Instant, ticks: Int, waits: Int)?

    init(pid: pid_t) {
        self.pid = pid
    }

    mutating func isSpinning() -> Bool {
        guard let ticks = cpuTicks(), let waits = voluntarySwitches() else { return false }
        let now = ContinuousClock.now
        guard let last else {
            self.last = (now, ticks, waits)
            return false
        }
        guard now - last.at >= .milliseconds(500) else { return false }
        self.last = (now, ticks, waits)
        return waits == last.waits && ticks > last.ticks
    }

    /// The process's user and system time in clock ticks, from /proc/PID/stat.
    private func cpuTicks() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// How many times the process has waited (blocked in a call), from /proc/PID/status.
    private func voluntarySwitches() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }) else { return nil }
        return Int(line.dropFirst("voluntary_ctxt_switches:".count).trimmingCharacters(in: .whitespaces))
    }
}

import Executors
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd fed from a log by gpsfake, on a free loopback port: the one harness every suite
/// starts gpsd with.
///
/// `gpsfake -i [-1] -q -P PORT -c CYCLE LOG`: one sentence per cycle, the log read once (`once`;
/// when it ends gpsd reports the device gone and stays up, quiet) or over and over. The log
/// starts when the first client watches, however late (see ``isPlaying``): gpsfake would
/// otherwise play it from the moment gpsd starts, and a client held up on a busy machine missed
/// it. Use it to test your own location code against a real gpsd (package gpsd-clients); the
/// tests' gpsd is ``GPSDInstallation/current``.
///
/// Starting and stopping it never blocks the caller: the waits for gpsd run on a thread of their
/// own, so a main-actor test, or one of the cooperative pool's few threads, is free meanwhile.
public final class GPSFake: Sendable {
    /// Where the tests' gpsfake is: Debian's, or the one under `GEOTRACK_TEST_GPSD_PREFIX`.
    public static var path: String { GPSDInstallation.current.path(of: "gpsfake") }

    /// Whether gpsfake is installed.
    public static var isInstalled: Bool { GPSDInstallation.current.problem == nil }

    /// The loopback port gpsd listens on.
    public let port: Int
    /// gpsfake's process, the leader of its group (gpsfake and its gpsd).
    public let process: ChildProcess
    private let gate: GPSFakeGate
    /// gpsfake's own temporary directory, where its gpsd makes its control socket.
    private let folder: TemporaryDirectory

    /// `127.0.0.1:PORT`, as `--gpsd` takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// Whether a client has watched, and so the log is playing (or played).
    public var isPlaying: Bool { gate.isOpen }

    /// Starts gpsfake on `port` (a free one when `nil`), one sentence every `cycle` seconds once a
    /// client watches, the log played once (`once`) or over and over; returns once gpsd accepts
    /// connections and lists the receiver. gpsd, gpsfake and gpspipe are `installation`'s: the
    /// tests' gpsd unless a test names another.
    ///
    /// A free port is only free when it is chosen: a test running beside this one may take it
    /// (for its own gpsd, or as a connection's local port) before gpsd binds it. gpsd then fails,
    /// and gpsfake exits or never gets its receiver listed; with a port of its own choosing, the
    /// harness then tries another one, up to three times. A port the caller gave is never
    /// changed: gpsfake is started on it again, up to three times, since now and then a gpsd
    /// listens and never lists gpsfake's receiver (seen in a restart test, on its given port).
    public init(log: String, port: Int? = nil, cycle: Double = 0.1, once: Bool = true,
                gpsd installation: GPSDInstallation = .current) async throws {
        if let problem = installation.problem {
            throw HarnessError(problem)
        }
        let started = await DetachedThread.value(name: "gpsfake start") {
            Result { try Self.start(log: log, port: port, cycle: cycle, once: once, installation: installation) }
        }
        let (process, chosen, gate, folder) = try started.get()
        self.process = process
        self.port = chosen
        self.gate = gate
        self.folder = folder
        gate.start(process: process, port: chosen, once: once)
    }

    deinit {
        // A test that did not call stop: gpsfake and its gpsd stop as stop has them, on a thread
        // of their own (deinit may run on the caller's actor).
        let process = process
        let port = port
        gate.close(process: process)
        // Stopped already: its process group may be gone, and its number another group's.
        guard process.exitStatus == nil else { return }
        // The folder goes once gpsd has: the thread holds it.
        DetachedThread.startOrRun(name: "gpsfake stop") { [folder] in
            _ = Self.end(process, signal: SIGTERM, port: port)
            withExtendedLifetime(folder) {}
        }
    }

    /// Stops gpsfake and its gpsd (`SIGKILL` to simulate a crash) and waits until the port
    /// refuses connections, on a thread of its own.
    public func stop(signal: Int32 = SIGTERM) async throws {
        gate.close(process: process)
        let closed = await DetachedThread.value(name: "gpsfake stop") { [process, port] in Self.end(process, signal: signal, port: port) }
        guard closed else { throw HarnessError("gpsd still listens on port \(port) after gpsfake stopped") }
    }

    /// Ends gpsfake and its gpsd, blocking: whether gpsd's port is closed within 10 s.
    ///
    /// `SIGKILL` goes to the whole group. Another signal goes to gpsd alone, and gpsfake, which
    /// watches it, then exits within a cycle: gpsfake's own `SIGTERM` handler can hang for good
    /// (it polls gpsd, and Python's poll answers "running" while the interrupted main loop holds
    /// its lock). Whatever has not exited within a second is killed.
    private static func end(_ process: ChildProcess, signal: Int32, port: Int) -> Bool {
        let daemons = signal == SIGKILL ? [] : children(of: process.pid)
        if daemons.isEmpty {
            process.signalGroup(signal)
        } else {
            for daemon in daemons { kill(daemon, signal) }
        }
        if process.wait(timeout: 1) == nil {
            process.signalGroup(SIGKILL)
            process.waitUntilExit()
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while accepts(port: port) {
            if ContinuousClock.now > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    /// The processes `pid` started (gpsfake's gpsd), from /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return list.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// gpsfake's gpsd never served on the port: it exited, or never listed the receiver.
    private struct PortTaken: Error {
        let message: String
    }

    /// Starts gpsfake, on a free port or `port`, up to three times; blocks its thread.
    private static func start(log: String, port: Int?, cycle: Double, once: Bool,
                              installation: GPSDInstallation) throws -> (ChildProcess, Int, GPSFakeGate, TemporaryDirectory) {
        var attempt = 1
        while true {
            let chosen = try port ?? freePort()
            do {
                let (process, gate, folder) = try start(log: log, port: chosen, cycle: cycle, once: once, installation: installation)
                return (process, chosen, gate, folder)
            } catch let error as PortTaken {
                guard attempt < 3 else { throw HarnessError(error.message + " (three attempts)") }
                attempt += 1
            }
        }
    }

    private static func start(log: String, port: Int, cycle: Double, once: Bool,
                              installation: GPSDInstallation) throws -> (ChildProcess, GPSFakeGate, TemporaryDirectory) {
        // gpsfake names gpsd's control socket TMPDIR/gpsfake-PID.sock, waits until that path
        // exists, then adds its receiver through it, and says nothing when it cannot connect.
        // gpsd never removes the socket, so a shared TMPDIR gathers them, and a gpsfake whose
        // PID an earlier one had finds its socket already there: it connects to a dead socket
        // before its gpsd has made the new one, and gpsd never lists the receiver (reproduced
        // here; the likely cause of a CI run where that happened three times in a row). In a
        // folder of its own, the path exists only once its own gpsd made it, and the folder
        // goes with the harness.
        let folder = try TemporaryDirectory()
        let ends = try GPSFakeGate.pair()
        let gate = GPSFakeGate(descriptor: ends.gate)
        // What gpsfake and gpsd write (`-D 1`: gpsd's errors and warnings; 2 would log every
        // report to every client) goes to a file that only outlives a failed start, so that the
        // error says why: a gpsd that never lists the receiver is rare and never seen here.
        let command = installation.command("gpsfake", ["-i"] + (once ? ["-1"] : [])
            + ["-q", "-D", "1", "-P", String(port), "-c", "\(cycle)", log])
        let said = "\(folder.path)/said.log"
        // gpsd keeps its descriptor; the name goes as soon as the start is decided.
        defer { unlink(said) }
        let spawned = Result {
            try ChildProcess(path: command.executable, arguments: command.arguments, stderrPath: said,
                             environment: ["TMPDIR": folder.path], standardInput: ends.gpsfake)
        }
        close(ends.gpsfake)
        let process: ChildProcess
        do {
            process = try spawned.get()
        } catch {
            close(ends.gate)
            throw error
        }
        func fail(_ error: any Error) -> any Error {
            gate.close(process: process)
            process.signalGroup(SIGKILL)
            process.waitUntilExit()
            close(ends.gate)
            let lines = Self.lastLines(of: said)
            guard !lines.isEmpty else { return error }
            let told = " (gpsfake and gpsd said: " + lines.joined(separator: " | ") + ")"
            if let taken = error as? PortTaken { return PortTaken(message: taken.message + told) }
            return HarnessError("\(error)" + told)
        }
        // gpsd binds 127.0.0.1 and ::1, and serves on whichever it could bind: with 127.0.0.1's
        // port taken it listens on ::1 alone, and the tests (which dial 127.0.0.1) never reach it.
        let listening = waitBlocking(seconds: 30) {
            process.hasExited || accepts(port: port) || Loopback.acceptsOnIPv6(port: port)
        }
        if process.hasExited { throw fail(PortTaken(message: "gpsfake exited before gpsd listened on port \(port)")) }
        if listening, !accepts(port: port) {
            throw fail(PortTaken(message: "gpsd listened on [::1]:\(port) but not on 127.0.0.1:\(port), taken"))
        }
        guard listening else { throw fail(HarnessError("gpsfake did not start gpsd on port \(port) within 30 s")) }
        // gpsd listens before gpsfake has added its receiver. A client that watches in between
        // is told there are no devices, and gpsd 3.22 then never tells it of the one added
        // next: in CI a test saw "devices: []" and nothing else for 30 s. The probe asks with
        // ?DEVICES, which (unlike a watch) does not make gpsd open the receiver while gpsfake
        // adds it. That takes well within a second; CI once saw a gpsd that never listed it.
        let listed = waitBlocking(seconds: 15) { process.hasExited || listsDevice(port: port) }
        if process.hasExited { throw fail(PortTaken(message: "gpsfake exited before gpsd listed its receiver on port \(port)")) }
        guard listed else { throw fail(PortTaken(message: "gpsd on port \(port) listed no receiver from gpsfake within 15 s")) }
        return (process, gate, folder)
    }

    /// The last few lines of the file at `path`, printable ASCII only, for an error message.
    private static func lastLines(of path: String, count: Int = 8) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let text = String(decoding: data.suffix(4096), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).suffix(count)
        return lines.map { line in
            String(line.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        }
    }

    /// Checks `condition` every 20 ms, blocking, until it holds or `seconds` pass.
    private static func waitBlocking(seconds: Int, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}

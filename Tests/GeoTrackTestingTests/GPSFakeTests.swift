import Executors
import Foundation
@testable import GeoTrackTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The harness's gpsd itself: a real gpsfake and gpsd, and a client written here (a socket and
/// gpsd's JSON), so that what is checked is the harness, not a GeoTrack client.
@Suite("GPSFake, the tests' gpsd", .serialized)
struct GPSFakeTests {
    /// The lines gpsd sends a client that watches, from its greeting until `enough` holds for
    /// them or 30 s pass: read on a thread of their own.
    static func watch(port: Int, until enough: @escaping @Sendable ([String]) -> Bool) async -> [String] {
        await DetachedThread.value(name: "test watcher") {
            guard let fd = Loopback.connect(port: port) else { return [] }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
            guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return [] }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now.advanced(by: .seconds(30))
            while ContinuousClock.now < deadline {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 { break }
                if count > 0 { received.append(contentsOf: buffer[0..<count]) }
                let lines = String(decoding: received, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
                if enough(lines) { return lines }
            }
            return String(decoding: received, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        }
    }

    /// gpsfake's process state from /proc (`T`: stopped), or nil once it is gone.
    static func state(of pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: end)...].first { $0 != " " }
    }

    @Test("a client that watches after the log's whole length still gets it from its start; gpsfake, done, is parked and gpsd stays up")
    func logWaitsForTheFirstWatcher() async throws {
        // 66 sentences at 0.02 s: gpsfake alone would be done with them in 1.3 s.
        let fake = try await GPSFake(log: try Corpus.path("garmin15x.nmea"), cycle: 0.02)
        // A client held up for longer than that (as a starved one was in CI).
        try await Task.sleep(for: .seconds(3))
        #expect(!fake.isPlaying)

        let lines = await Self.watch(port: fake.port) { lines in
            lines.contains { $0.contains("\"class\":\"DEVICE\"") && $0.contains("\"activated\":0") }
        }
        let times = lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }.compactMap { $0.firstMatch(of: /"time":"([^"]+)"/)?.output.1 }
        // The log's cycles run from 11:32:58 to 11:33:04; gpsd may miss the first while it opens
        // the receiver.
        let first = try #require(times.first, "no fix before the end of the log: \(lines.suffix(5))")
        #expect(first <= "2022-10-18T11:32:59.000Z")
        #expect(times.last == "2022-10-18T11:33:04.000Z")
        #expect(fake.isPlaying)

        // gpsfake, left alone after a log played once, would spin on a core until its 60 s timeout.
        let parked = await waitUntil(timeout: .seconds(60)) { Self.state(of: fake.process.pid) == "T" }
        #expect(parked, "gpsfake is \(String(describing: Self.state(of: fake.process.pid))), not stopped")
        #expect(GPSFake.listsDevice(port: fake.port))

        try await fake.stop()
        #expect(fake.process.hasExited)
        #expect(!GPSFake.accepts(port: fake.port))
    }

    @Test("a looping log plays over and over for a watcher, and stop ends gpsfake and its gpsd")
    func loopingLog() async throws {
        let fake = try await GPSFake(log: try Corpus.path("garmin15x.nmea"), cycle: 0.01, once: false)
        let lines = await Self.watch(port: fake.port) { lines in
            lines.filter { $0.contains("\"time\":\"2022-10-18T11:33:04.000Z\"") && $0.hasPrefix("{\"class\":\"TPV\"") }.count >= 2
        }
        let last = lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") && $0.contains("\"time\":\"2022-10-18T11:33:04.000Z\"") }
        #expect(last.count >= 2, "the log's last cycle came \(last.count) times")
        try await fake.stop()
        #expect(fake.process.hasExited)
        #expect(!GPSFake.accepts(port: fake.port))
    }

    @Test("children start without the harness's GEOTRACK_TEST_ settings, with the test's additions")
    func childEnvironment() {
        let base = ["PATH": "/usr/bin", "GEOTRACK_TEST_GPSD_PREFIX": "/opt/gpsd", "GEOTRACK_TEST_RECORDER": "/x",
                    "GEOTRACK_GPSD_PORT": "2947", "NO_COLOR": "1"]
        let environment = ChildProcess.childEnvironment(base, adding: ["HOME": "/tmp/home", "PATH": "/bin"])
        #expect(environment == ["PATH": "/bin", "GEOTRACK_GPSD_PORT": "2947", "NO_COLOR": "1", "HOME": "/tmp/home"])
    }

    @Test("a program under test has a session of its own, its output captured; a server stays in the test's session")
    func sessions() async throws {
        let underTest = try ChildProcess("/bin/sh", ["-c", "ps -o sid= -p $$; echo oops >&2"])
        #expect(await underTest.waitForExit() == 0)
        #expect(Int32(underTest.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == underTest.pid)
        #expect(underTest.stderr == "oops\n")

        let folder = try TemporaryDirectory()
        let server = try ChildProcess(path: "/bin/sh", arguments: ["-c", "ps -o sid=,pgid= -p $$"], stdoutPath: folder.path + "/out")
        #expect(await server.waitForExit(timeout: .seconds(10)))
        let ids = try String(contentsOfFile: folder.path + "/out", encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(ids == [getsid(0), server.pid])
    }

    @Test("a free port lies below the kernel's ephemeral range, where no outgoing connection can take it, is never one already bound, and is never handed out twice")
    func freePortsAreOutsideTheEphemeralRange() throws {
        let ephemeral = Loopback.ephemeralPorts()
        // Ports this test holds bound on 127.0.0.1, so taken for certain while it runs: the
        // harness must skip them. Binding a returned port afterwards would race with the other
        // suites' servers, which take ports of the same range at the same time.
        var held: [Int: Int32] = [:]
        defer { for descriptor in held.values { close(descriptor) } }
        var generator = SystemRandomNumberGenerator()
        while held.count < 500 {
            let port = Int.random(in: 10_000..<ephemeral.lowerBound, using: &generator)
            guard held[port] == nil else { continue }
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = Loopback.address(port: port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { held[port] = descriptor } else { close(descriptor) }
        }
        var seen: Set<Int> = []
        for _ in 0..<500 {
            let port = try Loopback.freePort()
            #expect(!ephemeral.contains(port))
            #expect(held[port] == nil, "port \(port) is bound by this test")
            #expect(seen.insert(port).inserted, "port \(port) handed out twice")
        }
    }

    @Test("with 127.0.0.1's port taken, gpsd listens on ::1 alone: the harness says so at once instead of waiting 30 s for 127.0.0.1")
    func aPortTakenOnIPv4IsFoundOut() async throws {
        // A socket bound (not listening, no SO_REUSEADDR) to 127.0.0.1:PORT, as a connection's
        // local end is: gpsd's bind there fails, its bind to ::1 succeeds.
        let port = try Loopback.freePort()
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(holder >= 0)
        defer { close(holder) }
        var address = Loopback.address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        do {
            _ = try await GPSFake(log: try Corpus.path("garmin15x.nmea"), port: port)
            Issue.record("gpsfake started on a port whose 127.0.0.1 was taken")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("three attempts"), "\(message)")
            if Loopback.hasIPv6Loopback {
                #expect(message.contains("gpsd listened on [::1]:\(port) but not on 127.0.0.1"), "\(message)")
            } else {
                // No ::1 here (a container without IPv6): gpsd bound nothing, and gpsfake exited.
                #expect(message.contains("exited before gpsd listened"), "\(message)")
            }
        }
    }

    /// Binds and closes a Unix socket at `path`: the dead socket a gpsd leaves behind.
    static func leaveDeadSocket(at path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    @Test("dead control sockets named after the next PIDs in the temporary folder (as gpsd leaves them) do not keep gpsfake's receiver from being listed; gpsfake's own folder goes with it")
    func deadControlSocketsAreNotGpsfakes() async throws {
        // gpsfake would wait for TMPDIR/gpsfake-PID.sock, find one of these, fail to connect
        // to it and never add its receiver. The PIDs the kernel hands out next, threads
        // included; a few thousand covers those the other suites take meanwhile.
        let folder = NSTemporaryDirectory()
        let last = try #require(Int(try String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let limit = try #require(Int(try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        var left: [String] = []
        defer { for path in left { unlink(path) } }
        for offset in 1...4000 {
            let path = "\(folder)/gpsfake-\((last + offset) % limit).sock"
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            if Self.leaveDeadSocket(at: path) { left.append(path) }
        }
        try #require(left.count > 3000)

        let own: String
        do {
            let fake = try await GPSFake(log: try Corpus.path("garmin15x.nmea"))
            #expect(GPSFake.listsDevice(port: fake.port))
            // Its gpsd's control socket lies in a folder of the harness's, not in the shared one.
            let gpsd = try #require(GPSFake.children(of: fake.process.pid).first)
            let arguments = try String(contentsOfFile: "/proc/\(gpsd)/cmdline", encoding: .utf8).split(separator: "\0").map(String.init)
            let control = try #require(arguments.firstIndex(of: "-F").map { arguments[$0 + 1] }, "\(arguments)")
            own = (control as NSString).deletingLastPathComponent
            #expect(own != (folder as NSString).standardizingPath)
            #expect(FileManager.default.fileExists(atPath: control))
            try await fake.stop()
        }
        // The harness's folder goes with the harness.
        let gone = await waitUntil(timeout: .seconds(10)) { !FileManager.default.fileExists(atPath: own) }
        #expect(gone, "\(own) outlived the harness")
    }

    @Test("a gpsfake that fails to start: the error carries what gpsfake and gpsd said")
    func aFailedStartSaysWhy() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-log-\(UUID().uuidString).nmea").path
        do {
            _ = try await GPSFake(log: missing)
            Issue.record("gpsfake started on a log that does not exist")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("gpsfake exited before gpsd"), "\(message)")
            #expect(message.contains("gpsfake and gpsd said:"), "\(message)")
            #expect(message.contains("no such file as \(missing)"), "\(message)")
        }
    }
}


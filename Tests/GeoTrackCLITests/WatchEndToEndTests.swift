import Foundation
import GeoTrackTesting
import Testing

/// `geotrack watch` against a real gpsd (gpsfake), as a person would use it: in a terminal, stopped
/// with Ctrl-C or a signal, recording GPX.
@Suite("watch through a real gpsd", .serialized)
struct WatchEndToEndTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    /// A home with authorization already granted.
    static func grantedHome() async throws -> URL {
        let home = try TestSupport.temporaryDirectory()
        let grant = try await TestSupport.geotrack(["auth", "grant"], home: home)
        #expect(grant.status == 0)
        return home
    }

    static func environment(_ home: URL) -> [String: String] {
        ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "XDG_CONFIG_HOME": home.path, "HOME": home.path]
    }

    /// `geotrack watch` on `gpsd` (with `arguments` more) in a tmux window `width` columns wide.
    static func watch(_ gpsd: GPSFake, home: URL, width: Int, _ arguments: [String] = []) async throws -> TmuxSession {
        try await TmuxSession(width: width, command: [TestSupport.binary, "watch", "--gpsd", gpsd.address] + arguments,
                        environment: environment(home))
    }

    /// A fix's status line: its mode first, then the kind of solution when it is more than
    /// GPS ("3D DGPS  51.5…").
    static func isFixLine(_ line: String) -> Bool {
        (line.hasPrefix("3D ") || line.hasPrefix("2D ")) && line.contains("°")
    }

    @Test("the status line is one line, redrawn in place, never wrapping; Ctrl-C ends it with status 0",
          arguments: [80, 40])
    func statusLine(width: Int) async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let stty = home.appendingPathComponent("stty-after").path
        let session = try await TmuxSession(width: width, command: [TestSupport.binary, "watch", "--gpsd", gpsd.address],
                                      environment: Self.environment(home), afterwards: "stty -a > " + TmuxSession.quote(stty))
        let first = try await session.waitFor("a fix on the status line") { lines in lines.contains(where: Self.isFixLine) }
        let firstFix = try #require(first.first(where: Self.isFixLine))
        // The receiver's time moves on: the same single line must show a later fix.
        let later = try await session.waitFor("the line redrawn with a new fix") { lines in
            lines.count == 1 && Self.isFixLine(lines[0]) && lines[0] != firstFix
        }
        #expect(later.count == 1)
        for _ in 0..<10 {
            let screen = try await session.lines()
            #expect(screen.count == 1, "more than one line: \(screen)")
            for line in screen {
                #expect(line.count <= width - 1, "wider than \(width - 1): \(line)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 30) == 0)
        let after = try await session.lines()
        #expect(after.count == 1 && Self.isFixLine(after[0]), "the last fix stays on screen: \(after)")
        // Echo was off while the line was up (no ^C on it) and is back on afterwards.
        #expect(after.first?.contains("^C") == false)
        let settings = try String(contentsOfFile: stty, encoding: .utf8)
        #expect(settings.contains(" echo ") && !settings.contains("-echo "), "\(settings)")
    }

    @Test("narrowing the window (SIGWINCH) refits the line to the new width")
    func resize() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let session = try await Self.watch(gpsd, home: home, width: 80)
        try await session.waitFor("a wide fix line") { $0.count == 1 && Self.isFixLine($0[0]) && $0[0].count > 40 }
        try await session.resize(width: 40)
        try await session.waitFor("the line refitted to 39 columns") { lines in
            lines.count == 1 && Self.isFixLine(lines[0]) && lines[0].count <= 39
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 5) == 0)
    }

    @Test("Ctrl-Z stops it with the line cleared and the terminal given back; SIGCONT brings the line back")
    func suspendAndResume() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let session = try await Self.watch(gpsd, home: home, width: 80)
        try await session.waitFor("a fix") { $0.contains(where: Self.isFixLine) }
        let pid = try await session.commandPID()
        try await session.send("C-z")
        try await Self.waitForState(pid, stopped: true)
        let stopped = try await session.lines()
        #expect(!stopped.contains(where: Self.isFixLine), "the line is cleared while stopped: \(stopped)")
        kill(pid, SIGCONT)
        try await Self.waitForState(pid, stopped: false)
        try await session.waitFor("the line back after SIGCONT") { $0.count == 1 && Self.isFixLine($0[0]) }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 5) == 0)
    }

    /// Polls /proc/PID/stat until the process is (or is no longer) stopped.
    static func waitForState(_ pid: pid_t, stopped: Bool, timeout: Double = 5,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = stat.split(separator: ")").last?.split(separator: " ").first.map(String.init) ?? ""
            if (state == "T") == stopped { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("process \(pid) is \(stopped ? "not stopped" : "still stopped")", sourceLocation: sourceLocation)
        throw TmuxSession.TmuxError.timeout("process state")
    }

    @Test("devices lists gpsd's receivers; an unreachable gpsd is exit 69")
    func devices() async throws {
        // A log of a minute and a half, so the receiver is still there while the test asks: a
        // short one may end, and gpsd forget its receiver, on a loaded machine.
        let gpsd = try await GPSFake(log: TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/loop.nmea").path, once: false)
        let home = try TestSupport.temporaryDirectory()
        // gpsd lists gpsfake's pseudo-terminal a moment after it listens, and names its driver
        // only once it has recognised a sentence: wait until gpsd itself (gpspipe) says so, so
        // that geotrack and gpspipe are asked about the same, settled receiver.
        var listed: [[String: Any]]?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", "-n", "3", gpsd.address])
            let pipe = try await TestSupport.run(gpspipe.executable, gpspipe.arguments)
            listed = pipe.stdout.split(whereSeparator: \.isNewline).compactMap { line -> [[String: Any]]? in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["class"] as? String == "DEVICES" ? object?["devices"] as? [[String: Any]] : nil
            }.first
            if listed?.first?["driver"] != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let expected = try #require(listed?.first, "gpsd never listed gpsfake's receiver with a driver")
        #expect(expected["driver"] != nil)
        let run = try await TestSupport.geotrack(["devices", "--gpsd", gpsd.address], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("DEVICE") == true)
        #expect(lines.count == 2)
        #expect(lines.last?.contains("/dev/") == true || lines.last?.contains("/tmp/") == true)
        // --json: gpsd's own DEVICE objects, with the path and driver gpspipe -w shows.
        let json = try await TestSupport.geotrack(["devices", "--gpsd", gpsd.address, "--json"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count == 1)
        #expect(objects.first?["class"] as? String == "DEVICE")
        #expect(objects.first?["path"] as? String == expected["path"] as? String)
        #expect(objects.first?["driver"] as? String == expected["driver"] as? String)
        // libgps 3.22 stores the cycle's double over a timespec; the shim reads it back.
        #expect(objects.first?["cycle"] as? Double == expected["cycle"] as? Double)
        #expect(objects.first?["bps"] as? Int == expected["bps"] as? Int)
        let down = try await TestSupport.geotrack(["devices", "--gpsd", "127.0.0.1:9", "--timeout", "2"], home: home)
        #expect(down.status == 69)
        #expect(down.stderr.hasPrefix("geotrack: "))
    }

    @Test("a reader that stops reading (a pipe nobody drains, a terminal paused with Ctrl-S) does not make watch deaf: SIGTERM and SIGINT still end it, with 0",
          arguments: [SIGTERM, SIGINT])
    func signalWhileStandardOutputIsBlocked(_ signal: Int32) async throws {
        let gpsd = try await GPSFake(log: Self.log, cycle: 0.005, once: false)
        let home = try await Self.grantedHome()
        let fifo = home.appendingPathComponent("stuck").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that never reads: the pipe fills, and every write after that waits.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        // One page (F_SETPIPE_SZ, 1031; F_GETPIPE_SZ, 1032): full after a few lines.
        _ = fcntl(reader, 1031, 4096)
        let capacity = fcntl(reader, 1032)
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--json", "--sky"],
                                     environment: Self.environment(home), standardOutput: fifo)
        defer { watch.signalGroup(SIGKILL) }
        var waiting: Int32 = 0
        let filling = await waitUntil(timeout: .seconds(120)) {
            ioctl(reader, UInt(FIONREAD), &waiting) == 0 && waiting > 0
        }
        #expect(filling, "the pipe holds \(waiting) of \(capacity) bytes")
        // gpsd as the clock: once it has sent every client 50 more fixes, watch has tried to write
        // more than the pipe holds, and waits for a reader that never comes.
        let counted = home.appendingPathComponent("gpspipe").path
        let gpspipe = try ChildProcess(path: "/usr/bin/gpspipe", arguments: ["-w", gpsd.address], stdoutPath: counted)
        defer { gpspipe.signalGroup(SIGKILL) }
        let later = await waitUntil(timeout: .seconds(120)) {
            ((try? String(contentsOfFile: counted, encoding: .utf8)) ?? "").components(separatedBy: "\"class\":\"TPV\"").count > 50
        }
        #expect(later)
        watch.signal(signal)
        #expect(await watch.status(within: 30) == 0, "\(watch.stderr)")
    }

    @Test("SIGTERM during a recording: exit 0, and the GPX file is valid (xmllint)")
    func sigtermClosesGPX() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let gpx = home.appendingPathComponent("track.gpx").path
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--gpx", gpx],
                                     environment: Self.environment(home))
        try await Self.waitForPoints(gpx, atLeast: 3)
        watch.signal(SIGTERM)
        #expect(await watch.status(within: 30) == 0, "\(watch.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.hasSuffix("</gpx>\n"))
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx])
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    @Test("--quiet across a gpsd restart: the journal says gpsd is lost, then back, and shows no fix from before as current")
    func quietAcrossRestart() async throws {
        // New Mexico first, then New Zealand: a fix printed after the return is from the new gpsd.
        var gpsd = try await GPSFake(log: Self.log, once: false)
        let port = gpsd.port
        let home = try await Self.grantedHome()
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--quiet"], environment: Self.environment(home))
        defer { watch.signal(SIGKILL) }
        func lines() -> [String] { watch.stderr.split(separator: "\n").map(String.init) }
        func isFix(_ line: String) -> Bool { line.hasPrefix("geotrack: 3D  ") || line.hasPrefix("geotrack: 2D  ") }
        let fixed = await waitUntil(timeout: .seconds(60)) { lines().contains(where: isFix) }
        #expect(fixed, "no fix from the first gpsd: \(watch.stderr)")
        try await gpsd.stop(signal: SIGKILL)
        let lost = await waitUntil(timeout: .seconds(30)) { lines().contains { $0.hasPrefix("geotrack: gpsd unreachable") } }
        #expect(lost, "\(watch.stderr)")
        gpsd = try await GPSFake(log: TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin48.nmea").path,
                                 port: port, once: false)
        // The retry waits out its backoff (at most 30 s) before it finds gpsd back.
        let back = await waitUntil(timeout: .seconds(90)) { lines().contains { $0.contains("reconnected to gpsd") } }
        #expect(back, "gpsd's return was never said: \(watch.stderr)")
        let southern = await waitUntil(timeout: .seconds(60)) { lines().contains { isFix($0) && $0.contains("°S") } }
        #expect(southern, "\(watch.stderr)")
        let all = lines()
        let reconnected = try #require(all.firstIndex { $0.contains("reconnected to gpsd") })
        // After the return, every fix line is the new gpsd's: none repeats New Mexico as current.
        let after = all[reconnected...].filter(isFix)
        #expect(!after.isEmpty && after.allSatisfy { $0.contains("°S") }, "\(all)")
        watch.signal(SIGTERM)
        #expect(await watch.status(within: 30) == 0)
        withExtendedLifetime(gpsd) {}
    }

    @Test("kill -9 during a recording loses no point written, and leaves valid GPX that replays")
    func killLeavesReplayableGPX() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let gpx = home.appendingPathComponent("crash.gpx").path
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--gpx", gpx, "--json"],
                                     environment: Self.environment(home))
        try await Self.waitForPoints(gpx, atLeast: 4)
        // The times of the positions printed. gpsd's TPVs without one have no place in a track:
        // mode 1, and those with a latitude but no time yet (before the receiver sent a date).
        // gpsd sends several TPVs per cycle with the same time; a track holds one point per time.
        let printed = Set(watch.stdout.split(separator: "\n").filter { $0.contains("\"lat\":") && $0.contains("\"time\":") }
            .compactMap { line in line.components(separatedBy: "\"time\":\"").dropFirst().first?.prefix { $0 != "\"" } }).count
        watch.signal(SIGKILL)
        #expect(await watch.status(within: 3) == 128 + SIGKILL)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.hasSuffix("</trkpt>\n</trkseg>\n</trk>\n</gpx>\n"), "\(text.suffix(300))")
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx])
        #expect(lint.status == 0, "\(lint.stderr)")
        let points = text.components(separatedBy: "<trkpt ").count - 1
        // Every fix printed before the kill had been written to the file first, once per time.
        #expect(points >= printed)
        let times = text.components(separatedBy: "<time>").dropFirst(2).map { $0.prefix { $0 != "<" } }
        #expect(Set(times).count == times.count, "two points share a time")
        let replay = try await TestSupport.geotrack(["replay", gpx, "--json"], home: home)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.split(separator: "\n").count == points)
    }

    @Test("--once ends with the first position and exits 0; --timeout with no gpsd fix exits 75 and says why")
    func onceAndTimeout() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let once = try await TestSupport.geotrack(["watch", "--gpsd", gpsd.address, "--once", "--json", "--timeout", "20"], home: home)
        #expect(once.status == 0, "\(once.stderr)")
        // Every TPV gpsd sent is printed, as gpspipe -w prints it; the run ends with the first
        // that is a position, and those before it have none (no fix yet, or no time yet).
        let lines = once.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"class\":\"TPV\"") })
        let positions = lines.filter { $0.contains("\"lat\":") && $0.contains("\"time\":") && !$0.contains("\"mode\":1") }
        #expect(positions.count == 1)
        #expect(lines.last.map(String.init) == positions.first.map(String.init))
        // Nothing listens on port 9: retrying never yields a fix.
        let timeout = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--once", "--timeout", "1"], home: home)
        #expect(timeout.status == 75)
        #expect(timeout.stderr.contains("no fix within 1 s: gpsd was unreachable"), "\(timeout.stderr)")
        let noRetry = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--no-retry"], home: home)
        #expect(noRetry.status == 69)
        #expect(noRetry.stderr.contains("127.0.0.1:9"))
    }

    @Test("--device naming a receiver gpsd does not have: the line and the timeout name it, and point at 'geotrack devices', not at the sky or at attaching one")
    func deviceGPSDDoesNotHave() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        // gpsd answers {"class":"ERROR","message":"No such device as /dev/ttyNOSUCH"} and then
        // sends nothing: no fix can come, and it is not the sky's fault.
        let run = try await TestSupport.geotrack(["watch", "--gpsd", gpsd.address, "--device", "/dev/ttyNOSUCH",
                                                  "--once", "--timeout", "3"], home: home)
        #expect(run.status == 75)
        let lines = run.stdout.split(separator: "\n")
        // gpsd has gpsfake's receiver, only not that one: "attach one" would mislead.
        #expect(lines.last == "gpsd has no receiver /dev/ttyNOSUCH  (geotrack devices lists those it has)", "\(run.stdout)")
        #expect(run.stderr == "geotrack: no fix within 3 s: gpsd has no receiver /dev/ttyNOSUCH; check the --device path ('geotrack devices' lists gpsd's)\n",
                "\(run.stderr)")
    }

    @Test("a receiver gpsd lists but that sends nothing: STALE, and a timeout that says the receiver is silent, not the sky")
    func silentReceiver() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        // gpsfake stopped: gpsd (a process of its own) answers and lists the receiver, which
        // sends nothing, as one unplugged behind a USB adapter or set to the wrong speed does.
        gpsd.process.signal(SIGSTOP)
        defer { gpsd.process.signal(SIGCONT) }
        let home = try await Self.grantedHome()
        let run = try await TestSupport.geotrack(["watch", "--gpsd", gpsd.address, "--once", "--timeout", "8"], home: home)
        #expect(run.status == 75)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.last == "STALE  no recent fix", "\(run.stdout)")
        #expect(run.stderr.contains("no fix within 8 s: the receiver sent nothing"), "\(run.stderr)")
    }

    @Test("on a TERM=dumb terminal, watch prints a plain line per change: no escape sequence, nothing redrawn")
    func dumbTerminal() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try await Self.grantedHome()
        let environment = Self.environment(home).map { "\($0.key)=\($0.value)" }.sorted()
        let command = (["env", "TERM=dumb"] + environment + [TestSupport.binary, "watch", "--gpsd", gpsd.address, "--count", "2"])
            .map(TmuxSession.quote).joined(separator: " ")
        let run = try await TestSupport.run("/usr/bin/script", ["-q", "-e", "-c", "stty cols 80 rows 24; " + command, "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1B}"), "\(run.stdout.debugDescription)")
        // What a pipe gets: each change on a line of its own (the pseudo-terminal ends them in CRLF).
        let lines = run.stdout.split(whereSeparator: \.isNewline)
        #expect(lines.filter { Self.isFixLine(String($0)) }.count >= 1, "\(run.stdout)")
        #expect(lines.first == "connecting to gpsd at \(gpsd.address)")
    }

    static func waitForPoints(_ path: String, atLeast count: Int, timeout: Double = 20,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               text.components(separatedBy: "<trkpt ").count - 1 >= count { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("fewer than \(count) points in \(path) after \(timeout) s", sourceLocation: sourceLocation)
        throw TmuxSession.TmuxError.timeout("GPX points")
    }
}

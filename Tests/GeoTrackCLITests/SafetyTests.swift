import Foundation
import GeoTrackTesting
import GPSD
import GPSReports
import Testing
@testable import GeoTrackCLI

/// Defects a careless or hostile user could hit (issue: nothing lost, nothing hung, nobody let in).
@Suite("Files, values and strings from outside")
struct SafetyTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    /// A copy of the log in a fresh home, so a test may try to destroy it.
    static func copiedLog() throws -> (home: URL, log: String) {
        let home = try TestSupport.temporaryDirectory()
        let copy = home.appendingPathComponent("log.nmea").path
        try FileManager.default.copyItem(atPath: Self.log, toPath: copy)
        return (home, copy)
    }

    @Test("--gpx never writes over the file being replayed, even with --overwrite")
    func gpxOverTheInput() async throws {
        let (home, log) = try Self.copiedLog()
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        for extra in [[], ["--overwrite"]] {
            let run = try await TestSupport.geotrack(["replay", log, "--gpx", log] + extra, home: home)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("geotrack: ") && run.stderr.split(separator: "\n").count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        }
    }

    @Test("--gpx and --svg naming one file are a usage error before anything runs, also under two spellings and with --overwrite")
    func gpxAndSVGOnOneFile() async throws {
        let (home, log) = try Self.copiedLog()
        let kept = home.appendingPathComponent("kept.gpx").path
        let recorded = try await TestSupport.geotrack(["replay", log, "--gpx", kept], home: home)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: kept))
        try FileManager.default.createDirectory(atPath: home.appendingPathComponent("sub").path, withIntermediateDirectories: true)
        for (gpx, svg, extra) in [(kept, kept, ["--overwrite"]), (kept, home.appendingPathComponent("sub/../kept.gpx").path, []),
                                  (home.appendingPathComponent("new.gpx").path, home.appendingPathComponent("./new.gpx").path, [])] {
            let run = try await TestSupport.geotrack(["replay", log, "--gpx", gpx, "--svg", svg] + extra, home: home)
            #expect(run.status == 64, "\(gpx) \(svg): \(run.stderr)")
            #expect(run.stderr.contains("--gpx and --svg name the same file") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == before)
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("new.gpx").path))
    }

    @Test("--overwrite replaces a recording only once a point comes: a run that records nothing leaves the old file whole")
    func overwriteKeepsTheOldUntilAPoint() async throws {
        let (home, log) = try Self.copiedLog()
        let kept = home.appendingPathComponent("kept.gpx").path
        #expect(try await TestSupport.geotrack(["replay", log, "--gpx", kept], home: home).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: kept))
        #expect(String(decoding: before, as: UTF8.self).contains("<trkpt"))
        // gpsd down, and a file that is no log: each fails before a point, and the old file stays.
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let down = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--no-retry", "--gpx", kept, "--overwrite"], home: home)
        #expect(down.status == 69, "\(down.stderr)")
        let junk = home.appendingPathComponent("junk.bin").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
        let notALog = try await TestSupport.geotrack(["replay", junk, "--gpx", kept, "--overwrite"], home: home)
        #expect(notALog.status == 65, "\(notALog.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == before)
        // Nothing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(".geotrack") } == [])
        // A run with points replaces it, with the file's mode.
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let replaced = try await TestSupport.geotrack(["replay", walk, "--gpx", kept, "--overwrite"], home: home)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let after = try String(contentsOfFile: kept, encoding: .utf8)
        #expect(after.contains("<trkpt") && after.hasSuffix("</gpx>\n") && Data(after.utf8) != before)
        let mode = try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test("a run that records no point leaves no new --gpx file: the same command works once gpsd is up or the log is right")
    func noPointNoNewFile() async throws {
        let (home, log) = try Self.copiedLog()
        let track = home.appendingPathComponent("today.gpx").path
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        // gpsd down (a service started before gpsd, with --no-retry), and a file that is no log.
        let down = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--no-retry", "--gpx", track], home: home)
        #expect(down.status == 69, "\(down.stderr)")
        #expect(!FileManager.default.fileExists(atPath: track), "an empty track left behind, which the next run refuses")
        // No picture of nothing either, as gpsd down or with --once and no fix in time.
        let picture = home.appendingPathComponent("today.svg").path
        for arguments in [["--no-retry"], ["--once", "--timeout", "1"]] {
            let run = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--svg", picture] + arguments, home: home)
            #expect(run.status == (arguments == ["--no-retry"] ? 69 : 75), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: picture), "a picture of nothing left behind, which the next run refuses")
        }
        let junk = home.appendingPathComponent("junk.txt").path
        try "no NMEA here\n".write(toFile: junk, atomically: true, encoding: .utf8)
        let notALog = try await TestSupport.geotrack(["replay", junk, "--gpx", track], home: home)
        #expect(notALog.status == 65, "\(notALog.stderr)")
        // Said once, as the run's error: not also as a lost connection stamped with the clock.
        #expect((notALog.stdout + notALog.stderr).components(separatedBy: "holds no NMEA").count == 2,
                "\(notALog.stdout)\(notALog.stderr)")
        #expect(!notALog.stdout.contains("disconnected"), "\(notALog.stdout)")
        #expect(!FileManager.default.fileExists(atPath: track))
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(".geotrack") } == [])
        // The same command, now with data: recorded, with the mode a new file gets.
        let recorded = try await TestSupport.geotrack(["replay", log, "--gpx", track], home: home)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let text = try String(contentsOfFile: track, encoding: .utf8)
        #expect(text.contains("<trkpt") && text.hasSuffix("</gpx>\n"))
        #expect(try FileManager.default.attributesOfItem(atPath: track)[.posixPermissions] as? Int == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(".geotrack") } == [])
    }

    @Test("a track is as private as its owner asks: a new file follows the umask (077: 0600), one replaced keeps its mode")
    func privateTracksStayPrivate() async throws {
        let (home, log) = try Self.copiedLog()
        let path = { (name: String) in home.appendingPathComponent(name).path }
        let mode = { (name: String) in try FileManager.default.attributesOfItem(atPath: path(name))[.posixPermissions] as? Int }
        let environment = ["XDG_STATE_HOME": path("state"), "HOME": home.path]
        let umasked = { (arguments: [String]) in
            try await TestSupport.run("/bin/sh", ["-c", "umask 077 && exec \"$@\"", "sh", TestSupport.binary] + arguments, environment: environment)
        }
        let new = try await umasked(["replay", log, "--gpx", path("new.gpx"), "--svg", path("new.svg")])
        #expect(new.status == 0, "\(new.stderr)")
        #expect(try mode("new.gpx") == 0o600)
        #expect(try mode("new.svg") == 0o600)
        // A private recording replaced under the usual umask stays private; a shared one stays shared.
        for (name, kept) in [("private", 0o600), ("shared", 0o664)] {
            try "old".write(toFile: path(name + ".gpx"), atomically: false, encoding: .utf8)
            try "old".write(toFile: path(name + ".svg"), atomically: false, encoding: .utf8)
            for file in [name + ".gpx", name + ".svg"] {
                try FileManager.default.setAttributes([.posixPermissions: kept], ofItemAtPath: path(file))
            }
            let replaced = try await TestSupport.geotrack(["replay", log, "--gpx", path(name + ".gpx"), "--svg", path(name + ".svg"),
                                                     "--overwrite"], home: home)
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(try String(contentsOfFile: path(name + ".gpx"), encoding: .utf8).contains("<trkpt"))
            #expect(try mode(name + ".gpx") == kept, "\(name).gpx")
            #expect(try mode(name + ".svg") == kept, "\(name).svg")
        }
    }

    @Test("an existing --gpx file is refused unless --overwrite; a symbolic link never followed")
    func existingAndLinkedFiles() async throws {
        let (home, log) = try Self.copiedLog()
        let previous = home.appendingPathComponent("previous.gpx").path
        try "a previous recording".write(toFile: previous, atomically: true, encoding: .utf8)
        let refused = try await TestSupport.geotrack(["replay", log, "--gpx", previous], home: home)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("already exists") && refused.stderr.contains("--overwrite"))
        #expect(try String(contentsOfFile: previous, encoding: .utf8) == "a previous recording")
        // With gpsd down and no retry, the previous recording is left as it was.
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let watch = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--no-retry", "--gpx", previous], home: home)
        #expect(watch.status == 73, "\(watch.stderr)")
        #expect(try String(contentsOfFile: previous, encoding: .utf8) == "a previous recording")

        let target = home.appendingPathComponent("target.txt").path
        try "precious".write(toFile: target, atomically: true, encoding: .utf8)
        let link = home.appendingPathComponent("link.gpx").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = try await TestSupport.geotrack(["replay", log, "--gpx", link, "--overwrite"], home: home)
        #expect(linked.status == 73)
        #expect(linked.stderr.contains("symbolic link"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")

        let replaced = try await TestSupport.geotrack(["replay", log, "--gpx", previous, "--overwrite"], home: home)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: previous, encoding: .utf8).contains("<trkpt"))
    }

    @Test("a named pipe or a socket at the --gpx or --svg name is refused (73) before the run, --overwrite or not: never replaced by a file, never opened to wait for a reader",
          .timeLimit(.minutes(5)),
          arguments: [["replay", "LOG", "--gpx", "OUT"], ["replay", "LOG", "--svg", "OUT"], ["stats", "LOG", "--svg", "OUT"]],
          [false, true])
    func specialFilesAreRefused(command: [String], overwrite: Bool) async throws {
        let (home, log) = try Self.copiedLog()
        let fifo = home.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let socketPath = home.appendingPathComponent("socket").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        for (path, kind) in [(fifo, "a named pipe (FIFO)"), (socketPath, "a socket")] {
            let arguments = command.map { $0 == "LOG" ? log : $0 == "OUT" ? path : $0 } + (overwrite ? ["--overwrite"] : [])
            // The old code's open of the FIFO waited for a reader for good: the test has a limit.
            let run = try await TestSupport.geotrack(arguments, home: home)
            let option = command[2] == "--gpx" ? "GPX" : "SVG"
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr == "geotrack: \(option) file \(path) is \(kind), not a regular file; name a regular file\n")
            var info = stat()
            #expect(lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == (path == fifo ? S_IFIFO : S_IFSOCK), "\(path) was replaced")
        }
    }

    @Test("out-of-range numbers are usage errors (64), not a crash",
          arguments: [["devices", "--timeout", "1e16"], ["watch", "--once", "--timeout", "1e300"],
                      ["replay", "LOG", "--realtime", "--once", "--timeout", "1e300"], ["replay", "LOG", "--speed", "1e-300"],
                      ["replay", "LOG", "--speed", "inf"], ["devices", "--timeout", "nan"]])
    func outOfRange(arguments: [String]) async throws {
        let run = try await TestSupport.geotrack(arguments.map { $0 == "LOG" ? Self.log : $0 }, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("a device path that would smuggle a command to gpsd is refused, from a flag, the environment or the file")
    func devicePaths() async throws {
        #expect(GPSDConfiguration.isValidDevice("/dev/ttyACM0"))
        #expect(GPSDConfiguration.isValidDevice("gpsd://example.org:2947/dev/ttyUSB0"))
        for bad in [#"/dev/x"};?DEVICE={"path":"/dev/y"#, "/dev/tty USB0", "/dev/\u{1B}[2J", ""] {
            #expect(!GPSDConfiguration.isValidDevice(bad), "\(bad)")
        }
        let home = try TestSupport.temporaryDirectory()
        let flag = try await TestSupport.geotrack(["watch", "--device", #"/dev/x"};?DEVICE={"#], home: home)
        #expect(flag.status == 64, "\(flag.stderr)")
        let environment = try await TestSupport.geotrack(["watch", "--once"], home: home,
                                                   environment: ["GEOTRACK_GPSD_DEVICE": "/dev/x\"}\u{1B}[31m"])
        #expect(environment.status == 78, "\(environment.stderr)")
        #expect(!environment.stderr.contains("\u{1B}"))
    }

    @Test("strings from gpsd, logs and configuration reach the terminal without control characters")
    func terminalSafety() throws {
        #expect(Terminal.safe("plain /dev/ttyACM0") == "plain /dev/ttyACM0")
        #expect(Terminal.safe("x\u{1B}]0;owned\u{07}y\u{9B}2J") == "x\\u{1b}]0;owned\\u{7}y\\u{9b}2J")
        // A right-to-left override (or isolate) would turn the rest of the line around: a
        // foreign device named so in the fleet view would show the figures after it reversed.
        #expect(Terminal.safe("car\u{202E}21 km/h") == "car\\u{202e}21 km/h")
        #expect(Terminal.safe("a\u{2067}b\u{2069}c\u{200F}d\u{61C}e\u{2028}f") == "a\\u{2067}b\\u{2069}c\\u{200f}d\\u{61c}e\\u{2028}f")
        #expect(Terminal.safe("Zoë 📱 عربى") == "Zoë 📱 عربى")
        // Invisible characters would make two names look the same.
        #expect(Terminal.safe("car\u{200B}") == "car\\u{200b}")
        #expect(Terminal.safe("\u{FEFF}car\u{2060}") == "\\u{feff}car\\u{2060}")
        #expect(Terminal.safe("👩\u{200D}💻 می\u{200C}خواهم") == "👩\u{200D}💻 می\u{200C}خواهم")
        var device = Device(path: "/dev/\u{1B}[2Jtty")
        device.driver = "u-blox\u{1B}[31m"
        let table = DeviceTable.lines([device]).joined(separator: "\n")
        #expect(!table.contains("\u{1B}"))
        #expect(table.contains("/dev/\\u{1b}[2Jtty"))
        let line = EventLine.render(
            .init(.disconnected(SourceError(.io, message: "gpsd said \u{1B}[2J")), at: Date(timeIntervalSince1970: 0)),
            options: RenderOptions())
        #expect(!line.contains("\u{1B}"))
    }

    @Test("JSON on stdout escapes C1 and DEL too (a terminal obeys UTF-8's CSI and OSC), in every mode and in stats --json, and a JSON reader gets the name back")
    func jsonEscapesEveryControl() async throws {
        let home = try TestSupport.temporaryDirectory()
        let name = "c1\u{9B}2J\u{9D}0;PWN\u{9C}\u{7F}.nmea"
        let log = home.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Self.log, toPath: log)
        for arguments in [["replay", log, "--json"], ["replay", log, "--json", "--count", "2"], ["stats", log, "--json"]] {
            let run = try await TestSupport.geotrack(arguments, home: home)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(!run.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "\(arguments)")
            #expect(run.stdout.contains(#"c1\u009b2J\u009d0;PWN\u009c\u007f.nmea"#), "\(arguments): \(run.stdout.prefix(300))")
            let first = try #require(run.stdout.split(separator: "\n").first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            #expect(object.values.contains { ($0 as? String)?.hasSuffix(name) == true }, "\(arguments)")
        }
    }

    @Test("one rule for JSON in every mode: the same TPVs, those without a position included, fast, paced or counted")
    func oneJSONRule() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("garmin25lp.nmea")
        let fast = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        #expect(fast.stdout.contains("\"mode\":1"))
        let paced = try await TestSupport.geotrack(["replay", log, "--json", "--speed", "1000"], home: home)
        #expect(paced.stdout == fast.stdout)
        let positions = fast.stdout.split(separator: "\n").filter { $0.contains("\"lat\":") && $0.contains("\"time\":") && !$0.contains("\"mode\":1") }
        let counted = try await TestSupport.geotrack(["replay", log, "--json", "--count", String(positions.count)], home: home)
        #expect(counted.stdout == fast.stdout)
    }

    @Test("--no-retry says why it stops and never promises a retry")
    func noRetryMessage() async throws {
        let home = try TestSupport.temporaryDirectory()
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let run = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--no-retry"], home: home)
        #expect(run.status == 69)
        #expect(!run.stdout.contains("retrying") && !run.stderr.contains("retrying"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("127.0.0.1:9"))
    }

    @Test("input that is not NMEA or GPX is a data error (65), on the fast path and through the service")
    func notALog() async throws {
        let home = try TestSupport.temporaryDirectory()
        for arguments in [["replay", "/bin/ls", "--json"], ["replay", "/bin/ls"], ["replay", "/bin/ls", "--json", "--visits"]] {
            let run = try await TestSupport.geotrack(arguments, home: home)
            #expect(run.status == 65, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("no NMEA sentence or GPX track point"))
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        var generator = SystemRandomNumberGenerator()
        let noise = String(decoding: (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }, as: UTF8.self)
        let piped = try await TestSupport.geotrack(["replay", "-", "--json"], home: home, input: noise)
        #expect(piped.status == 65, "\(piped.stderr)")
        // An empty log holds nothing wrong: nothing to print, and success.
        let empty = home.appendingPathComponent("empty.nmea").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try await TestSupport.geotrack(["replay", empty, "--json"], home: home).status == 0)
    }

    @Test("replay stops on SIGTERM or SIGINT even while its input says nothing",
          arguments: [SIGTERM, SIGINT])
    func stalledInputStops(signal: Int32) async throws {
        let home = try TestSupport.temporaryDirectory()
        let fifo = home.appendingPathComponent("quiet.nmea").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that never writes: the replay's read(2) blocks, as on `sleep 30 | geotrack replay -`.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        defer { close(writer) }
        let replay = try ChildProcess(TestSupport.binary, ["replay", fifo, "--json"], environment: ["HOME": home.path])
        // Until the replay has opened the FIFO (its reader thread is then in read(2)), poll /proc.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(replay.pid)/fd"))?.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(replay.pid)/fd/\($0)")) == fifo } ?? false) {
            try await Task.sleep(for: .milliseconds(20))
        }
        // A reader left in read(2) would keep the process for good: the ceiling guards that hang.
        replay.signal(signal)
        #expect(await replay.status(within: 30) == 0, "\(replay.stderr)")
    }

    @Test("--timeout holds whatever the input does: an endless stream of zero bytes ends with 75", .timeLimit(.minutes(5)))
    func timeoutOnEndlessJunk() async throws {
        // Without the timeout the run would never end: the suite's time limit guards that hang.
        let run = try await TestSupport.geotrack(["replay", "/dev/zero", "--once", "--timeout", "1"], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 75, "\(run.stderr)")
    }

    @Test("a reader that goes away (| head -1) ends the run with 0 and a complete GPX file (or none, before a point), not SIGPIPE's 141",
          arguments: [["--json", "--speed", "20", "--gpx", "GPX"], ["--json"], ["--speed", "20"], ["--json", "--gpx", "GPX"]])
    func readerGoesAway(options: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("track.gpx").path
        let log = try Corpus.path("haicom-305N.nmea")
        let command = ([TestSupport.binary, "replay", log] + options.map { $0 == "GPX" ? gpx : $0 })
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let run = try await TestSupport.run("/bin/bash", ["-c", command + #" | head -1 > /dev/null; echo "${PIPESTATUS[0]}""#])
        #expect(run.stdout == "0\n", "\(options): \(run.stdout) \(run.stderr)")
        // No complaint about the pipe: at most the state changes a paced run reports beside JSON.
        let complaints = run.stderr.split(separator: "\n").filter { line in
            !line.hasPrefix("geotrack: ") || ["pipe", "write", "error", "signal"].contains { line.lowercased().contains($0) }
        }
        #expect(complaints.isEmpty, "\(run.stderr)")
        if options.contains("GPX") {
            // head may leave before the first point (the first line is a TPV without a position):
            // then, as for any run that records none, there is no file, and nothing beside it.
            if FileManager.default.fileExists(atPath: gpx) {
                let text = try String(contentsOfFile: gpx, encoding: .utf8)
                #expect(text.hasSuffix("</gpx>\n"))
                #expect(try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx]).status == 0)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix(".geotrack") } == [])
        }
    }

    @Test("a control character in the GPX file's name still makes valid XML")
    func controlCharacterInName() async throws {
        _ = try await TestSupport.replayToGPX(Self.log, named: "ride\u{01}\u{1B}[1m.gpx", home: try TestSupport.temporaryDirectory())
    }
}

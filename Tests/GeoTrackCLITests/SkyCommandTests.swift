import Foundation
import GeoTrackTesting
import Testing
@testable import GeoTrackCLI

/// `geotrack sky` on replays: its snapshot checked against gpsd's own decoding of the log, its
/// usage errors, and the full-screen view in a real terminal (tmux).
@Suite("geotrack sky on replays")
struct SkyCommandTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/quectelLC79D.nmea").path

    /// gpsd's last SKY for `log`, as gpsdecode prints it: PRN → used.
    /// gpsd's last TPV for a log, as gpsdecode prints it.
    static func gpsdLastFix(_ log: String) async throws -> [String: Any] {
        let decoded = try await TestSupport.run("/usr/bin/gpsdecode", [], input: try String(contentsOfFile: log, encoding: .utf8))
        let tpv = try #require(decoded.stdout.split(whereSeparator: \.isNewline).last { $0.contains("\"class\":\"TPV\"") })
        return try #require(try JSONSerialization.jsonObject(with: Data(tpv.utf8)) as? [String: Any])
    }

    static func gpsdSatellites(_ log: String) async throws -> [Int: Bool] {
        let decoded = try await TestSupport.run("/usr/bin/gpsdecode", [], input: try String(contentsOfFile: log, encoding: .utf8))
        let sky = try #require(decoded.stdout.split(whereSeparator: \.isNewline).last { $0.contains("\"class\":\"SKY\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sky.utf8)) as? [String: Any])
        let satellites = try #require(object["satellites"] as? [[String: Any]])
        var result: [Int: Bool] = [:]
        for satellite in satellites {
            let prn = try #require(satellite["PRN"] as? Int)
            result[prn] = (result[prn] ?? false) || (satellite["used"] as? Bool ?? false)
        }
        return result
    }

    /// Every PRN in any of gpsd's SKY reports for `log`.
    static func allSatellites(_ log: String) async throws -> Set<Int> {
        let decoded = try await TestSupport.run("/usr/bin/gpsdecode", [], input: try String(contentsOfFile: log, encoding: .utf8))
        var result = Set<Int>()
        for line in decoded.stdout.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"SKY\"") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            for satellite in object?["satellites"] as? [[String: Any]] ?? [] {
                if let prn = satellite["PRN"] as? Int { result.insert(prn) }
            }
        }
        return result
    }

    /// The table's rows on a screen: PRN → used (● or ○).
    static func tableSatellites(_ lines: [String]) -> [Int: Bool] {
        guard let header = lines.firstIndex(where: { $0.hasSuffix(SatelliteTable.header) }) else { return [:] }
        let start = lines[header].unicodeScalars.count - SatelliteTable.header.unicodeScalars.count
        var result: [Int: Bool] = [:]
        for line in lines[(header + 1)...] {
            let row = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(start)))
            let fields = row.split(separator: " ")
            guard fields.count >= 7, let prn = Int(fields[1]) else { continue }
            result[prn] = (result[prn] ?? false) || row.contains(SkyPlot.usedMark)
        }
        return result
    }

    @Test("without a terminal, the last screen once: the satellites and the fix gpsd decodes from the same log")
    func snapshotMatchesGPSD() async throws {
        let run = try await TestSupport.geotrack(["sky", "--replay", Self.log], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1B}"), "no escape sequences in a file")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 79 })
        let expected = try await Self.gpsdSatellites(Self.log)
        #expect(expected.count >= 15)
        #expect(Self.tableSatellites(lines) == expected)
        #expect(SkyScreenTests.value("Position", in: lines) == "50.04095°N 19.98048°E")
        // HAE from gpsd's geoid model (GGA gives no separation here) and the x/y errors from the
        // used satellites' geometry, as gpsd decodes the same log and as the live view shows them.
        let fix = try await Self.gpsdLastFix(Self.log)
        let metres = { (key: String) -> String in
            guard let value = fix[key] as? Double else { return "missing \(key)" }
            return String(Int(value.rounded()))
        }
        #expect(SkyScreenTests.value("Altitude", in: lines) == "\(metres("altMSL")) m MSL  \(metres("altHAE")) m HAE")
        #expect(SkyScreenTests.value("Error", in: lines)?.hasPrefix("x ±\(metres("epx")) m  y ±\(metres("epy")) m") == true,
                "\(lines)")
        // The last fix's kind, as gpsd's last TPV has it (no status beyond GPS in this log).
        #expect(SkyScreenTests.value("Status", in: lines) == "ended, last: \(fix["mode"] as? Int ?? 0)D fix" && fix["status"] == nil, "\(fix)")
        #expect(SkyScreenTests.value("Receiver", in: lines) == "quectelLC79D.nmea (replay)")
        // Three systems in the log, each named.
        for system in ["GPS", "GLONASS", "Galileo"] {
            #expect(lines.contains { $0.dropFirst(SkyScreen.rightStart).hasPrefix(system + " ") }, "\(system)")
        }
    }

    @Test("without a terminal, the last screen keeps the cycle's altitude and climb when the log ends on a report without them")
    func snapshotKeepsTheCyclesHeight() async throws {
        // garmin48 ends on a GLL, a second after the GGA with the height: gpsd's last TPV has none.
        let log = try Corpus.path("garmin48.nmea")
        let run = try await TestSupport.geotrack(["sky", "--replay", log], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let decoded = try await TestSupport.run("/usr/bin/gpsdecode", [], input: try String(contentsOfFile: log, encoding: .utf8))
        let tpvs = try WatchEndToEndTests.objects(decoded.stdout, class: "TPV")
        #expect(tpvs.last?["altMSL"] == nil, "the log's last report has no height")
        let last = try #require(tpvs.last { $0["altMSL"] != nil && $0["climb"] != nil })
        // Whole metres as the view prints them (printf's rounding: 12.5 is 12).
        let metres = { (key: String) in ((last[key] as? Double).map { String(format: "%.0f", $0) }) ?? "missing \(key)" }
        #expect(SkyScreenTests.value("Altitude", in: lines) == "\(metres("altMSL")) m MSL  \(metres("altHAE")) m HAE", "\(lines)")
        let climb = try #require(last["climb"] as? Double)
        #expect(SkyScreenTests.value("Climb", in: lines)?.hasPrefix("+" + String(format: "%.1f", climb) + " m/s") == true, "\(lines)")
    }

    @Test("usage errors exit 64 with one line", arguments: [
        ["sky", "--realtime"], ["sky", "--speed", "4"], ["sky", "--replay", "x.nmea", "--gpsd", "localhost:2947"],
        ["sky", "--replay", "x.nmea", "--speed", "0"],
    ])
    func usage(arguments: [String]) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.split(whereSeparator: \.isNewline).count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("geotrack sky --help"))
    }

    @Test("a log that is not there exits 66 and says so")
    func missingLog() async throws {
        let run = try await TestSupport.geotrack(["sky", "--replay", "/nonexistent/drive.nmea"], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr == "geotrack: cannot replay /nonexistent/drive.nmea: no such file. Check the path.\n")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test("on a terminal that does not say its size (0×0, as a serial console reports), sky draws at 80×24 as cgps does")
    func terminalWithoutSize() async throws {
        // script(1) with no terminal of its own gives the command a pseudo-terminal nobody sized:
        // TIOCGWINSZ answers 0 rows and 0 columns. Such a view once stayed blank.
        let home = try TestSupport.temporaryDirectory()
        let command = ["env", "-u", "COLUMNS", "-u", "LINES", "TERM=xterm", "HOME=" + home.path,
                       TestSupport.binary, "sky", "--replay", Self.log].map(TmuxSession.quote).joined(separator: " ")
        let run = try await TestSupport.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        // The last screen, printed on the normal screen when the log ends.
        let last = run.stdout.components(separatedBy: ANSI.leaveAlternateScreen).last ?? ""
        let lines = last.replacingOccurrences(of: #"\x{1B}\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
            .components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("Position  50.04095°N 19.98048°E") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasSuffix(SatelliteTable.header) }, "two columns, as at 80 wide")
        #expect(lines.allSatisfy { $0.count <= 79 })
    }

    @Test("on a TERM=dumb terminal, sky writes no escape sequence: a line per change of state while it runs, so it is seen to work, then its last screen, once, as for a pipe")
    func dumbTerminal() async throws {
        let home = try TestSupport.temporaryDirectory()
        let command = ["env", "TERM=dumb", "HOME=" + home.path, TestSupport.binary, "sky", "--replay", Self.log]
            .map(TmuxSession.quote).joined(separator: " ")
        let run = try await TestSupport.run("/usr/bin/script", ["-q", "-e", "-c", "stty cols 80 rows 24; " + command, "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1B}"), "\(run.stdout.prefix(200).debugDescription)")
        #expect(run.stdout.contains("Position  50.04095°N 19.98048°E"), "\(run.stdout)")
        // The terminal shows stderr too: the changes came first, the screen at the end.
        let lines = run.stdout.split(whereSeparator: \.isNewline).map(String.init)
        let replaying = try #require(lines.firstIndex(of: "geotrack: replaying \(Self.log)"), "\(run.stdout)")
        let fixed = try #require(lines.firstIndex { $0.hasPrefix("geotrack: 3D  50.0") }, "\(run.stdout)")
        let screen = try #require(lines.firstIndex { $0.hasPrefix("Position  ") })
        #expect(replaying < fixed && fixed < screen)
        // A pipe gets the screen alone: no line of changes on stderr.
        let piped = try await TestSupport.geotrack(["sky", "--replay", Self.log], home: home)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }

    @Test("sky --replay --realtime in a terminal: the view while it plays, and its last screen stays when the log ends")
    func realtimeInTerminal() async throws {
        // At the recorded pace the log's 29 s play for 29: long enough to be caught playing while
        // the other suites load both cores (at 7× and at 3×, 4 s and 10 s went by before the
        // test's first look at the screen).
        let session = try await TmuxSession(width: 80, height: 24,
                                      command: [TestSupport.binary, "sky", "--replay", Self.log, "--realtime"],
                                      environment: ["HOME": try TestSupport.temporaryDirectory().path])
        let playing = try await session.waitFor("the sky view while the log plays") { lines in
            lines.contains { $0.hasSuffix(SatelliteTable.header) } && lines.contains { $0.hasPrefix("Status    3D fix") }
        }
        #expect(try session.exitStatus() == nil, "caught while playing")
        // The title on the first row: nothing wrapped or scrolled it away.
        #expect(playing.first?.hasPrefix("geotrack sky · ") == true && playing.first?.hasSuffix("Ctrl-C quits") == true)
        #expect(try await session.screen().count == 24)
        #expect(try await session.waitForExit(timeout: 60) == 0)
        let after = try await session.lines()
        #expect(after.contains { $0.hasPrefix("Status    ended") }, "\(after)")
        #expect(after.contains { $0.hasPrefix("Position  50.04095°N 19.98048°E") }, "the last fix stays")
        #expect(after.contains { $0.hasSuffix(SatelliteTable.header) })
        #expect(!after.contains { $0.hasSuffix("Ctrl-C quits") }, "the hint goes with the live view")
    }
}

import Foundation
import GeoTrackTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("replay")
struct ReplayTests {
    static let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    @Test("replay FILE --json: one TPV line per fix (the 6 gpsd reports for this log), exit 0")
    func json() async throws {
        let home = try TestSupport.temporaryDirectory()
        let run = try await TestSupport.geotrack(["replay", Self.log, "--json"], home: home)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"class\":\"TPV\"") && $0.hasSuffix("}") })
        // No authorization needed: the state directory was never written.
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("state").path))
        let stdin = try await TestSupport.geotrack(["replay", "-", "--json"], home: home,
                                             input: try String(contentsOfFile: Self.log, encoding: .utf8))
        #expect(stdin.status == 0)
        #expect(stdin.stdout.split(separator: "\n").count == 6)
    }

    @Test("replay - fed as a receiver sends (gpspipe -r | geotrack replay -): each fix printed as it comes, not at the input's end",
          arguments: [["--json"], ["--json", "--visits"]])
    func pipeFedAsItComes(options: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        func sentences(_ seconds: [Int]) -> [UInt8] {
            Array(seconds.flatMap { second -> [String] in
                let time = String(format: "0900%02d.00", second)
                return [SyntheticLog.sentence("GPRMC,\(time),A,4612.0004,N,00609.0000,E,2.5,90.0,120925,,,A"),
                        SyntheticLog.sentence("GPGGA,\(time),4612.0004,N,00609.0000,E,1,09,0.8,380.0,M,47.9,M,,")]
            }.joined(separator: "\r\n").utf8) + Array("\r\n".utf8)
        }
        var ends: [Int32] = [0, 0]
        // Close-on-exec: the child must not hold the write end, or its input would never end.
        try #require(pipe(&ends) == 0 && fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0)
        let output = home.appendingPathComponent("out.jsonl").path
        let process = try ChildProcess(path: TestSupport.binary, arguments: ["replay", "-"] + options,
                                       stdoutPath: output, stderrPath: home.appendingPathComponent("err").path,
                                       environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                     "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                     "HOME": home.path],
                                       standardInput: ends[0])
        close(ends[0])
        func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        let first = sentences([0, 1, 2])
        #expect(first.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == first.count)
        // The input stays open: before, nothing was printed until 64 reports had come or it ended.
        let shown = await waitUntil(timeout: .seconds(60)) { printed().contains("\"time\":\"2025-09-12T09:00:02.000Z\"") }
        #expect(shown, "the fixes written so far were not printed while the input stayed open: \(printed())")
        let rest = sentences([3, 4])
        #expect(rest.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == rest.count)
        close(ends[1])
        #expect(process.wait(timeout: 60) == 0)
        #expect(printed().split(separator: "\n").count == 4, "\(printed())")
    }

    @Test("XML that is no GPX (KML, an HTML page, Garmin's TCX) is 65 naming its root element, by replay (both paths), replay --gpx and stats; a GPX route stays a GPX")
    func xmlThatIsNoGPX() async throws {
        let home = try TestSupport.temporaryDirectory()
        let documents = [
            ("kml", #"<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><LineString><coordinates>13.4,52.5,0 13.41,52.51,0</coordinates></LineString></Placemark></Document></kml>"#),
            ("html", "<!DOCTYPE html>\n<html><head><title>track</title></head><body><p>not a track</p></body></html>\n"),
            ("TrainingCenterDatabase", #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities><Activity><Lap><Track><Trackpoint><Time>2024-06-01T12:00:00Z</Time><Position><LatitudeDegrees>52.5</LatitudeDegrees><LongitudeDegrees>13.4</LongitudeDegrees></Position></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>"#),
        ]
        for (root, text) in documents {
            let file = home.appendingPathComponent("track.\(root.prefix(4))").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let says = "geotrack: \(file) is an XML document but no GPX (its root element is <\(root)>); convert it to GPX first"
            for arguments in [["replay", file, "--json"], ["replay", file], ["replay", file, "--gpx", home.appendingPathComponent("out.gpx").path],
                              ["stats", file]] {
                let run = try await TestSupport.geotrack(arguments, home: home)
                #expect(run.status == 65, "\(arguments): \(run.stderr)")
                #expect(run.stderr.hasPrefix(says) && run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("out.gpx").path))
        let (route, _, _) = try TestSupport.untimedInputs(in: home)
        let replay = try await TestSupport.geotrack(["replay", route, "--json"], home: home)
        #expect(replay.status == 0 && replay.stderr.isEmpty, "\(replay.stderr)")
    }

    @Test("a missing file or a directory: one line on stderr and nothing else, exit 66, with --json or the status line",
          arguments: ["/nonexistent/track.nmea", "/tmp"], [["--json"], []])
    func missing(path: String, output: [String]) async throws {
        let run = try await TestSupport.geotrack(["replay", path] + output, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 66)
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        #expect(run.stderr.hasPrefix("geotrack: "))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains(path))
    }

    @Test("replay --gpx writes a valid track that replays to the same positions; --count stops early")
    func gpxRoundTrip() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = try await TestSupport.replayToGPX(Self.log, named: "out.gpx", home: home)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == 6)
        #expect(text.contains("<gpxtpx:speed>"))
        let back = try await TestSupport.geotrack(["replay", gpx, "--json"], home: home)
        #expect(back.status == 0)
        #expect(back.stdout.split(separator: "\n").count == 6)
        let counted = try await TestSupport.geotrack(["replay", Self.log, "--json", "--count", "3"], home: home)
        #expect(counted.status == 0)
        #expect(counted.stdout.split(separator: "\n").count == 3)
    }

    @Test("GPX track points with an impossible value are skipped and said so, once, on stderr: by replay (the JSON path and the service's), stats, and sky",
          arguments: [["replay", "FILE", "--json"], ["replay", "FILE", "--gpx", "OUT"], ["stats", "FILE"], ["stats", "FILE", "--json"],
                      ["sky", "--replay", "FILE"]])
    func skippedTrackPointsAreSaid(command: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let track = home.appendingPathComponent("walk.gpx").path
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
        <trkpt lat="52.0" lon="13.0"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="95.0" lon="13.0"><time>2020-01-01T00:00:01Z</time></trkpt>
        <trkpt lat="52.0001" lon="13.0"><time>not a time</time></trkpt>
        <trkpt lat="52.0002" lon="13.0"><time>2020-01-01T00:00:03Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: track, atomically: true, encoding: .utf8)
        func arguments(_ file: String, _ out: String) -> [String] {
            command.map { $0 == "FILE" ? file : $0 == "OUT" ? home.appendingPathComponent(out).path : $0 }
        }
        let run = try await TestSupport.geotrack(arguments(track, "out.gpx"), home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let said = run.stderr.split(separator: "\n").filter { $0.contains("skipped") }
        #expect(said == ["geotrack: skipped 2 track points of \(track) with an impossible or unreadable value (a latitude beyond ±90°, a longitude beyond ±180°, a time or number that is none)"],
                "\(run.stderr)")
        if command.last == "--json", command[0] == "replay" {
            #expect(run.stdout.split(separator: "\n").count == 2)
        }
        // A track with none skipped says nothing of the kind.
        let clean = try await TestSupport.geotrack(arguments(Self.log, "clean.gpx"), home: home)
        #expect(clean.status == 0)
        #expect(!clean.stderr.contains("skipped"), "\(clean.stderr)")
    }

    @Test("a GPX cut short inside a track point (a copy that stopped) is read to its last whole point, and the point left out is said, by replay (both paths) and stats",
          arguments: [["replay", "FILE", "--json"], ["replay", "FILE", "--gpx", "OUT"], ["stats", "FILE", "--json"]])
    func cutShortGPXIsSaid(command: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let whole = try await TestSupport.replayToGPX(Self.log, named: "whole.gpx", home: home)
        let text = try String(contentsOfFile: whole, encoding: .utf8)
        // Cut in the middle of the fourth of its six points.
        let cut = home.appendingPathComponent("cut.gpx").path
        let starts = text.ranges(of: "<trkpt ").map(\.lowerBound)
        try String(text[..<text.index(starts[3], offsetBy: 40)]).write(toFile: cut, atomically: true, encoding: .utf8)
        let arguments = command.map { $0 == "FILE" ? cut : $0 == "OUT" ? home.appendingPathComponent("out.gpx").path : $0 }
        let run = try await TestSupport.geotrack(arguments, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "geotrack: \(cut) ends inside a track point (a copy or a recording cut short?); that point was left out\n")
        if command.last == "--json", command[0] == "replay" { #expect(run.stdout.split(separator: "\n").count == 3, "\(run.stdout)") }
        if command[0] == "stats" { #expect(run.stdout.contains(#""points":3"#), "\(run.stdout)") }
        // The whole track says nothing of the kind.
        let clean = try await TestSupport.geotrack(command.map { $0 == "FILE" ? whole : $0 == "OUT" ? home.appendingPathComponent("clean.gpx").path : $0 },
                                                   home: home)
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
    }

    @Test("GPX points that share a time (an app sampling faster than it writes seconds): replay prints each, and replay --gpx and stats, which keep one per time, say how many",
          arguments: [(["replay", "FILE", "--json"], 4), (["replay", "FILE", "--gpx", "OUT"], 2), (["stats", "FILE", "--json"], 2)])
    func repeatedTimesAreSaid(command: [String], points: Int) async throws {
        let home = try TestSupport.temporaryDirectory()
        let track = home.appendingPathComponent("fast.gpx").path
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
        <trkpt lat="52.0000" lon="13.0"><time>2020-01-01T10:00:00Z</time></trkpt>
        <trkpt lat="52.0005" lon="13.0"><time>2020-01-01T10:00:00Z</time></trkpt>
        <trkpt lat="52.0010" lon="13.0"><time>2020-01-01T10:00:01Z</time></trkpt>
        <trkpt lat="52.0015" lon="13.0"><time>2020-01-01T10:00:01Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: track, atomically: true, encoding: .utf8)
        let out = home.appendingPathComponent("out.gpx").path
        let run = try await TestSupport.geotrack(command.map { $0 == "FILE" ? track : $0 == "OUT" ? out : $0 }, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "geotrack: 2 track points of \(track) have the time of the point before; a GPX track (--gpx) and stats keep one point per time, the last\n")
        switch command[0] {
        case "stats": #expect(run.stdout.contains(#""points":\#(points)"#), "\(run.stdout)")
        case _ where command.contains("--gpx"):
            #expect(try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1 == points)
        default: #expect(run.stdout.split(separator: "\n").count == points, "\(run.stdout)")
        }
    }

    @Test("--quiet: nothing on stdout, and on stderr a line per change of state, not per fix; so for watch with gpsd down")
    func quiet() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("haicom-305N.nmea")
        let run = try await TestSupport.geotrack(["replay", log, "--quiet"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        // 30 fixes, and four changes: replaying, searching, the first fix, the end.
        #expect(lines.count == 4, "\(run.stderr)")
        #expect(lines.first == "geotrack: replaying \(log)" && lines.last == "geotrack: end of \(log)", "\(run.stderr)")
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") })

        try await TestSupport.grantAccess(home: home)
        let down = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:9", "--quiet", "--once", "--timeout", "3"], home: home)
        #expect(down.status == 75, "\(down.stderr)")
        #expect(down.stdout.isEmpty, "\(down.stdout)")
        let said = down.stderr.split(separator: "\n").map(String.init)
        // Each retry is no news: gpsd unreachable once, then the timeout's error.
        #expect(said.filter { $0.contains("gpsd unreachable") }.count == 1, "\(down.stderr)")
        #expect(said.last?.hasPrefix("geotrack: no fix within 3 s: gpsd was unreachable") == true, "\(down.stderr)")
    }

    @Test("--json --sky prints the receiver's GSTs among its TPVs and SKYs, as gpsdecode does; --json alone prints none")
    func errorStatistics() async throws {
        let log = TestSupport.packageRoot.appendingPathComponent("Tests/NMEATests/Logs/gst-fields.nmea").path
        let expected = try String(contentsOfFile: log.replacingOccurrences(of: ".nmea", with: ".jsonl"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"GST""#) }
            .map { $0.replacingOccurrences(of: #""device":"stdin""#, with: #""device":"\#(log)""#) }
        let home = try TestSupport.temporaryDirectory()
        let withSky = try await TestSupport.geotrack(["replay", log, "--json", "--sky"], home: home)
        #expect(withSky.status == 0)
        #expect(withSky.stdout.split(separator: "\n").filter { $0.contains(#""class":"GST""#) }.map(String.init) == expected)
        let plain = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains(#""class":"TPV""#) && !plain.stdout.contains(#""class":"GST""#))
    }

    @Test("without a terminal the status goes out as plain lines without escape codes")
    func plainLines() async throws {
        let run = try await TestSupport.geotrack(["replay", Self.log], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains("3D DGPS  32.6485"))
        #expect(run.stdout.hasSuffix("end of \(Self.log)\n"))
    }

    @Test("--realtime --speed keeps the recorded pace, sped up")
    func paced() async throws {
        let started = Date()
        let run = try await TestSupport.geotrack(["replay", Self.log, "--json", "--speed", "4"], home: try TestSupport.temporaryDirectory())
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 6)
        // Six fixes a second apart take at least 1.25 s at four times the pace: a replay that
        // ignored the pace would end sooner. How much longer a loaded machine takes says nothing
        // (PacingTests hold the schedule itself to a manual clock).
        #expect(elapsed >= 1.25, "took \(elapsed) s")
    }
}

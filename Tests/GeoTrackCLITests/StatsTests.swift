import Foundation
import GeoTrackTesting
import Testing

/// `geotrack stats` and `--stats`: distances checked against GeographicLib, which shares no code
/// with geotrack, on gpsd's own decoding of corpus logs and on a GPX track.
@Suite("Track statistics")
struct StatsTests {
    static let oracle = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Oracles/geodesic_length.py").path

    /// The oracle's point count and distance of `file` (gpsd's TPVs, or a GPX track): the
    /// documented rules written again in Python, on GeographicLib's geodesics.
    static func geodesic(_ file: String) async throws -> (points: Int, metres: Double) {
        let run = try await TestSupport.run("/usr/bin/env", ["python3", oracle, file])
        #expect(run.status == 0, "the oracle failed (is geographiclib installed? make deps installs it): \(run.stderr)")
        let words = run.stdout.split(separator: " ")
        return (Int(words.first ?? "") ?? -1, Double(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .nan)
    }

    /// geotrack's own summary of `file` as JSON.
    static func statistics(_ files: [String], home: URL) async throws -> [[String: Any]] {
        let run = try await TestSupport.geotrack(["stats", "--json"] + files, home: home)
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("the distance of three corpus logs agrees with GeographicLib on gpsd's own fixes within 0.1%",
          arguments: ["haicom-305N", "garmin15x", "sl869"])
    func corpusDistance(log: String) async throws {
        let expected = try await Self.geodesic(try Corpus.path(log + ".tpv.jsonl"))
        let summary = try await #require(try Self.statistics([try Corpus.path(log + ".nmea")],
                                                       home: try TestSupport.temporaryDirectory()).first)
        #expect(summary["points"] as? Int == expected.points)
        // The oracle does not model stops: these logs have none.
        #expect((summary["stops"] as? [Any])?.isEmpty == true)
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(expected.metres > 5)
        #expect(abs(distance - expected.metres) <= expected.metres * 0.001, "\(log): \(distance) m, GeographicLib \(expected.metres) m")
    }

    @Test("a log and the GPX track replay records from it have one summary: gpsd's repeated reports of a time count once, as its last",
          arguments: ["haicom-305N", "mtk-3301", "quectel-l76k-nmea"])
    func logAndItsTrackAgree(log: String) async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = try await TestSupport.replayToGPX(try Corpus.path(log + ".nmea"), named: log + ".gpx", home: home)
        let summaries = try await Self.statistics([try Corpus.path(log + ".nmea"), gpx], home: home)
        let fromLog = try #require(summaries.first), fromTrack = try #require(summaries.last)
        let points = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        #expect(fromLog["points"] as? Int == points, "\(log): \(fromLog["points"] ?? "none") points, the track \(points)")
        for key in ["points", "duration_s", "moving_s", "distance_m", "max_speed_mps", "ascent_m", "descent_m"] {
            // The GPX keeps speeds to the millimetre per second and positions to 1e-8°.
            let a = fromLog[key] as? Double ?? Double(fromLog[key] as? Int ?? -1)
            let b = fromTrack[key] as? Double ?? Double(fromTrack[key] as? Int ?? -1)
            #expect(abs(a - b) <= max(0.01, abs(b) * 0.001), "\(log): \(key) \(a) from the log, \(b) from its track")
        }
        // The area's corners to gpsd's 9 decimals, as the track holds them: one text, not
        // 153.05225000000002 beside 153.05225.
        let boxes = try summaries.map { try #require($0["bbox"] as? [String: Double]) }
        #expect(boxes.first == boxes.last, "\(log): \(boxes)")
        for value in boxes.flatMap(\.values) {
            let decimals = String(value).split(separator: ".").last.map(\.count) ?? 0
            #expect(decimals <= 9, "\(log): \(value) has more than 9 decimals")
        }
    }

    @Test("the distance of a GPX track agrees with GeographicLib on its trkpt elements within 0.1%")
    func gpxDistance() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("walk.gpx").path
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let record = try await TestSupport.geotrack(["replay", walk, "--gpx", gpx], home: home)
        #expect(record.status == 0, "\(record.stderr)")
        let expected = try await Self.geodesic(gpx)
        let summary = try await #require(try Self.statistics([gpx], home: home).first)
        #expect(summary["points"] as? Int == expected.points)
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(expected.metres > 1_000)
        #expect(abs(distance - expected.metres) <= expected.metres * 0.001, "\(distance) m, GeographicLib \(expected.metres) m")
        #expect(summary["file"] as? String == gpx)
    }

    @Test("on every corpus log the statistics agree with themselves: no negative duration, the average never above the maximum, a receiver at rest covers no ground")
    func corpusInvariants() async throws {
        let home = try TestSupport.temporaryDirectory()
        let names = try Corpus.names()
        let summaries = try await Self.statistics(try names.map { try Corpus.path($0 + ".nmea") }, home: home)
        #expect(summaries.count == names.count)
        var atRest = 0
        for (name, summary) in zip(names, summaries) {
            let duration = try #require(summary["duration_s"] as? Double, "\(name)")
            #expect(duration >= 0, "\(name): duration \(duration) s")
            if let average = summary["avg_moving_speed_mps"] as? Double {
                let maximum = try #require(summary["max_speed_mps"] as? Double, "\(name)")
                #expect(average <= maximum, "\(name): average \(average) m/s above the maximum \(maximum) m/s")
            }
            // At rest by gpsd's own account: every speed the receiver reported (with a course)
            // below 0.1 m/s. Then the distance must stay below the receiver's error.
            let tpvs = try String(contentsOfFile: try Corpus.path(name + ".tpv.jsonl"), encoding: .utf8)
                .split(whereSeparator: \.isNewline).compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let reported = tpvs.filter { $0["track"] != nil }.compactMap { $0["speed"] as? Double }
            guard !reported.isEmpty, reported.allSatisfy({ $0 < 0.1 }) else { continue }
            atRest += 1
            let errors = tpvs.compactMap { $0["eph"] as? Double }
            let error = errors.min() ?? 5
            let distance = try #require(summary["distance_m"] as? Double, "\(name)")
            #expect(distance < error, "\(name): \(distance) m at rest, error \(error) m")
        }
        #expect(atRest >= 5, "the corpus has receivers at rest to check")
    }

    @Test("Ctrl-C before the end of a file: status 0 as for any signal, and a line saying the file was not summed up, so an empty output is never taken for a summary")
    func interruptedSaysSo() async throws {
        let home = try TestSupport.temporaryDirectory()
        let stats = try ChildProcess(TestSupport.binary, ["stats", "/dev/zero"],
                                     environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
        defer { stats.signalGroup(SIGKILL) }
        // It reads: its own count of bytes read (/proc/PID/io) passes a megabyte.
        let reading = await waitUntil(timeout: .seconds(60)) {
            let io = (try? String(contentsOfFile: "/proc/\(stats.pid)/io", encoding: .utf8)) ?? ""
            let read = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
            return (read ?? 0) > 1 << 20
        }
        #expect(reading)
        stats.signal(SIGINT)
        #expect(await stats.status(within: 30) == 0, "\(stats.stderr)")
        #expect(stats.stdout.isEmpty)
        #expect(stats.stderr.hasSuffix("geotrack: stopped before the end of /dev/zero; it was not summed up\n"), "\(stats.stderr)")
    }

    @Test("the README shows what 'geotrack stats' prints for a corpus log, line for line")
    func readmeExample() async throws {
        // One file: no header naming it, so the path given does not change the output.
        let run = try await TestSupport.geotrack(["stats", try Corpus.path("haicom-305N.nmea")],
                                           home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0, "\(run.stderr)")
        let block = ReadmeTests.readme.components(separatedBy: "$ geotrack stats Tests/Fixtures/nmea-corpus/haicom-305N.nmea\n")
            .dropFirst().first?.components(separatedBy: "```").first
        #expect(block == run.stdout)
    }

    @Test("--stats on replay: the summary on stderr at the end, stdout byte for byte as without it")
    func replayStats() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("sl869.nmea")
        let plain = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let text = try await TestSupport.geotrack(["replay", log, "--json", "--stats", "--format", "dms"], home: home)
        #expect(text.status == 0)
        #expect(text.stdout == plain.stdout)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(text.stderr.utf8)) as? [String: Any])
        #expect(summary["points"] as? Int == 8)
        let lines = try await TestSupport.geotrack(["replay", log, "--stats"], home: home)
        #expect(lines.status == 0)
        #expect(lines.stderr.contains("points       8\n") && lines.stderr.contains("distance     6.8 m\n"), "\(lines.stderr)")
        // A log with no position: one line that says so, not a column of zeros.
        let empty = home.appendingPathComponent("searching.nmea")
        try Data("$GPGGA,,,,,,0,00,,,,,,,*66\r\n".utf8).write(to: empty)
        let none = try await TestSupport.geotrack(["replay", empty.path, "--stats"], home: home)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stderr == "points  0 (no position with a time to sum up)\n", "\(none.stderr)")
        // Positions without a time (GGA alone: no date) are no points either, and it says why.
        let (_, gga, _) = try TestSupport.untimedInputs(in: home)
        let untimed = try await TestSupport.geotrack(["replay", gga, "--stats"], home: home)
        #expect(untimed.status == 0, "\(untimed.stderr)")
        #expect(untimed.stderr.hasSuffix("points  0 (no position with a time to sum up)\n"), "\(untimed.stderr)")
    }

    @Test("a missing file is 66 and a file that is no log is 65, each with one line that says so and no summary of nothing")
    func badInput() async throws {
        let home = try TestSupport.temporaryDirectory()
        let missingPath = home.appendingPathComponent("nope.nmea").path
        let missing = try await TestSupport.geotrack(["stats", missingPath], home: home)
        #expect(missing.status == 66)
        #expect(missing.stderr == "geotrack: cannot replay \(missingPath): no such file. Check the path.\n")
        #expect(missing.stdout.isEmpty, "\(missing.stdout)")
        let junk = home.appendingPathComponent("junk.nmea")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: junk)
        let notALog = try await TestSupport.geotrack(["stats", junk.path], home: home)
        #expect(notALog.status == 65, "\(notALog.stderr)")
        #expect(notALog.stdout.isEmpty, "\(notALog.stdout)")
        #expect(notALog.stderr.split(separator: "\n").count == 1, "\(notALog.stderr)")
        #expect(try await TestSupport.geotrack(["stats"], home: home).status == 64)
        #expect(try await TestSupport.geotrack(["stats", Self.good, ""], home: home).status == 64)
    }

    static let good = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path

    @Test("stats --json gives a file's name as it is, JSON-escaped (a tab, a newline, a quote, an escape character), not as the terminal's safe text")
    func jsonFileNameAsItIs() async throws {
        let home = try TestSupport.temporaryDirectory()
        let odd = home.appendingPathComponent("we\"ird\na\tme\u{1B}[31mx.nmea").path
        try FileManager.default.copyItem(atPath: Self.good, toPath: odd)
        let run = try await TestSupport.geotrack(["stats", "--json", odd], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        // One line, with no raw control character in it: the escape stays an escape in JSON.
        #expect(run.stdout.split(separator: "\n").count == 1 && !run.stdout.dropLast().contains { $0.asciiValue.map { $0 < 0x20 } ?? false },
                "\(run.stdout.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["file"] as? String == odd, "\(object["file"] ?? "none")")
    }

    @Test("a batch (stats A B C…) goes on past a file it cannot sum up: each good file's summary, each bad one's error, and the first failure's status after a line that counts them")
    func batchGoesOn() async throws {
        let home = try TestSupport.temporaryDirectory()
        let missing = home.appendingPathComponent("nope.nmea").path
        let junk = home.appendingPathComponent("junk.nmea")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: junk)
        let (_, _, empty) = try TestSupport.untimedInputs(in: home)
        let files = [Self.good, junk.path, missing, empty, Self.good]
        for json in [false, true] {
            let run = try await TestSupport.geotrack(["stats"] + (json ? ["--json"] : []) + files, home: home)
            // The first failure's status: junk.nmea is no log (65), not the missing file's 66.
            #expect(run.status == 65, "\(run.stderr)")
            let errors = run.stderr.split(separator: "\n").map(String.init)
            #expect(errors.count == 4, "\(run.stderr)")
            let expected = [junk.path + " holds no NMEA sentence", "geotrack: cannot replay \(missing): no such file. Check the path.",
                            "\(empty) holds no fix with a time"]
            #expect(zip(errors, expected).allSatisfy { $0.contains($1) }, "\(run.stderr)")
            #expect(errors.last == "geotrack: 3 of 5 files were not summed up (\(junk.path), \(missing), \(empty)); their errors are above")
            // Both good files are summed up, the one after the bad ones too, and nothing else is.
            if json {
                let objects = run.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                #expect(objects.count == 2 && objects.allSatisfy { $0["file"] as? String == Self.good && $0["points"] as? Int == 110 }, "\(run.stdout)")
            } else {
                #expect(run.stdout.components(separatedBy: "== ").dropFirst().map { $0.prefix { $0 != "\n" } } == [Substring(Self.good), Substring(Self.good)],
                        "\(run.stdout)")
            }
        }
        // One bad file among good ones: its own status (a missing file's 66), and "was".
        let one = try await TestSupport.geotrack(["stats", Self.good, missing], home: home)
        #expect(one.status == 66 && one.stderr.hasSuffix("geotrack: 1 of 2 files was not summed up (\(missing)); its error is above\n"), "\(one.stderr)")
    }

    @Test("a file whose fixes have no time (a route, GGA without dates, an empty log) is 65 with one line, not a summary of 0 points")
    func noTimedFix() async throws {
        let home = try TestSupport.temporaryDirectory()
        let (route, gga, empty) = try TestSupport.untimedInputs(in: home)
        for file in [route, gga, empty] {
            // The replay of each reads fine: only a summary of its time has nothing to go on.
            let replay = try await TestSupport.geotrack(["replay", file, "--json"], home: home)
            #expect(replay.status == 0, "\(file): \(replay.stderr)")
            for json in [[], ["--json"]] {
                let run = try await TestSupport.geotrack(["stats", file] + json, home: home)
                #expect(run.status == 65, "\(file) \(json): \(run.status) \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(run.stdout)")
                #expect(run.stderr == "geotrack: \(file) holds no fix with a time: stats sums a recorded track; "
                        + "give a GPX track with <time>, or an NMEA log with dates (RMC or ZDA)\n", "\(run.stderr)")
            }
        }
        #expect(try await TestSupport.geotrack(["replay", gga, "--json"], home: home).stdout.contains("\"lat\":52.5"))
        let good = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let both = try await TestSupport.geotrack(["stats", good, route], home: home)
        #expect(both.status == 65, "\(both.stderr)")
        #expect(both.stdout.hasPrefix("== \(good)\n") && !both.stdout.contains("== \(route)"), "\(both.stdout)")
    }
}

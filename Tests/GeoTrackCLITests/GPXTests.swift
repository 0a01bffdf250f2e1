import Foundation
import GPSReports
import GeoTrackTesting
import LocationKit
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import GeoTrackCLI

@Suite("GPX recording")
struct GPXTests {
    static func fix(_ second: Double, latitude: Double = 51.5, longitude: Double = -0.12, mode: FixMode = .threeD) -> Fix {
        var fix = Fix(mode: mode, time: Date(timeIntervalSince1970: 1_700_000_000 + second))
        fix.latitude = latitude
        fix.longitude = longitude
        fix.altitudeMSL = 12.5
        fix.speed = 1.25
        fix.track = 90
        return fix
    }

    @Test("the filter starts a segment, keeps points, and starts another after a gap")
    func segments() {
        var filter = GPXTrackFilter(options: GPXOptions(segmentAfter: 5))
        #expect(filter.action(for: Self.fix(0)) == .newSegment)
        #expect(filter.action(for: Self.fix(1, latitude: 51.5001)) == .point)
        #expect(filter.action(for: Fix(mode: .noFix, time: Date(timeIntervalSince1970: 1_700_000_002))) == .skip)
        #expect(filter.action(for: Self.fix(5, latitude: 51.5002)) == .point)
        #expect(filter.action(for: Self.fix(11, latitude: 51.5003)) == .newSegment)
    }

    @Test("a receiver that logs every 10 s records one segment, and a pause of several of its intervals still starts one")
    func slowReceiver() {
        var filter = GPXTrackFilter(options: GPXOptions(segmentAfter: 5))
        #expect(filter.action(for: Self.fix(0)) == .newSegment)
        for step in 1...20 {
            #expect(filter.action(for: Self.fix(Double(step * 10), latitude: 51.5 + Double(step) * 0.0001)) == .point, "at \(step * 10) s")
        }
        #expect(filter.segmentThreshold == 20)
        // 30 s without a position: three of its intervals.
        #expect(filter.action(for: Self.fix(230, latitude: 51.6)) == .newSegment)
    }

    @Test("minimum move and minimum interval skip points, like gpxlogger -m")
    func filters() {
        var byMove = GPXTrackFilter(options: GPXOptions(minimumMove: 10))
        #expect(byMove.action(for: Self.fix(0)) == .newSegment)
        #expect(byMove.action(for: Self.fix(1, latitude: 51.500_05)) == .skip)   // about 5.6 m
        #expect(byMove.action(for: Self.fix(2, latitude: 51.5001)) == .point)    // about 11 m from the first
        var byTime = GPXTrackFilter(options: GPXOptions(minimumInterval: 3))
        #expect(byTime.action(for: Self.fix(0)) == .newSegment)
        #expect(byTime.action(for: Self.fix(1)) == .skip)
        #expect(byTime.action(for: Self.fix(2)) == .skip)
        #expect(byTime.action(for: Self.fix(3)) == .point)
    }

    @Test("a point has ele, time, geoidheight, fix, sat, the dilutions, and speed and course as TrackPointExtension")
    func pointText() throws {
        var fix = Self.fix(0.5)
        fix.altitudeHAE = 59.75
        let gnss = GNSSDetail(fixMode: .threeD, satellitesUsed: 7, hdop: 0.9, vdop: 1.46, pdop: 1.714)
        let line = try #require(GPXFormat.point(fix, gnss: gnss))
        #expect(line == """
        <trkpt lat="51.500000000" lon="-0.120000000"><ele>12.5000</ele><time>2023-11-14T22:13:20.500Z</time>\
        <geoidheight>47.250</geoidheight><fix>3d</fix>\
        <sat>7</sat><hdop>0.90</hdop><vdop>1.46</vdop><pdop>1.71</pdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.250</gpxtpx:speed>\
        <gpxtpx:course>90.0000</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>

        """)
        #expect(GPXFormat.point(Fix(mode: .noFix)) == nil)
        // gpsd's own geoid separation wins over the difference of the two heights.
        fix.geoidSeparation = 47.3
        #expect(GPXFormat.point(fix)?.contains("<geoidheight>47.300</geoidheight>") == true)
        fix.altitudeMSL = nil
        #expect(GPXFormat.point(fix)?.contains("geoidheight") == false)
    }

    @Test("<fix> says dgps for a differentially corrected fix (DGPS, RTK), pps for the precise code, else 2d or 3d")
    func fixType() async throws {
        var fix = Self.fix(0)
        #expect(GPXFormat.point(fix)?.contains("<fix>3d</fix>") == true)
        for (status, expected) in [(FixStatus.gps, "3d"), (.dgps, "dgps"), (.rtkFixed, "dgps"), (.rtkFloat, "dgps"), (.pps, "pps")] {
            fix.status = status
            #expect(GPXFormat.point(fix)?.contains("<fix>\(expected)</fix>") == true, "\(status)")
        }
        var flat = Self.fix(0, mode: .twoD)
        flat.status = .gps
        #expect(GPXFormat.point(flat)?.contains("<fix>2d</fix>") == true)
        // A corpus receiver that reports DGPS (gpsd's status 2): its track says so.
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("dgps.gpx").path
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("garmin15x.nmea"), "--gpx", gpx], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<fix>dgps</fix>"))
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx])
        #expect(lint.status == 0, "\(lint.stderr)")
    }

    @Test("a repeated time replaces its point; a time that steps back starts a new segment, so no time is lost")
    func timesOnlyMoveForwardWithinASegment() {
        var filter = GPXTrackFilter(options: GPXOptions())
        #expect(filter.action(for: Self.fix(0)) == .newSegment)
        #expect(filter.action(for: Self.fix(0, latitude: 51.6)) == .replaceLast)
        #expect(filter.action(for: Self.fix(1)) == .point)
        #expect(filter.action(for: Self.fix(0.5)) == .newSegment)
        #expect(filter.action(for: Self.fix(0.5)) == .replaceLast)
        #expect(filter.action(for: Self.fix(1)) == .point)
        #expect(filter.action(for: Self.fix(2)) == .point)
        // A day back, as a week-rollover or a log joined to an older one does.
        #expect(filter.action(for: Self.fix(-86_400)) == .newSegment)
        #expect(filter.action(for: Self.fix(-86_399)) == .point)
    }

    /// The distinct times of the positions `replay --json` prints for `log`, and those of the
    /// points `replay --gpx` writes for it, in order.
    static func fixTimes(_ log: String, home: URL) async throws -> (json: [String], gpx: [String]) {
        let json = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        var times: [String] = []
        for line in json.stdout.split(whereSeparator: \.isNewline) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard (object["mode"] as? Int ?? 0) >= 2, object["lat"] != nil, let time = object["time"] as? String else { continue }
            if times.last != time { times.append(time) }
        }
        let gpx = home.appendingPathComponent("track.gpx").path
        let record = try await TestSupport.geotrack(["replay", log, "--gpx", gpx, "--overwrite"], home: home)
        #expect(record.status == 0, "\(record.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let points = text.components(separatedBy: "<trkpt ").dropFirst().compactMap { point in
            point.components(separatedBy: "<time>").dropFirst().first?.components(separatedBy: "</time>").first
        }
        return (times, points)
    }

    @Test("replay --gpx keeps every timed fix of every corpus log, in order, clocks that step back included")
    func everyFixTime() async throws {
        let home = try TestSupport.temporaryDirectory()
        for name in try Corpus.names() {
            let (json, gpx) = try await Self.fixTimes(try Corpus.path(name + ".nmea"), home: home)
            #expect(gpx.map(Self.instant) == json.map(Self.instant), "\(name): \(json.count) fix times, \(gpx.count) points")
        }
    }

    @Test("replay --gpx of two logs joined, the later one first, keeps both: the earlier starts a new segment")
    func joinedLaterFirst() async throws {
        let home = try TestSupport.temporaryDirectory()
        let joined = home.appendingPathComponent("joined.nmea")
        // quectel-l76k (2026) before garmin15x (2022): gpsd's week-rollover guard aside, the
        // second log's every time is earlier than the first's last.
        let later = try Data(contentsOf: try Corpus.url("quectel-l76k-nmea.nmea"))
        let earlier = try Data(contentsOf: try Corpus.url("garmin15x.nmea"))
        try (later + earlier).write(to: joined)
        let (json, gpx) = try await Self.fixTimes(joined.path, home: home)
        #expect(json.count > 20)
        #expect(gpx.map(Self.instant) == json.map(Self.instant))
        let text = try String(contentsOfFile: home.appendingPathComponent("track.gpx").path, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 >= 2)
    }

    @Test("a track replayed into another track loses nothing: fix type, satellites, dilutions, geoid height, DGPS age and station")
    func trackReplayedIntoATrack() async throws {
        let home = try TestSupport.temporaryDirectory()
        let first = home.appendingPathComponent("first.gpx").path
        let second = home.appendingPathComponent("second.gpx").path
        // The body of a track: what a replay writes, whatever the file's creation time and name.
        func points(_ path: String) throws -> [Substring] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("<metadata>") && !$0.hasPrefix("<name>") }
        }
        var checked: Set<String> = []
        for name in try Corpus.names() {
            let record = try await TestSupport.geotrack(["replay", try Corpus.path(name + ".nmea"), "--gpx", first, "--overwrite"], home: home)
            #expect(record.status == 0, "\(name): \(record.stderr)")
            let again = try await TestSupport.geotrack(["replay", first, "--gpx", second, "--overwrite"], home: home)
            #expect(again.status == 0, "\(name): \(again.stderr)")
            let original = try points(first)
            #expect(try points(second) == original, "\(name)")
            for element in ["<fix>dgps</fix>", "<sat>", "<hdop>", "<vdop>", "<pdop>", "<geoidheight>", "<dgpsid>"] where original.contains(where: { $0.contains(element) }) {
                checked.insert(element)
            }
        }
        // The corpus holds every element at least once, so each was carried over above.
        #expect(checked.count == 7, "\(checked)")
    }

    @Test("a GPX track's own segments stay segments: replay --gpx keeps them, and neither stats nor the picture count the jump between them as travelled")
    func segmentsAreKept() async throws {
        let home = try TestSupport.temporaryDirectory()
        let track = home.appendingPathComponent("tunnel.gpx").path
        // Two segments 2 s apart, 1.1 km between them: the recorder lost the signal in a tunnel.
        try """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="46.0" lon="7.0"><time>2020-05-01T10:00:00Z</time></trkpt>
        <trkpt lat="46.0001" lon="7.0"><time>2020-05-01T10:00:02Z</time></trkpt>
        </trkseg><trkseg>
        <trkpt lat="46.0101" lon="7.0"><time>2020-05-01T10:00:04Z</time></trkpt>
        <trkpt lat="46.0102" lon="7.0"><time>2020-05-01T10:00:06Z</time></trkpt>
        </trkseg></trk></gpx>
        """.write(toFile: track, atomically: true, encoding: .utf8)
        let stats = try await TestSupport.geotrack(["stats", "--json", track], home: home)
        #expect(stats.status == 0, "\(stats.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        // 11.1 m in each segment, at 5.6 m/s; not 1.1 km at 556 m/s.
        let distance = try #require(summary["distance_m"] as? Double)
        #expect(abs(distance - 22.2) < 0.5, "\(summary)")
        #expect((summary["max_speed_mps"] as? Double ?? 1000) < 6, "\(summary)")
        let out = home.appendingPathComponent("out.gpx").path
        let svg = home.appendingPathComponent("out.svg").path
        let replay = try await TestSupport.geotrack(["replay", track, "--gpx", out, "--svg", svg], home: home)
        #expect(replay.status == 0, "\(replay.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkseg>").map { $0.components(separatedBy: "<trkpt ").count - 1 } == [0, 2, 2], "\(text)")
        #expect(TrackPictureTests.runs(try String(contentsOfFile: svg, encoding: .utf8)).count == 2)
    }

    @Test("an echo sounder's depth is in the track (TrackPointExtension v2's depth, before speed and course) and survives a replay of it")
    func depthInTheTrack() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = TestSupport.packageRoot.appendingPathComponent("Tests/NMEATests/Logs/marine-mix.nmea").path
        let gpx = home.appendingPathComponent("boat.gpx").path
        let record = try await TestSupport.geotrack(["replay", log, "--gpx", gpx], home: home)
        #expect(record.status == 0, "\(record.stderr)")
        // The depth gpsd printed last for each time: what the track's point of that time holds.
        let json = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        var depths: [String: Double] = [:]
        for line in json.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = object["time"] as? String, object["lat"] != nil else { continue }
            depths[String(time.prefix(19))] = object["depth"] as? Double
        }
        #expect(depths.values.count > 3, "\(depths)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<gpxtpx:depth>") && text.contains("</gpxtpx:depth><gpxtpx:speed>"), "\(text.prefix(1500))")
        let back = try await TestSupport.geotrack(["replay", gpx, "--json"], home: home)
        #expect(back.status == 0, "\(back.stderr)")
        var replayed: [String: Double] = [:]
        for line in back.stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let time = object["time"] as? String else { continue }
            replayed[String(time.prefix(19))] = object["depth"] as? Double
        }
        #expect(replayed == depths, "log \(depths.sorted { $0.key < $1.key }) track \(replayed.sorted { $0.key < $1.key })")
        #expect(try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx]).status == 0)
    }

    @Test("an RTK receiver's millimetres survive write, read and write again: <ele> as gpxlogger's %.4f, <geoidheight> as gpsd's geoidSep")
    func millimetresSurvive() async throws {
        let home = try TestSupport.temporaryDirectory()
        let first = home.appendingPathComponent("rtk.gpx").path
        let second = home.appendingPathComponent("copy.gpx").path
        let writer = try GPXWriter(path: first, options: GPXOptions(), created: Date(timeIntervalSince1970: 1_700_000_000))
        var fix = Self.fix(0)
        fix.altitudeMSL = 278.161
        fix.geoidSeparation = -31.442
        fix.status = .rtkFixed
        try writer.append(fix)
        try writer.close()
        let written = try String(contentsOfFile: first, encoding: .utf8)
        #expect(written.contains("<ele>278.1610</ele>") && written.contains("<geoidheight>-31.442</geoidheight>"), "\(written)")
        let again = try await TestSupport.geotrack(["replay", first, "--gpx", second], home: home)
        #expect(again.status == 0, "\(again.stderr)")
        let copy = try String(contentsOfFile: second, encoding: .utf8)
        #expect(copy.contains("<ele>278.1610</ele>") && copy.contains("<geoidheight>-31.442</geoidheight>"), "\(copy)")
        // What was read is what gpsd's TPV would say of it, to the same digits.
        let json = try await TestSupport.geotrack(["replay", first, "--json"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""altMSL":278.1610"#) && json.stdout.contains(#""geoidSep":-31.442"#), "\(json.stdout)")
    }

    /// The text of `key`'s value in each TPV of `json` that has a position and a time, gpsd's last
    /// report of each time winning: what a reader of the JSON sees of each point.
    static func lastTexts(_ json: String, key: String) -> [String: String] {
        var texts: [String: String] = [:]
        for line in json.split(separator: "\n") where line.hasPrefix(#"{"class":"TPV""#) && line.contains(#""lat":"#) {
            guard let time = line.components(separatedBy: #""time":""#).dropFirst().first?.prefix(24),
                  let value = line.components(separatedBy: "\"\(key)\":").dropFirst().first?.prefix(while: { $0 != "," && $0 != "}" })
            else { continue }
            texts[String(time)] = String(value)
        }
        return texts
    }

    @Test("an RTK receiver's position and course survive a track: lat/lon with gpsd's 9 decimals, course with its 4, as a replay of the log prints them")
    func positionAndCourseKeepGPSDPrecision() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("nmea-rtk.nmea")
        let gpx = home.appendingPathComponent("rtk.gpx").path
        let record = try await TestSupport.geotrack(["replay", log, "--gpx", gpx], home: home)
        #expect(record.status == 0, "\(record.stderr)")
        let direct = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let again = try await TestSupport.geotrack(["replay", gpx, "--json"], home: home)
        #expect(direct.status == 0 && again.status == 0, "\(direct.stderr) \(again.stderr)")
        // nmea-rtk's minutes have eight decimals (4134.49721169) and its course three (126.965):
        // gpsd prints 41.574953528 and 126.9650, which 8 and 2 decimals would round.
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains(#"<trkpt lat="41.574953528" lon="-93.750575438">"#) && text.contains("<gpxtpx:course>126.9650</gpxtpx:course>"),
                "\(text.prefix(1_500))")
        for key in ["lat", "lon", "track", "speed", "altMSL", "geoidSep"] {
            let fromLog = Self.lastTexts(direct.stdout, key: key)
            let fromTrack = Self.lastTexts(again.stdout, key: key)
            #expect(fromLog.count > 100 && fromTrack == fromLog,
                    "\(key): \(fromLog.filter { fromTrack[$0.key] != $0.value }.prefix(3).map { "\($0.key): log \($0.value), track \(fromTrack[$0.key] ?? "-")" })")
        }
    }

    /// A track whose receiver counted the satellites it used: a point without a fix, then two with one.
    static let countedTrack = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="41.5" lon="-93.7"><time>2020-03-18T13:28:18Z</time><fix>none</fix><sat>16</sat><hdop>0.7</hdop></trkpt>
    <trkpt lat="41.5" lon="-93.7"><ele>278.161</ele><time>2020-03-18T13:28:19Z</time><fix>3d</fix><sat>16</sat><hdop>0.7</hdop></trkpt>
    <trkpt lat="41.5001" lon="-93.7"><ele>278.162</ele><time>2020-03-18T13:28:20Z</time><fix>3d</fix><sat>16</sat><hdop>0.7</hdop></trkpt>
    </trkseg></trk></gpx>

    """

    @Test("a GPX track's <sat> is the satellites used everywhere: SKY's uSat (without an nSat of 0), the status line, the sky screen")
    func satellitesUsedWithoutAList() async throws {
        let home = try TestSupport.temporaryDirectory()
        let track = home.appendingPathComponent("counted.gpx")
        try Self.countedTrack.write(to: track, atomically: true, encoding: .utf8)
        let json = try await TestSupport.geotrack(["replay", track.path, "--json", "--sky"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let skies = json.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"class":"SKY""#) }
        #expect(skies.count == 3, "\(json.stdout)")
        for sky in skies {
            #expect(sky.hasSuffix(#","hdop":0.70,"uSat":16}"#) && !sky.contains("nSat") && !sky.contains("satellites"), "\(sky)")
        }
        // The status line while searching, and at the fix.
        let status = try await TestSupport.geotrack(["replay", track.path], home: home)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("searching  satellites: 16 used\n"), "\(status.stdout)")
        #expect(status.stdout.contains("16 sats") && !status.stdout.contains("seen, 16 used"), "\(status.stdout)")
        // The sky screen's last picture: the count used, no count seen.
        let sky = try await TestSupport.geotrack(["sky", "--replay", track.path], home: home)
        #expect(sky.status == 0, "\(sky.stderr)")
        #expect(sky.stdout.contains("Sats      16 used\n") || sky.stdout.contains("Sats      16 used "), "\(sky.stdout)")
        #expect(!sky.stdout.contains("of 0 seen") && sky.stdout.contains("seen     -"), "\(sky.stdout)")
    }

    /// A time as an instant: gpsd prints milliseconds, the GPX whole seconds where there are none.
    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Whether the file at `path` is well-formed XML (xmllint), with what xmllint said if not.
    static func wellFormed(_ path: String) async throws -> (ok: Bool, says: String) {
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", path])
        return (lint.status == 0, lint.stderr)
    }

    @Test("--append continues a track geotrack recorded in a new segment, every point of both runs kept; a GPX file geotrack did not write, or did not close, is refused (73) and left as it was")
    func appendContinuesOwnTracks() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("day.gpx").path
        let first = try Corpus.path("garmin15x.nmea"), second = try Corpus.path("quectel-l76k-nmea.nmea")
        let track = home.appendingPathComponent("track.gpx").path
        let (_, firstPoints) = try await Self.fixTimes(first, home: home)
        let firstSegments = try String(contentsOfFile: track, encoding: .utf8).components(separatedBy: "<trkseg>").count - 1
        let (_, secondPoints) = try await Self.fixTimes(second, home: home)
        let secondSegments = try String(contentsOfFile: track, encoding: .utf8).components(separatedBy: "<trkseg>").count - 1
        #expect(!firstPoints.isEmpty && !secondPoints.isEmpty)
        // Nothing there yet: --append creates the track.
        for log in [first, second] {
            let run = try await TestSupport.geotrack(["replay", log, "--gpx", gpx, "--append"], home: home)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let times = text.components(separatedBy: "<trkpt ").dropFirst().compactMap { point in
            point.components(separatedBy: "<time>").dropFirst().first?.components(separatedBy: "</time>").first
        }
        #expect(times == firstPoints + secondPoints)
        // The second run's first point opens a segment of its own.
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == firstSegments + secondSegments)
        let lint = try await Self.wellFormed(gpx)
        #expect(lint.ok, "\(lint.says)")
        #expect(text.components(separatedBy: "<gpx ").count == 2 && text.hasSuffix("</trk>\n</gpx>\n"))

        // Not geotrack's (gpxlogger's), or cut short (no closing tags): refused, untouched.
        let foreign = home.appendingPathComponent("foreign.gpx").path
        let gpxlogger = """
            <?xml version="1.0" encoding="utf-8"?>
            <gpx version="1.1" creator="GPSD 3.22 - https://gpsd.io/" xmlns="http://www.topografix.com/GPX/1/1">
            <trk>
             <trkseg>
              <trkpt lat="59.329300000" lon="18.068600000"><time>2025-01-01T00:00:00.000Z</time><fix>3d</fix></trkpt>
             </trkseg>
            </trk>
            </gpx>

            """
        let cut = home.appendingPathComponent("cut.gpx").path
        try gpxlogger.write(toFile: foreign, atomically: true, encoding: .utf8)
        try String(text.dropLast(14)).write(toFile: cut, atomically: true, encoding: .utf8)
        for (path, before) in [(foreign, gpxlogger), (cut, String(text.dropLast(14)))] {
            let run = try await TestSupport.geotrack(["replay", first, "--gpx", path, "--append"], home: home)
            #expect(run.status == 73)
            #expect(run.stderr == "geotrack: GPX file \(path) is not a track geotrack recorded and closed, so --append leaves it alone; choose another name\n")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        }
        let both = try await TestSupport.geotrack(["replay", first, "--gpx", gpx, "--append", "--overwrite"], home: home)
        #expect(both.status == 64 && both.stderr.contains("choose one"))
    }

    @Test("a file being recorded is valid GPX after every point, not only once closed: each point comes with the closing tags after it")
    func writerFile() async throws {
        let directory = try TestSupport.temporaryDirectory()
        let path = directory.appendingPathComponent("track.gpx").path
        let writer = try GPXWriter(path: path, options: GPXOptions(segmentAfter: 5), created: Date(timeIntervalSince1970: 1_700_000_000))
        for second in 0..<5 {
            try writer.append(Self.fix(Double(second), latitude: 51.5 + Double(second) * 0.001))
            let lint = try await Self.wellFormed(path)
            #expect(lint.ok, "after point \(second + 1): \(lint.says)")
        }
        try writer.append(Self.fix(30, latitude: 51.6))
        #expect(writer.pointCount == 6)
        let unfinished = try String(contentsOfFile: path, encoding: .utf8)
        // What a kill -9 now would leave: every point, two segments, and the file's end.
        #expect(unfinished.hasSuffix("</trkpt>\n</trkseg>\n</trk>\n</gpx>\n"), "\(unfinished.suffix(200))")
        #expect(unfinished.components(separatedBy: "<trkseg>").count == 3)
        #expect(unfinished.components(separatedBy: "</trkseg>").count == 3)
        let lint = try await Self.wellFormed(path)
        #expect(lint.ok, "\(lint.says)")
        try writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == unfinished, "closing changed the file")
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("</trkseg>\n</trk>\n</gpx>\n"))
        #expect(text.components(separatedBy: "<trkseg>").count == 3)
        #expect(text.components(separatedBy: "<trkpt ").count == 7)
        #expect(try writer.append(Self.fix(40)) == false)
        let closed = try await Self.wellFormed(path)
        #expect(closed.ok, "\(closed.says)")
    }

    @Test("a later report of the same time is written over its point, longer or shorter, and the file stays valid")
    func laterReportReplacesPoint() async throws {
        let path = try TestSupport.temporaryDirectory().appendingPathComponent("track.gpx").path
        let writer = try GPXWriter(path: path, options: GPXOptions(), created: Date(timeIntervalSince1970: 1_700_000_000))
        var first = Fix(mode: .twoD, time: Date(timeIntervalSince1970: 1_700_000_000))
        first.latitude = 51.5
        first.longitude = -0.12
        try writer.append(first)
        // The cycle's later report: altitude, speed and course came with later sentences.
        let fuller = Self.fix(0)
        try writer.append(fuller)
        try writer.append(Self.fix(1, latitude: 51.5001))
        // And a shorter one for that second time: the old point's tail must not survive.
        var shorter = Fix(mode: .twoD, time: Date(timeIntervalSince1970: 1_700_000_001))
        shorter.latitude = 51.5002
        shorter.longitude = -0.12
        try writer.append(shorter)
        #expect(writer.pointCount == 2)
        // Rewritten shorter, the file was cut after its closing tags: nothing of the longer point is left.
        let unfinished = try String(contentsOfFile: path, encoding: .utf8)
        #expect(unfinished.hasSuffix("</trkpt>\n</trkseg>\n</trk>\n</gpx>\n"), "\(unfinished.suffix(300))")
        let lint = try await Self.wellFormed(path)
        #expect(lint.ok, "\(lint.says)")
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let points = text.components(separatedBy: "<trkpt ").dropFirst()
        #expect(points.count == 2)
        #expect(points.first?.contains("<ele>12.5000</ele>") == true && points.first?.contains("<gpxtpx:course>90.0000</gpxtpx:course>") == true,
                "\(text)")
        #expect(points.last?.hasPrefix(#"lat="51.500200000""#) == true && points.last?.contains("<ele>") == false, "\(text)")
        #expect(text.hasSuffix("</trkseg>\n</trk>\n</gpx>\n"))
        let closed = try await Self.wellFormed(path)
        #expect(closed.ok, "\(closed.says)")
    }

    @Test("replay --gpx gives each time gpsd's last report of it: mtk-3301's first 3D point has the course RMC gave")
    func pointIsTheLastReportOfItsTime() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("mtk.gpx").path
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("mtk-3301.nmea"), "--gpx", gpx], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        // gpsd's own decoding reports 08:14:37 twice; only the second has the course and RMC's speed.
        let gpsd = try String(contentsOfFile: try Corpus.path("mtk-3301.tpv.jsonl"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { $0.contains(":14:37.000Z") }
        #expect(gpsd.count == 2 && gpsd.last?.contains(#""track":0.0000"#) == true && gpsd.last?.contains(#""speed":0.020"#) == true)
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let point = try #require(text.components(separatedBy: "<trkpt ").first { $0.contains("<time>2008-08-23T08:14:37Z</time>") })
        #expect(point.contains("<gpxtpx:speed>0.020</gpxtpx:speed><gpxtpx:course>0.0000</gpxtpx:course>"), "\(point)")
        #expect(text.components(separatedBy: "<time>2008-08-23T08:14:37Z</time>").count == 2)
    }

    @Test("an fsync is due sync_interval after the last one, and nothing is due once synced or closed")
    func syncIsDueOnlyWithUnsyncedPoints() throws {
        let directory = try TestSupport.temporaryDirectory()
        let seconds = Mutex(10.0)
        let writer = try GPXWriter(path: directory.appendingPathComponent("track.gpx").path,
                                   options: GPXOptions(syncInterval: 1), now: { seconds.withLock { $0 } })
        #expect(writer.nextSync == nil)
        seconds.withLock { $0 = 10.25 }
        try writer.append(Self.fix(0))
        #expect(writer.nextSync == 0.75)
        seconds.withLock { $0 = 11.5 }
        #expect(writer.nextSync == 0)
        writer.syncIfDue()
        #expect(writer.nextSync == nil)
        try writer.append(Self.fix(1))
        #expect(writer.nextSync == 1)
        try writer.close()
        #expect(writer.nextSync == nil)
    }

    @Test("a symbolic link or a directory named by --gpx or --svg is refused before the run, saying what it is, not to pass --overwrite")
    func linkOrDirectoryRefused() async throws {
        let home = try TestSupport.temporaryDirectory()
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let folder = home.appendingPathComponent("rides").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let link = home.appendingPathComponent("link.gpx").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: home.appendingPathComponent("elsewhere.gpx").path)
        let cases: [(arguments: [String], says: String)] = [
            (["--gpx", link], "is a symbolic link"),
            (["--svg", link], "is a symbolic link"),
            (["--gpx", folder], "is a directory; name a file, such as \(folder)/track.gpx"),
            (["--gpx", folder, "--overwrite"], "is a directory; name a file, such as \(folder)/track.gpx"),
            (["--svg", folder], "is a directory; name a file, such as \(folder)/track.svg"),
            (["--gpx", folder + "//"], "is a directory; name a file, such as \(folder)/track.gpx\n"),
            // Refused at the start, not after the whole run when the picture has nowhere to go.
            (["--svg", folder, "--overwrite"], "is a directory; name a file, such as \(folder)/track.svg"),
        ]
        for (arguments, says) in cases {
            let run = try await TestSupport.geotrack(["replay", walk] + arguments, home: home)
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix("geotrack: ") && run.stderr.contains(says), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("--overwrite"), "\(arguments): advice that cannot work: \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments): the run started: \(run.stdout.prefix(200))")
        }
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("elsewhere.gpx").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// geotrack with `arguments` under a file-size limit of `kibibytes` (bash's `ulimit -f`), as
    /// on a disk that fills: its stdout (and its stderr, `mergingStderr`) go through cat to the
    /// files the test reads, which the limit does not bind; pipefail keeps geotrack's status.
    static func underFileSizeLimit(_ kibibytes: Int, _ arguments: [String], home: URL,
                                   mergingStderr: Bool = true) async throws -> TestSupport.Run {
        try await TestSupport.run("/bin/bash", ["-c", "set -o pipefail; (ulimit -f \(kibibytes) && exec \"$@\") \(mergingStderr ? "2>&1 " : "")| cat", "bash",
                                          TestSupport.binary] + arguments,
                            environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path, "HOME": home.path])
    }

    @Test("a file-size limit reached mid-track (ulimit -f) is exit 74 with one line; the file ends whole and closed, and --json showed only what it holds")
    func fileSizeLimit() async throws {
        let home = try TestSupport.temporaryDirectory()
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let gpx = home.appendingPathComponent("full.gpx").path
        // 8 KiB: the header and a couple of dozen of walk.nmea's 110 points.
        let run = try await Self.underFileSizeLimit(8, ["replay", walk, "--gpx", gpx, "--json"], home: home, mergingStderr: false)
        #expect(run.status == 74, "killed by SIGXFSZ instead of failing the write? status \(run.status): \(run.stderr)")
        #expect(run.stderr == "geotrack: cannot write GPX file \(gpx): File too large; the file-size limit (ulimit -f) was reached: raise it, or record into a new file\n")
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx])
        #expect(lint.status == 0, "\(lint.stderr)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        let points = text.components(separatedBy: "<time>").dropFirst(2).compactMap { $0.components(separatedBy: "</time>").first }
        #expect(points.count > 10 && points.count < 100, "\(points.count) points")
        let shown = run.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  (object["mode"] as? Int ?? 0) >= 2, object["lat"] != nil else { return nil }
            return object["time"] as? String
        }
        #expect(shown.map(Self.instant) == points.map(Self.instant), "JSON showed \(shown.count) positions, the track holds \(points.count)")
    }

    @Test("no room even for the header (ulimit -f 0): exit 74, and nothing of the run is left in the folder")
    func noRoomForHeader() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let gpx = folder.appendingPathComponent("full.gpx").path
        let run = try await Self.underFileSizeLimit(0, ["replay", walk, "--gpx", gpx], home: home)
        #expect(run.status == 74, "\(run.stdout)")
        #expect(run.stdout == "geotrack: cannot write GPX file \(gpx): File too large; the file-size limit (ulimit -f) was reached: raise it, or record into a new file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("a named pipe that a writer fills and leaves at once (cat log > pipe) is read whole by replay --gpx, --json and stats: it is opened once, not checked first and opened again")
    func namedPipeOpenedOnce() async throws {
        let home = try TestSupport.temporaryDirectory()
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let gpx = home.appendingPathComponent("walk.gpx").path
        let fifo = home.appendingPathComponent("walk.fifo").path
        let runs: [(arguments: [String], lines: Int)] = [(["replay", fifo, "--gpx", gpx], 113), (["replay", fifo, "--json"], 110),
                                                        (["stats", "--json", fifo], 1)]
        for (arguments, lines) in runs {
            unlink(fifo)
            try #require(mkfifo(fifo, 0o600) == 0)
            // The writer blocks until a reader opens the pipe, writes the whole log (far less than
            // the pipe holds) and exits: a reader that closed its first open lost the log.
            let writer = try ChildProcess("/bin/sh", ["-c", #"cat "$1" > "$2""#, "sh", walk, fifo])
            let run = try ChildProcess(TestSupport.binary, arguments, environment: ["HOME": home.path,
                                                                                  "XDG_STATE_HOME": home.appendingPathComponent("state").path])
            let status = await run.status(within: 60)
            if status == nil { run.signal(SIGKILL) }
            #expect(status == 0, "\(arguments): \(status.map(String.init) ?? "still waiting after 60 s") \(run.stderr)")
            #expect(run.stdout.split(separator: "\n").count == lines, "\(arguments): \(run.stdout.suffix(300))")
            #expect(await writer.status(within: 60) == 0)
        }
        #expect(try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1 == 110)
    }

    /// A `replay --gpx gpx` of a FIFO in `home` that a writer holds open and never writes to,
    /// returned once the replay has opened it: it waits in read(2), its track begun (the header
    /// is written before the input is opened). The caller closes the writer.
    static func replayWaitingForInput(home: URL, gpx: String) async throws -> (ChildProcess, Int32) {
        let fifo = home.appendingPathComponent("quiet.nmea").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        let replay = try ChildProcess(TestSupport.binary, ["replay", fifo, "--gpx", gpx], environment: ["HOME": home.path])
        let opened = await waitUntil(timeout: .seconds(30)) {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(replay.pid)/fd")) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(replay.pid)/fd/\($0)")) == fifo
            }
        }
        #expect(opened, "the replay never opened its input: \(replay.stderr)")
        return (replay, writer)
    }

    @Test("replay --gpx or --svg of an input with no fix with a time (GGA without dates, a route, an empty log) is 65 with one line, and no file; an old picture under --overwrite is kept",
          arguments: [["--gpx"], ["--svg"], ["--gpx", "--svg"]])
    func noTimedFixNoTrack(outputs: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let (route, gga, empty) = try TestSupport.untimedInputs(in: home)
        let track = home.appendingPathComponent("out.gpx").path
        let picture = home.appendingPathComponent("out.svg").path
        let unwritten = switch outputs {
        case ["--gpx"]: "no GPX track was written to \(track)"
        case ["--svg"]: "no SVG picture was written to \(picture)"
        default: "no GPX track was written to \(track), and no SVG picture to \(picture)"
        }
        for file in [gga, route, empty] {
            let arguments = outputs.flatMap { [$0, $0 == "--gpx" ? track : picture] }
            let run = try await TestSupport.geotrack(["replay", file] + arguments + ["--json"], home: home)
            #expect(run.status == 65, "\(file): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasSuffix("geotrack: \(file) holds no fix with a time, so \(unwritten); "
                                         + "give an NMEA log with dates (RMC or ZDA), or a GPX track with <time>\n"), "\(run.stderr)")
            #expect(run.stderr.components(separatedBy: "holds no fix").count == 2, "said more than once: \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: track))
            #expect(!FileManager.default.fileExists(atPath: picture), "a picture of nothing, which the same command would refuse")
            // What --json prints stands, whatever the track: the fixes, without a time (gpsd
            // reports two of the three GGA cycles: the last is never closed).
            #expect(run.stdout.components(separatedBy: "\"class\":\"TPV\"").count - 1 == (file == empty ? 0 : 2), "\(run.stdout)")
            #expect(!run.stdout.contains("\"time\""), "\(run.stdout)")
        }
        // An old picture and track, --overwrite given: a run with nothing to draw keeps them.
        try "old picture".write(toFile: picture, atomically: true, encoding: .utf8)
        try "old track".write(toFile: track, atomically: true, encoding: .utf8)
        let kept = try await TestSupport.geotrack(["replay", empty] + outputs.flatMap { [$0, $0 == "--gpx" ? track : picture] }
                                                  + ["--overwrite"], home: home)
        #expect(kept.status == 65, "\(kept.stderr)")
        #expect(try String(contentsOfFile: picture, encoding: .utf8) == "old picture")
        #expect(try String(contentsOfFile: track, encoding: .utf8) == "old track")
    }

    @Test("--gpx and --svg names take the start's date and time (%Y%m%d-%H%M%S, local), so a service started again records a file of its own; any other % is 64")
    func startTimeInTheName() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("sl869.nmea")
        let before = Date()
        let run = try await TestSupport.geotrack(["replay", log, "--gpx", home.appendingPathComponent("trip-%Y%m%d-%H%M%S.gpx").path,
                                                  "--svg", home.appendingPathComponent("trip-%Y-%m-%d-%%.svg").path],
                                                 home: home, environment: ["TZ": "UTC"])
        let after = Date()
        #expect(run.status == 0, "\(run.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("trip-") }.sorted()
        #expect(names.count == 2, "\(names)")
        let track = try #require(names.first { $0.hasSuffix(".gpx") })
        let stamp = try #require(track.firstMatch(of: /^trip-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.gpx$/), "\(track)")
        var components = DateComponents()
        (components.year, components.month, components.day) = (Int(stamp.1), Int(stamp.2), Int(stamp.3))
        (components.hour, components.minute, components.second) = (Int(stamp.4), Int(stamp.5), Int(stamp.6))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let started = try #require(calendar.date(from: components))
        #expect(started >= before.addingTimeInterval(-1) && started <= after, "\(track) between \(before) and \(after)")
        let day = String(track.dropFirst("trip-".count).prefix(8))
        let dashed = "\(day.prefix(4))-\(day.dropFirst(4).prefix(2))-\(day.suffix(2))"
        #expect(names.contains("trip-\(dashed)-%.svg"), "\(names)")
        #expect(try String(contentsOfFile: home.appendingPathComponent(track).path, encoding: .utf8).contains("<trkpt"))

        let bad = try await TestSupport.geotrack(["replay", log, "--gpx", home.appendingPathComponent("trip-%s.gpx").path], home: home)
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("--gpx: a % in a file name takes one of %Y, %m, %d, %H, %M, %S"), "\(bad.stderr)")
    }

    @Test("a replay stopped (SIGINT) before its first fix writes no track and no error: the run did not reach the input's end")
    func interruptedBeforeFirstFix() async throws {
        let home = try TestSupport.temporaryDirectory()
        let gpx = home.appendingPathComponent("trip.gpx").path
        let (replay, writer) = try await Self.replayWaitingForInput(home: home, gpx: gpx)
        defer { close(writer) }
        replay.signal(SIGINT)
        #expect(await replay.waitForExit() == 0, "\(replay.stderr)")
        #expect(!replay.stderr.contains("holds no fix"), "\(replay.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gpx))
    }

    @Test("a run killed (kill -9) before its first point leaves nothing in the folder: the track had no name yet")
    func killedBeforeFirstPoint() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("tracks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let gpx = folder.appendingPathComponent("trip.gpx").path
        let (replay, writer) = try await Self.replayWaitingForInput(home: home, gpx: gpx)
        defer { close(writer) }
        replay.signal(SIGKILL)
        #expect(await replay.waitForExit() == 128 + SIGKILL)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "the run left a file behind")
    }

    @Test("an SVG picture past a file-size limit (a full disk) is exit 74 saying so, with nothing left in the folder")
    func pictureWithoutRoom() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let loop = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/loop.nmea").path
        let svg = folder.appendingPathComponent("loop.svg").path
        // 4 KiB: less than the picture of a 16-minute ride.
        let run = try await Self.underFileSizeLimit(4, ["stats", loop, "--svg", svg], home: home)
        #expect(run.status == 74, "\(run.stdout)")
        #expect(run.stdout.contains("geotrack: cannot write SVG file \(svg): File too large; make room and run again\n"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test("an empty --gpx or --svg name (an unset shell variable) is a usage error, 64, that says so",
          arguments: [["replay", "LOG", "--gpx", ""], ["replay", "LOG", "--svg", ""], ["stats", "LOG", "--svg", ""]])
    func emptyName(arguments: [String]) async throws {
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let run = try await TestSupport.geotrack(arguments.map { $0 == "LOG" ? walk : $0 }, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("geotrack: --") && run.stderr.contains("needs a file name (got an empty one)"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty)
    }

    @Test("an empty name for the log to replay (an unset shell variable) is a usage error, 64, that says so",
          arguments: [["replay", ""], ["stats", ""], ["sky", "--replay", ""], ["serve", "--replay", "", "--listen", "127.0.0.1:0"]])
    func emptyLogName(arguments: [String]) async throws {
        let run = try await TestSupport.geotrack(arguments, home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr == "geotrack: the file to replay is an empty name; give an NMEA log or a GPX track, or - for standard input\n",
                "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test("--gpx - or --svg - (standard output to other tools) is a usage error, 64, and no file named '-' is made",
          arguments: [["replay", "LOG", "--gpx", "-"], ["stats", "LOG", "--svg", "-"]])
    func dashIsNoFile(arguments: [String]) async throws {
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let folder = try TestSupport.temporaryDirectory()
        // Run in `folder`, where a file named "-" would appear.
        let run = try await TestSupport.run("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", folder.path, TestSupport.binary]
                                        + arguments.map { $0 == "LOG" ? walk : $0 },
                                      environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "HOME": folder.path])
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stderr.hasPrefix("geotrack: --") && run.stderr.contains("writes to a file, not to standard output; name one (./- for a file called '-')"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("-").path))
    }

    @Test("an unwritable path is a one-line error with EX_CANTCREAT")
    func cannotCreate() {
        #expect(throws: CLIError.self) {
            _ = try GPXWriter(path: "/nonexistent-dir/track.gpx", options: GPXOptions())
        }
        do {
            _ = try GPXWriter(path: "/nonexistent-dir/track.gpx", options: GPXOptions())
        } catch {
            #expect(error.status == .cannotCreate)
            #expect(error.message.contains("/nonexistent-dir/track.gpx"))
        }
    }
}

import Foundation
import GeoTrackTesting
import GPSReports
import Testing
@testable import NMEA

@Suite("GPX")
struct GPXTests {
    static let gpx11 = """
    \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
      <!-- a comment with <trkpt lat="1" lon="1"> inside -->
      <trk><name>Morning</name><trkseg>
        <trkpt lat="44.068900" lon="-121.314200"><ele>1144.9</ele><time>2017-01-10T00:09:42Z</time>
          <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.5</gpxtpx:speed><gpxtpx:course>12.5</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
        </trkpt>
        <trkpt lon='-121.314300' lat='44.069000'><time>2017-01-10T00:09:43.250Z</time></trkpt>
        <trkpt lat="44.069100" lon="-121.314400"><ele>1146.0</ele><time>2017-01-10T02:09:44+02:00</time></trkpt>
      </trkseg></trk>
    </gpx>
    """

    @Test("GPX 1.1 track points with elevation, time and Garmin speed/course extensions")
    func gpx11() throws {
        let result = try replay(Self.gpx11)
        let fixes = positions(result.reports)
        #expect(fixes.count == 3)
        #expect(result.statistics.trackPoints == 3)
        let first = try #require(fixes.first)
        #expect(first.mode == .threeD)
        #expect(first.latitude == 44.0689)
        #expect(first.longitude == -121.3142)
        #expect(first.altitudeMSL == 1144.9)
        #expect(first.speed == 1.5)
        #expect(first.track == 12.5)
        #expect(first.time == Date(timeIntervalSince1970: 1_484_006_982))
        #expect(fixes[1].mode == .twoD)
        #expect(fixes[1].time == Date(timeIntervalSince1970: 1_484_006_983.25))
        #expect(fixes[2].time == Date(timeIntervalSince1970: 1_484_006_984))
    }

    @Test("GPX 1.0 speed and course elements")
    func gpx10() throws {
        let text = """
        <gpx version="1.0"><trk><trkseg>
        <trkpt lat="10.0" lon="20.0"><ele>5</ele><time>2020-01-01T00:00:00Z</time><course>270.0</course><speed>3.25</speed></trkpt>
        </trkseg></trk></gpx>
        """
        let fix = try #require(positions(try replay(text).reports).first)
        #expect(fix.speed == 3.25)
        #expect(fix.track == 270)
    }

    @Test("a track cut off by a crash replays up to its last complete point")
    func truncated() throws {
        let end = try #require(Self.gpx11.range(of: "<ele>1146"))
        let cut = String(Self.gpx11[..<end.lowerBound])
        let fixes = positions(try replay(cut).reports)
        #expect(fixes.count == 2)
    }

    @Test("the format is detected from the content, not the name")
    func detection() throws {
        let path = try temporaryFile(Self.gpx11, suffix: ".nmea")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ReplayReader(path: path)
        #expect(reader.format == .gpx)
        let nmea = try temporaryFile(log(rmc("113258")), suffix: ".gpx")
        defer { try? FileManager.default.removeItem(atPath: nmea) }
        #expect(try ReplayReader(path: nmea).format == .nmea)
    }

    @Test("<fix>, <geoidheight>, DGPS age and station become the fix's; <sat> and the dilutions a sky report just before it")
    func receiverElements() throws {
        let text = """
        <gpx version="1.1"><trk><trkseg>
        <trkpt lat="41.5" lon="-93.7"><ele>278.16</ele><time>2020-03-18T13:28:19Z</time><geoidheight>-31.44</geoidheight>\
        <fix>dgps</fix><sat>12</sat><hdop>0.6</hdop><vdop>0.9</vdop><pdop>1.1</pdop><ageofdgpsdata>6.6</ageofdgpsdata><dgpsid>133</dgpsid></trkpt>
        <trkpt lat="41.5" lon="-93.7"><ele>278.2</ele><time>2020-03-18T13:28:20Z</time><fix>2d</fix></trkpt>
        <trkpt lat="41.5" lon="-93.7"><time>2020-03-18T13:28:21Z</time><fix>3D</fix></trkpt>
        <trkpt lat="41.5" lon="-93.7"><time>2020-03-18T13:28:22Z</time><fix>estimated</fix></trkpt>
        <trkpt lat="41.5" lon="-93.7"><time>2020-03-18T13:28:23Z</time><fix>none</fix></trkpt>
        </trkseg></trk></gpx>
        """
        let result = try replay(text)
        #expect(result.statistics.trackPoints == 5)
        guard case .sky(let sky)? = result.reports.first, case .fix(let first)? = result.reports.dropFirst().first else {
            Issue.record("expected a sky report, then the fix: \(result.reports)")
            return
        }
        #expect(sky.reportedUsedCount == 12 && sky.used == 12 && sky.satellites.isEmpty)
        // How many were seen the track does not say: unknown, not none.
        #expect(sky.seen == nil && !sky.listsSatellites)
        #expect(sky.hdop == 0.6 && sky.vdop == 0.9 && sky.pdop == 1.1)
        #expect(first.mode == .threeD && first.status == .dgps)
        #expect(first.altitudeMSL == 278.16 && first.geoidSeparation == -31.44)
        #expect(abs((first.altitudeHAE ?? 0) - 246.72) < 1e-9)
        #expect(first.dgpsAge == 6.6 && first.dgpsStation == 133)
        // The next point has no sky of its own: an empty report clears the first one's.
        guard case .sky(let cleared)? = result.reports.dropFirst(2).first else {
            Issue.record("expected an empty sky report: \(result.reports)")
            return
        }
        #expect(cleared.used == 0 && cleared.hdop == nil)
        let fixes = result.reports.compactMap { report -> Fix? in if case .fix(let fix) = report { fix } else { nil } }
        #expect(fixes.map(\.mode) == [.threeD, .twoD, .threeD, .twoD, .noFix])
        #expect(fixes[1].altitudeMSL == 278.2 && fixes[1].status == nil && fixes[1].geoidSeparation == nil)
        // A point whose receiver had no fix is no position, as gpsd reports none then.
        #expect(fixes[4].coordinate == nil && fixes[4].time != nil)
        #expect(positions(result.reports).count == 4)
    }

    @Test("gpxlogger's <ele> is the height above the ellipsoid: read as such, with gpsd's geoid model for the height above sea level")
    func gpxloggerHeights() throws {
        // gpxlogger's track of a log, and gpsd's own decoding of that log: the same fixes by time.
        let reader = try ReplayReader(path: try logPath("highrate-rtk.gpxlogger.gpx"))
        var points: [Fix] = []
        while let report = try reader.next() {
            if case .fix(let fix) = report, fix.latitude != nil { points.append(fix) }
        }
        let text = try String(contentsOfFile: try logPath("highrate-rtk.tpv.jsonl"), encoding: .utf8)
        var gpsd: [String: (hae: Double, msl: Double)] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let time = object["time"] as? String, let hae = object["altHAE"] as? Double,
                  let msl = object["altMSL"] as? Double else { continue }
            gpsd[time] = (hae, msl)
        }
        let withHeights = points.filter { $0.altitudeHAE != nil }
        #expect(withHeights.count > 50)
        for point in withHeights {
            let time = try #require(point.time.flatMap { UTCTime(secondsSince1970: $0.timeIntervalSince1970) }).iso8601()
            let theirs = try #require(gpsd[time], "gpsd has no fix at \(time)")
            #expect(point.altitudeHAE == theirs.hae)
            // The separation is gpsd's model's there (the log's own, 47.123 m, is made up and 2.4 m
            // off it), so the height above sea level is within a few metres of the log's, where
            // reading <ele> as sea level put the track 47 m high.
            let msl = try #require(point.altitudeMSL)
            let separation = try #require(point.geoidSeparation)
            let latitude = try #require(point.latitude), longitude = try #require(point.longitude)
            #expect(separation == GeoidModel.separation(latitude: latitude, longitude: longitude))
            #expect(abs(msl - theirs.msl) < 3, "\(msl) against gpsd's \(theirs.msl)")
            #expect(abs(msl + separation - theirs.hae) < 1e-9)
        }
    }

    @Test("an RTK receiver's millimetres in <ele> and <geoidheight> are read whole")
    func millimetres() throws {
        let text = """
        <gpx version="1.1"><trk><trkseg>
        <trkpt lat="41.5" lon="-93.7"><ele>278.1610</ele><time>2020-03-18T13:28:19Z</time><geoidheight>-31.442</geoidheight><fix>3d</fix></trkpt>
        </trkseg></trk></gpx>
        """
        let fix = try #require(positions(try replay(text).reports).first)
        #expect(fix.altitudeMSL == 278.161 && fix.geoidSeparation == -31.442)
        #expect(abs((fix.altitudeHAE ?? 0) - 246.719) < 1e-9)
    }

    @Test("a point's <sat> makes SKY say uSat alone: no nSat of 0 for satellites the track never listed")
    func satellitesUsedWithoutAList() throws {
        let text = """
        <gpx version="1.1"><trk><trkseg>
        <trkpt lat="41.5" lon="-93.7"><time>2020-03-18T13:28:19Z</time><fix>3d</fix><sat>16</sat><hdop>0.7</hdop><pdop>1.3</pdop></trkpt>
        </trkseg></trk></gpx>
        """
        let skies = try replay(text).reports.compactMap { report -> SkyView? in if case .sky(let sky) = report { sky } else { nil } }
        var sky = try #require(skies.first)
        sky.device = nil
        #expect(sky.skyJSON() == #"{"class":"SKY","time":"2020-03-18T13:28:19.000Z","hdop":0.70,"pdop":1.30,"uSat":16}"#)
    }

    @Test("points with impossible coordinates or values are skipped and counted")
    func invalidPoints() throws {
        let text = """
        <gpx><trk><trkseg>
        <trkpt lat="91.0" lon="20.0"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="10.0" lon="20.0"><time>not a time</time></trkpt>
        <trkpt lat="10.0" lon="20.0"><time>2020-01-01T00:00:02Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let result = try replay(text)
        #expect(positions(result.reports).count == 1)
        #expect(result.statistics.skippedTrackPoints == 2)
        #expect(result.statistics.invalidValues == 0)
        #expect(result.statistics.description == "0 sentences, 1 track point, 2 skipped track points")
    }

    @Test("impossible times are no times: February 30th, an offset of 99 hours, 1970's first second and earlier; their points are skipped and counted",
          arguments: ["2024-02-30T00:00:00Z", "2023-02-29T12:00:00Z", "2024-06-18T12:00:00-99:99", "2024-06-18T12:00:00+05:60",
                      "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.5Z", "0001-01-01T00:00:00Z"])
    func impossibleTimes(_ time: String) throws {
        #expect(GPXStreamDecoder.isoTime(ArraySlice(time.utf8)) == nil)
        let text = """
        <gpx><trk><trkseg>
        <trkpt lat="10.0" lon="20.0"><time>\(time)</time></trkpt>
        <trkpt lat="10.0" lon="20.0"><time>2024-02-29T23:59:59+14:00</time></trkpt>
        </trkseg></trk></gpx>
        """
        let result = try replay(text)
        #expect(result.statistics.skippedTrackPoints == 1)
        #expect(positions(result.reports).count == 1)
    }

    @Test("a point whose tag is too long to read (its own, or one of its elements') is skipped and counted, never lost unsaid")
    func oversizedTagsSkipTheirPoint() throws {
        let junk = String(repeating: "j", count: 5_000)
        let text = """
        <gpx><trk><trkseg>
        <trkpt lat="10.0" lon="20.0"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="10.0" lon="20.0" junk="\(junk)"><time>2020-01-01T00:00:01Z</time></trkpt>
        <trkpt lat="10.0" lon="20.0"><time junk="\(junk)">2020-01-01T00:00:02Z</time></trkpt>
        <trkpt lat="10.0" lon="20.0"><time>2020-01-01T00:00:03Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let result = try replay(text)
        #expect(positions(result.reports).count == 2)
        #expect(result.statistics.skippedTrackPoints == 2)
        #expect(result.statistics.trackPoints == 2)
    }
}

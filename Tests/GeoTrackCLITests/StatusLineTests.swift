import Foundation
import GPSReports
import GeoTrackService
import LocationKit
import Testing
@testable import GeoTrackCLI

@Suite("Status line rendering")
struct StatusLineTests {
    static func sampleFix(mode: FixMode = .threeD) -> Fix {
        var fix = Fix(mode: mode, time: Date(timeIntervalSince1970: 1_700_000_000.25))
        fix.latitude = 51.500_123
        fix.longitude = -0.123_456
        fix.altitudeMSL = 45.4
        fix.eph = 4.2
        fix.speed = 10
        fix.track = 275
        return fix
    }

    static let allStates: [TrackingStatus] = [
        .starting,
        .waitingForAuthorization,
        .denied,
        .unreachable(.connectionRefused(host: "localhost", port: 2947), retryingIn: .seconds(4)),
        .restricted(policyPath: "/etc/geotrack/policy"),
        .noReceiver,
        .searching(seen: 12, used: 4),
        fixStatus(sampleFix(), satellitesUsed: 8),
        fixStatus(sampleFix(mode: .twoD), satellitesUsed: 5),
        fixStatus(sampleFix(), satellitesUsed: 8, stale: true),
        .stale(nil),
        .finished,
        .failed(SourceError(.unreadableFile, message: "cannot replay track.nmea: no such file. Check the path.")),
    ]

    @Test("a 3D fix shows coordinates, accuracy, altitude, speed, heading with compass point, satellites and UTC time")
    func fullFix() {
        let line = StatusLine.render(fixStatus(Self.sampleFix(), satellitesUsed: 8), width: nil, options: RenderOptions())
        // The fix is a quarter of a second past the second: the milliseconds tell 4 Hz fixes apart.
        #expect(line == "3D  51.50012°N 0.12346°W  ±4 m  alt 45 m  36.0 km/h  275° W  8 sats  22:13:20.250Z")
        var whole = Self.sampleFix()
        whole.time = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(StatusLine.render(fixStatus(whole, satellitesUsed: 8), width: nil, options: RenderOptions()).hasSuffix("  22:13:20Z"))
    }

    @Test("a survey receiver's fix: the kind of solution, and the digits its accuracy warrants", arguments: [
        // (status, eph, epv, format, units, expected start of the line)
        (FixStatus.rtkFixed, 0.018, 0.021, CoordinateFormat.dd, Units.metric, "3D RTK fixed  51.5001234°N 0.1234568°W  ±0.018 m  alt 45.41 m"),
        (.rtkFloat, 0.35, 0.6, .dd, .metric, "3D RTK float  51.500123°N 0.123457°W  ±0.35 m  alt 45.4 m"),
        (.dgps, 0.9, 1.5, .ddm, .metric, "3D DGPS  51°30.0074'N 0°07.4074'W  ±0.90 m  alt 45 m"),
        (.rtkFixed, 0.004, 0.005, .dms, .imperial, "3D RTK fixed  51°30'00.4442\"N 0°07'24.4444\"W  ±0.013 ft  alt 148.99 ft"),
        (.gps, 4.2, 7.0, .dd, .metric, "3D  51.50012°N 0.12346°W  ±4 m  alt 45 m"),
        (.deadReckoning, 12, 20, .dd, .metric, "3D dead reckoning  51.50012°N 0.12346°W  ±12 m  alt 45 m"),
    ])
    func surveyFix(status: FixStatus, eph: Double, epv: Double, format: CoordinateFormat, units: Units, expected: String) {
        var fix = Self.sampleFix()
        fix.latitude = 51.500_123_4
        fix.longitude = -0.123_456_78
        fix.altitudeMSL = 45.4113
        fix.status = status
        fix.eph = eph
        fix.epv = epv
        let line = StatusLine.render(fixStatus(fix, satellitesUsed: 8), width: nil, options: RenderOptions(format: format, units: units))
        #expect(line.hasPrefix(expected + "  "), "\(line)")
    }

    @Test("a coordinate written as zero is N or E, whichever side of the equator or meridian it lay", arguments: [
        (CoordinateFormat.dd, "0.00000°N 0.00000°E"), (.ddm, "0°00.000'N 0°00.000'E"), (.dms, "0°00'00.0\"N 0°00'00.0\"E"),
    ])
    func zeroHemisphere(format: CoordinateFormat, expected: String) throws {
        let coordinate = try #require(Coordinate(latitude: -0.000_000_167, longitude: -0.000_000_4))
        #expect(format.format(coordinate) == expected)
        // Past the last digit's half it is south and west again.
        let south = try #require(Coordinate(latitude: -0.000_1, longitude: -0.000_1))
        #expect(format.format(south).contains("S") && format.format(south).contains("W"))
    }

    @Test("in a narrow window the kind of solution shortens before the position gives anything up")
    func kindShortens() {
        var fix = Self.sampleFix()
        fix.status = .rtkFloat
        fix.eph = 0.35
        let wide = StatusLine.render(fixStatus(fix, satellitesUsed: 8), width: nil, options: RenderOptions())
        #expect(wide.hasPrefix("3D RTK float  51.500123°N"))
        let narrow = StatusLine.render(fixStatus(fix, satellitesUsed: 8), width: 50, options: RenderOptions())
        #expect(narrow.hasPrefix("3D RTK flt  51.500123°N 0.123456°W  ±0.35 m"), "\(narrow)")
    }

    @Test("a compass heading with no true heading yet (no fix has given the variation) says it is magnetic; a true one says nothing more")
    func magneticHeadingIsMarked() throws {
        let location = try #require(Location(fix: Self.sampleFix(), sky: nil))
        let compass = Heading(trueHeading: nil, magneticHeading: 100, timestamp: location.timestamp, source: .sensor("HDG"))
        let line = StatusLine.render(.fix(location, heading: compass), width: nil, options: RenderOptions())
        #expect(line.contains("  100° E magnetic  "), "\(line)")
        let corrected = Heading(trueHeading: 85, magneticHeading: 100, timestamp: location.timestamp, source: .sensor("HDG"))
        let trueLine = StatusLine.render(.fix(location, heading: corrected), width: nil, options: RenderOptions())
        #expect(trueLine.contains("  85° E  ") && !trueLine.contains("magnetic"), "\(trueLine)")
    }

    @Test("units change speed and heights", arguments: [
        (Units.metric, "36.0 km/h", "alt 45 m"),
        (Units.imperial, "22.4 mph", "alt 149 ft"),
        (Units.nautical, "19.4 kn", "alt 45 m"),
    ])
    func units(units: Units, speed: String, altitude: String) {
        let line = StatusLine.render(fixStatus(Self.sampleFix()), width: nil, options: RenderOptions(units: units))
        #expect(line.contains(speed))
        #expect(line.contains(altitude))
    }

    @Test("a 2D fix has no altitude")
    func twoD() {
        let line = StatusLine.render(fixStatus(Self.sampleFix(mode: .twoD)), width: nil, options: RenderOptions())
        #expect(line.hasPrefix("2D  "))
        #expect(!line.contains("alt"))
    }

    @Test("every state fits 80 and 40 columns, on one line", arguments: [80, 40, 20, 2])
    func fits(width: Int) {
        for state in Self.allStates {
            let line = StatusLine.render(state, width: width, options: RenderOptions())
            #expect(line.count <= width - 1 || (width <= 2 && line.count <= 1), "\(state) at \(width): \(line)")
            #expect(!line.contains("\n") && !line.contains("\r"))
        }
    }

    @Test("at 40 columns a fix keeps mode and coordinates and drops the least important parts first")
    func narrowFix() {
        let line = StatusLine.render(fixStatus(Self.sampleFix(), satellitesUsed: 8), width: 40, options: RenderOptions())
        #expect(line == "3D  51.50012°N 0.12346°W  ±4 m")
        let wider = StatusLine.render(fixStatus(Self.sampleFix(), satellitesUsed: 8), width: 58, options: RenderOptions())
        #expect(wider == "3D  51.50012°N 0.12346°W  ±4 m  alt 45 m  36.0 km/h")
    }

    @Test("too narrow even for the essentials: cut with an ellipsis")
    func cut() {
        let line = StatusLine.render(fixStatus(Self.sampleFix()), width: 16, options: RenderOptions())
        #expect(line == "3D  51.50012°N…")
        #expect(line.count == 15)
    }

    @Test("the states read as the user needs them")
    func stateTexts() {
        let plain = RenderOptions()
        #expect(StatusLine.render(.waitingForAuthorization, width: nil, options: plain).contains("waiting for location authorization"))
        #expect(StatusLine.render(.denied, width: nil, options: plain).contains("geotrack auth grant"))
        #expect(StatusLine.render(.unreachable(SourceError(.connectionRefused, message: "refused"), retryingIn: .milliseconds(2_300)),
                                 width: nil, options: plain) == "gpsd unreachable: refused. Is gpsd running? (sudo systemctl start gpsd)  retrying in 3s")
        #expect(StatusLine.render(.noReceiver, width: nil, options: plain).hasPrefix("no GPS receiver"))
        #expect(StatusLine.render(.searching(seen: 12, used: 4), width: nil, options: plain) == "searching  satellites: 12 seen, 4 used")
        // A replayed GPX track knows how many satellites were used, not how many were seen.
        #expect(StatusLine.render(.searching(seen: nil, used: 16), width: nil, options: plain) == "searching  satellites: 16 used")
        let stale = StatusLine.render(fixStatus(Self.sampleFix(), stale: true), width: nil, options: plain)
        #expect(stale.hasPrefix("STALE  3D  51.50012°N"))
    }

    @Test("colour codes only when asked, and they do not count toward the width")
    func colour() {
        let state = fixStatus(Self.sampleFix(), satellitesUsed: 8)
        let plain = StatusLine.render(state, width: 40, options: RenderOptions())
        let coloured = StatusLine.render(state, width: 40, options: RenderOptions(color: true))
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[32m3D"))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }

    @Test("event lines carry the event's own UTC time")
    func events() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let options = RenderOptions(sourceName: "gpsd at localhost:2947")
        #expect(EventLine.render(TrackingEvent(.regionEntered("home"), at: time), options: options) == "22:13:20Z entered region home")
        #expect(EventLine.render(TrackingEvent(.reconnected, at: time.addingTimeInterval(1)), options: options)
            == "22:13:21Z reconnected to gpsd at localhost:2947")
        let visit = Visit(coordinate: try #require(Coordinate(latitude: 51.5, longitude: -0.12)), horizontalAccuracy: 50,
                          arrivalDate: time)
        #expect(EventLine.render(TrackingEvent(.visitStarted(visit), at: time), options: options) == "22:13:20Z arrived at 51.50000°N 0.12000°W")
    }

    @Test("the starting line names the source; a replay's end and a failure read as such")
    func sourceTexts() {
        let gpsd = RenderOptions(sourceName: "gpsd at localhost:2947")
        #expect(StatusLine.render(.starting, width: nil, options: gpsd) == "connecting to gpsd at localhost:2947")
        let replay = RenderOptions(sourceName: "track.nmea", startingMessage: "replaying track.nmea")
        #expect(StatusLine.render(.starting, width: nil, options: replay) == "replaying track.nmea")
        #expect(StatusLine.render(.finished, width: nil, options: replay) == "end of track.nmea")
        #expect(StatusLine.render(.restricted(policyPath: "/etc/geotrack/policy"), width: nil, options: replay)
            == "location access restricted by the administrator  (/etc/geotrack/policy)")
    }
}

@Suite("Coordinates, units and compass points")
struct FormattingTests {
    @Test("decimal degrees, degrees-minutes-seconds and degrees-decimal-minutes")
    func formats() throws {
        let coordinate = try #require(Coordinate(latitude: 51.500_123, longitude: -0.123_456))
        #expect(CoordinateFormat.dd.format(coordinate) == "51.50012°N 0.12346°W")
        #expect(CoordinateFormat.dms.format(coordinate) == "51°30'00.4\"N 0°07'24.4\"W")
        #expect(CoordinateFormat.ddm.format(coordinate) == "51°30.007'N 0°07.407'W")
    }

    @Test("southern and eastern hemispheres")
    func hemispheres() throws {
        let coordinate = try #require(Coordinate(latitude: -33.856_78, longitude: 151.215_3))
        #expect(CoordinateFormat.dd.format(coordinate) == "33.85678°S 151.21530°E")
    }

    @Test("rounding never shows 60 minutes or 60 seconds")
    func rounding() {
        #expect(CoordinateFormat.ddm.format(10.999_999_9, positive: "N", negative: "S") == "11°00.000'N")
        #expect(CoordinateFormat.dms.format(10.999_999_9, positive: "N", negative: "S") == "11°00'00.0\"N")
    }

    @Test("compass points", arguments: [(0.0, "0° N"), (275, "275° W"), (359.9, "0° N"), (22.5, "23° NNE"), (-90, "270° W"), (135, "135° SE")])
    func compass(degrees: Double, expected: String) {
        #expect(CompassPoint.bearing(degrees) == expected)
    }
}

@Suite("Fixed-point formatting")
struct DecimalTests {
    @Test("matches printf's %.Nf", arguments: [
        (0.0, 1), (1.25, 1), (-1.25, 1), (9.99, 1), (-0.04, 1), (123.456_789, 5), (0.000_004_9, 5), (59.9995, 3), (1e6, 0), (-7.5, 0),
    ] as [(Double, Int)])
    func printf(value: Double, decimals: Int) {
        let expected = String(format: "%.\(decimals)f", value)
        // printf rounds half to even on exact binary halves and keeps "-0.0"; we round half away and drop the sign of zero.
        let actual = NumberText.fixed(value, decimals: decimals)
        #expect(actual == expected || (expected.hasPrefix("-0") && Double(expected) == 0 && actual == String(expected.dropFirst()))
                || abs((Double(actual) ?? .nan) - (Double(expected) ?? .nan)) <= pow(10, -Double(decimals)) + 1e-12,
                "\(value) → \(actual), printf \(expected)")
    }

    @Test("padding")
    func padding() {
        #expect(NumberText.fixed(5.25, decimals: 3, integerDigits: 2) == "05.250")
        #expect(NumberText.padded(7, digits: 2) == "07")
        #expect(NumberText.padded(2023, digits: 4) == "2023")
    }
}

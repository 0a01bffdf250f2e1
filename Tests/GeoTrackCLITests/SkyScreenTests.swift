import Foundation
import GPSReports
import GeoTrackService
import LocationKit
import Testing
@testable import GeoTrackCLI

@Suite("Sky view layout")
struct SkyScreenTests {
    static func fix() -> Fix {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000), device: "/dev/ttyACM0")
        fix.status = .dgps
        fix.latitude = 51.500_123
        fix.longitude = -0.123_456
        fix.altitudeMSL = 45.4
        fix.altitudeHAE = 92.6
        fix.eph = 4.2
        fix.epx = 3.1
        fix.epy = 2.6
        fix.epv = 7.9
        fix.ept = 0.005
        fix.speed = 10
        fix.eps = 0.4
        fix.climb = -0.3
        fix.epc = 0.8
        fix.track = 275
        fix.epd = 12
        return fix
    }

    static func sky(_ satellites: [Satellite]) -> SkyView {
        var sky = SkyView(device: "/dev/ttyACM0", satellites: satellites)
        sky.hdop = 0.92
        sky.vdop = 1.4
        sky.pdop = 1.71
        sky.tdop = 0.8
        sky.gdop = 1.93
        return sky
    }

    static let satellites = [
        Satellite(prn: 5, gnssID: 0, svID: 5, elevation: 90, azimuth: 0, signalStrength: 44, used: true, health: .healthy),
        Satellite(prn: 71, gnssID: 6, svID: 7, elevation: 0, azimuth: 0, signalStrength: 20, used: false),
        Satellite(prn: 302, gnssID: 2, svID: 2, elevation: 0, azimuth: 90, signalStrength: 31, used: true, health: .unhealthy),
        Satellite(prn: 13, gnssID: 0, svID: 13, signalStrength: 12, used: false),
    ]

    /// A screen that has seen a fix, its sky view and gpsd's receiver.
    static func screen(units: Units = .metric, satellites: [Satellite] = satellites) -> SkyScreen {
        var screen = SkyScreen(options: RenderOptions(units: units, sourceName: "gpsd at localhost:2947"))
        screen.apply(.report(.devices([Device(path: "/dev/ttyACM0", driver: "u-blox", subtype: "SW ROM CORE 3.01",
                                              activated: Date(), bitsPerSecond: 9600, cycle: 1)])))
        let sky = sky(satellites)
        screen.apply(.report(.sky(sky)))
        let location = Location(fix: fix(), sky: sky)
        let heading = Heading(trueHeading: 270.4, timestamp: Date(timeIntervalSince1970: 1_700_000_000), source: .sensor("HDT"))
        screen.apply(.status(.fix(try! #require(location), heading: heading)))
        return screen
    }

    /// The value printed after a label in the left column.
    static func value(_ label: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix(label + String(repeating: " ", count: SkyScreen.labelWidth - label.count)) }
            .map { String($0.dropFirst(SkyScreen.labelWidth).prefix(SkyScreen.leftWidth - SkyScreen.labelWidth)) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("with two receivers on one gpsd, the satellites and dilutions shown are those of the receiver whose fix is shown")
    func twoReceivers() throws {
        var screen = Self.screen()
        // The other receiver's SKY comes after this one's fix, as gpsd interleaves them.
        var other = SkyView(device: "/dev/ttyUSB1", satellites: (1...30).map {
            Satellite(prn: $0, gnssID: 0, svID: $0, elevation: 45, azimuth: 90, signalStrength: 40, used: true)
        })
        other.hdop = 0.5
        screen.apply(.report(.sky(other)))
        let lines = screen.render(width: 80, height: 24, color: false)
        #expect(Self.value("Receiver", in: lines) == "/dev/ttyACM0")
        #expect(Self.value("Sats", in: lines) == "2 used of 4 seen")
        #expect(Self.value("DOP", in: lines)?.hasPrefix("H 0.92") == true)
        // A third receiver's fix, before it sent a SKY: no satellites rather than another's.
        var third = Self.fix()
        third.device = "/dev/ttyUSB2"
        screen.apply(.status(.fix(try #require(Location(fix: third)), heading: nil)))
        #expect(Self.value("Sats", in: screen.render(width: 80, height: 24, color: false)) == nil)
        // The other receiver's fix brings its own satellites.
        var fix = Self.fix()
        fix.device = "/dev/ttyUSB1"
        screen.apply(.status(.fix(try #require(Location(fix: fix, sky: other)), heading: nil)))
        let next = screen.render(width: 80, height: 24, color: false)
        #expect(Self.value("Sats", in: next) == "30 used of 30 seen")
    }

    @Test("once gpsd is unreachable, or has no receiver, its last satellites, dilutions and receiver are not shown as current")
    func lostGPSDClearsTheSky() {
        for status in [TrackingStatus.unreachable(.connectionRefused(host: "localhost", port: 2947), retryingIn: nil), .noReceiver] {
            var screen = Self.screen()
            #expect(Self.value("Sats", in: screen.render(width: 80, height: 24, color: false)) == "2 used of 4 seen")
            screen.apply(.status(status))
            let lines = screen.render(width: 80, height: 24, color: false)
            #expect(Self.value("Sats", in: lines) == nil, "\(status)")
            #expect(Self.value("DOP", in: lines) == "-" || Self.value("DOP", in: lines) == nil, "\(lines)")
            #expect(!lines.contains { $0.contains("GPS        5") }, "the table is empty: \(lines)")
            // Nothing is known of the satellites now: dashes, not counts of 0.
            #expect(lines.contains { $0.contains("● used     -") } && lines.contains { $0.contains("seen     -") }, "\(lines)")
        }
    }

    @Test("a fix from a log without GSV (no sky view at all): the legend's counts are dashes, not 'used 0' beside a 3D fix")
    func noSkyViewAtAll() throws {
        var screen = SkyScreen(options: RenderOptions(sourceName: "nmea-rtk.nmea"))
        screen.apply(.status(.fix(try #require(Location(fix: Self.fix(), sky: nil)), heading: nil)))
        let lines = screen.render(width: 80, height: 24, color: false)
        #expect(lines.contains { $0.contains("● used     -") } && lines.contains { $0.contains("○ not used -") }
                && lines.contains { $0.contains("seen     -") }, "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("used     0") })
    }

    @Test("the fix panel: time, position, MSL and HAE, speed, climb, course (each with its error), heading and its source, mode and status")
    func fixPanel() {
        let lines = Self.screen().render(width: 80, height: 24, color: false)
        #expect(Self.value("Status", in: lines) == "3D fix, DGPS")
        #expect(Self.value("Time", in: lines) == "2023-11-14 22:13:20Z ±0.005 s")
        #expect(Self.value("Position", in: lines) == "51.50012°N 0.12346°W")
        #expect(Self.value("Altitude", in: lines) == "45 m MSL  93 m HAE")
        #expect(Self.value("Speed", in: lines) == "36.0 km/h ±1.4 km/h")
        #expect(Self.value("Climb", in: lines) == "-0.3 m/s ±0.8 m/s")
        #expect(Self.value("Course", in: lines) == "275° W true ±12°")
        #expect(Self.value("Heading", in: lines) == "270° W true (HDT)")
    }

    @Test("DOPs and gpsd's error estimates, each with its unit, in the units chosen")
    func dopsAndErrors() throws {
        let metric = Self.screen().render(width: 80, height: 24, color: false)
        #expect(Self.value("DOP", in: metric) == "H 0.92  V 1.40  P 1.71")
        let dopRow = try #require(metric.firstIndex { $0.hasPrefix("DOP ") })
        #expect(metric[dopRow + 1].hasPrefix(String(repeating: " ", count: 10) + "T 0.80  G 1.93"))
        #expect(Self.value("Error", in: metric) == "x ±3 m  y ±3 m  v ±8 m")

        let imperial = Self.screen(units: .imperial).render(width: 80, height: 24, color: false)
        #expect(Self.value("Error", in: imperial) == "x ±10 ft  y ±9 ft  v ±26 ft")
        #expect(Self.value("Climb", in: imperial) == "-59 ft/min ±157 ft/min")
        #expect(Self.value("Speed", in: imperial) == "22.4 mph ±0.9 mph")
    }

    @Test("the receiver: device path, driver, baud rate and cycle, from gpsd's DEVICES")
    func receiver() throws {
        let lines = Self.screen().render(width: 80, height: 24, color: false)
        #expect(Self.value("Receiver", in: lines) == "/dev/ttyACM0")
        let row = try #require(lines.firstIndex { $0.hasPrefix("Receiver ") })
        #expect(lines[row + 1].dropFirst(10).hasPrefix("u-blox SW ROM CORE 3.01"))
        #expect(lines[row + 2].dropFirst(10).hasPrefix("9600 bps, cycle 1 s"))
        // A value wider than its column is cut, and the cut is shown.
        var long = Self.screen()
        long.apply(.report(.deviceRemoved(Device(path: "/dev/ttyACM0"))))
        long.apply(.report(.deviceAdded(Device(path: "/dev/serial/by-id/usb-u-blox_AG_GNSS_receiver-if00",
                                               activated: Date()))))
        let cut = long.render(width: 80, height: 24, color: false)
        #expect(Self.value("Receiver", in: cut) == "/dev/serial/by-id/usb-u-blox…")
        #expect(Self.value("Sats", in: lines) == "2 used of 4 seen")
    }

    @Test("the table lists every satellite, used ones first: system, PRN, SVID, elevation, azimuth, signal, use, health")
    func table() throws {
        let lines = Self.screen().render(width: 80, height: 24, color: false)
        let header = try #require(lines.firstIndex { $0.hasSuffix(SatelliteTable.header) })
        let rows = lines[(header + 1)...].map { String($0.dropFirst(SkyScreen.rightStart)) }
        #expect(Array(rows.prefix(4)) == [
            "GPS        5   5  90   0  44  ●  ok",
            "Galileo  302   2   0  90  31  ●  BAD",
            "GPS       13  13   -   -  12  ○  -",
            "GLONASS   71   7   0   0  20  ○  -",
        ])
    }

    @Test("the plot: north up, east right, zenith in the middle, used ● and unused ○, rings in braille")
    func plot() throws {
        let rows = 10
        var canvas = TextCanvas(width: SkyPlot.columns(rows: rows), height: rows)
        SkyPlot.draw(Self.satellites, on: &canvas, top: 0, left: 0, rows: rows)
        let lines = canvas.lines(color: false).map { Array($0.unicodeScalars) }
        func at(_ row: Int, _ column: Int) -> Character {
            guard row < lines.count, column < lines[row].count else { return " " }
            return Character(lines[row][column])
        }
        // Zenith: the centre cell; east on the horizon: the ring's right edge, middle row.
        #expect(at(5, 10) == "●")
        #expect(at(5, 18) == "●")
        #expect(at(0, 10) == "N" && at(9, 10) == "S" && at(5, 0) == "W" && at(5, 19) == "E")
        // PRN 71 at elevation 0 and azimuth 0 (gpsd's "no position") and PRN 13 with none are
        // listed in the table but not plotted: nothing stands on the horizon at north.
        #expect(at(1, 10) != "○")
        let marks = lines.joined().filter { $0 == "●" || $0 == "○" }
        #expect(marks.count == 2)
        let braille = lines.joined().filter { (0x2801...0x28FF).contains($0.value) }
        #expect(braille.count > 30, "the rings are drawn: \(braille.count) braille cells")
        // North just above the horizon: the top ring row, centre column.
        #expect(SkyPlot.cell(of: Satellite(prn: 9, elevation: 1, azimuth: 0), top: 0, left: 0, rows: rows).map { $0 == (1, 10) } == true)
    }

    @Test("a satellite has a position to plot only with both values, 0° to 90° up, and not 0° and 0° (gpsd's none); the page follows the same rule")
    func skyPosition() {
        #expect(Satellite(prn: 1, elevation: 0, azimuth: 90).skyPosition.map { $0 == (0, 90) } == true)
        #expect(Satellite(prn: 1, elevation: 90, azimuth: 0).skyPosition.map { $0 == (90, 0) } == true)
        #expect(Satellite(prn: 1, elevation: 0.5, azimuth: 0).skyPosition.map { $0 == (0.5, 0) } == true)
        for unplotted in [Satellite(prn: 1, elevation: 0, azimuth: 0), Satellite(prn: 1, elevation: -3, azimuth: 10),
                          Satellite(prn: 1, elevation: 95, azimuth: 10), Satellite(prn: 1, elevation: 45),
                          Satellite(prn: 1, azimuth: 45), Satellite(prn: 1, elevation: 45, azimuth: .nan)] {
            #expect(unplotted.skyPosition == nil, "\(unplotted)")
            #expect(SkyPlot.cell(of: unplotted, top: 0, left: 0, rows: 10) == nil, "\(unplotted)")
        }
        // The page's JSON carries the same verdict for each satellite.
        let json = ServePage.skyJSON(SkyView(satellites: [Satellite(prn: 5, elevation: 45, azimuth: 120),
                                                          Satellite(prn: 12, elevation: 0, azimuth: 0)]))
        #expect(json.contains(#""prn":5,"#) && json.components(separatedBy: #""plotted":"#).dropFirst().map { $0.prefix(4) } == ["true", "fals"], "\(json)")
    }

    @Test("every size fits: no line wider than the window less one column, never more rows than it has",
          arguments: [(80, 24), (120, 40), (100, 30), (60, 20), (40, 12), (20, 5)])
    func fits(width: Int, height: Int) {
        let many = (1...40).map { Satellite(prn: $0, gnssID: 0, svID: $0, elevation: Double($0 * 2), azimuth: Double($0 * 9),
                                            signalStrength: 30, used: $0 % 3 == 0) }
        let lines = Self.screen(satellites: many).render(width: width, height: height, color: false, hint: SkyDisplay.hint)
        #expect(lines.count <= height)
        for line in lines {
            #expect(line.unicodeScalars.count <= width - 1, "\(width)×\(height): \(line)")
        }
        // Whatever of the table fits, what does not is said: rows and '… N more', or with room
        // for one row only, how many satellites a taller window lists.
        if width >= 60 {
            #expect(lines.contains { $0.contains("more (a taller window shows them)") || $0.contains("40 satellites (a taller window lists them)") },
                    "\(width)×\(height): \(lines.joined(separator: "\n"))")
        }
        if width >= 80 {
            #expect(lines.contains { $0.hasSuffix(SatelliteTable.header) })
            #expect(lines.contains { $0.contains("more (a taller window shows them)") } == (height < 54))
            #expect(lines[0].hasSuffix("Ctrl-C quits"))
        }
    }

    @Test("colour wraps runs of one style and resets; without it there is no escape at all")
    func colour() {
        let coloured = Self.screen().render(width: 80, height: 24, color: true).joined(separator: "\n")
        #expect(coloured.contains("\u{1B}[32m●"))
        #expect(coloured.contains("\u{1B}[31mBAD\u{1B}[0m"))
        let plain = Self.screen().render(width: 80, height: 24, color: false).joined(separator: "\n")
        #expect(!plain.contains("\u{1B}"))
    }

    @Test("a replay's last fix and its heading stay on its final screen; after gpsd is lost no position is shown as current")
    func endAndLoss() throws {
        var ended = Self.screen()
        ended.apply(.status(.finished))
        let final = ended.render(width: 80, height: 24, color: false)
        #expect(Self.value("Status", in: final) == "ended, last: 3D fix, DGPS", "the last fix's kind stays said")
        #expect(Self.value("Position", in: final) == "51.50012°N 0.12346°W")
        // And the heading shown with that fix, as the status line's last one shows it.
        #expect(Self.value("Heading", in: final) == "270° W true (HDT)")

        // A kind too long for the column goes on the line below, whole.
        for (status, kind) in [(FixStatus.deadReckoning, "3D fix, dead reckoning"), (.rtkFloat, "3D fix, RTK float")] {
            var screen = SkyScreen(options: RenderOptions(units: .metric, sourceName: "gpsd at localhost:2947"))
            var fix = Self.fix()
            fix.status = status
            screen.apply(.status(.fix(try #require(Location(fix: fix)), heading: nil)))
            screen.apply(.status(.finished))
            let lines = screen.render(width: 120, height: 24, color: false)
            let index = try #require(lines.firstIndex { $0.hasPrefix("Status ") })
            let shown = lines[index...].prefix(2).map { String($0.prefix(SkyScreen.leftWidth)).trimmingCharacters(in: .whitespaces) }
            #expect(shown.joined(separator: " ").hasPrefix("Status    ended") && shown.joined(separator: " ").hasSuffix("last: " + kind),
                    "\(shown)")
            #expect(!lines.joined().contains("…"))
        }

        var lost = Self.screen()
        lost.apply(.status(.unreachable(.connectionRefused(host: "localhost", port: 2947), retryingIn: nil)))
        let lines = lost.render(width: 80, height: 24, color: false)
        #expect(Self.value("Status", in: lines)?.hasPrefix("gpsd unreachable") == true)
        #expect(Self.value("Position", in: lines) == "-")
    }

    @Test("a survey receiver's fix at 10 Hz: its centimetres, its errors, its corrections and its tenths of a second, none cut")
    func surveyFix() throws {
        var fix = Self.fix()
        fix.time = Date(timeIntervalSince1970: 1_700_000_000.2)
        fix.status = .rtkFixed
        fix.latitude = 48.117_302_09
        fix.longitude = 11.516_668_72
        fix.altitudeMSL = 545.4127
        fix.altitudeHAE = 592.5357
        fix.eph = 0.018
        fix.epx = 0.014
        fix.epy = 0.012
        fix.epv = 0.021
        fix.dgpsAge = 1.4
        fix.dgpsStation = 123
        var screen = SkyScreen(options: RenderOptions(units: .metric, sourceName: "gpsd at localhost:2947"))
        screen.apply(.status(.fix(try #require(Location(fix: fix)), heading: nil)))
        let lines = screen.render(width: 80, height: 30, color: false)
        #expect(Self.value("Status", in: lines) == "3D fix, RTK fixed")
        #expect(Self.value("Position", in: lines) == "48.1173021°N 11.5166687°E")
        #expect(Self.value("Altitude", in: lines) == "545.41 m MSL  592.54 m HAE")
        // Three errors to the millimetre do not fit the column: the vertical one goes below.
        let error = try #require(lines.firstIndex { $0.hasPrefix("Error ") })
        #expect(Self.value("Error", in: lines) == "x ±0.014 m  y ±0.012 m")
        #expect(lines[error + 1].prefix(SkyScreen.leftWidth).trimmingCharacters(in: .whitespaces) == "v ±0.021 m")
        #expect(Self.value("DGPS", in: lines) == "age 1.4 s, station 123")
        // The date, the time to the millisecond and gpsd's error do not fit the column: the
        // error goes on the line below, whole.
        let time = try #require(lines.firstIndex { $0.hasPrefix("Time ") })
        #expect(Self.value("Time", in: lines) == "2023-11-14 22:13:20.200Z")
        #expect(lines[time + 1].prefix(SkyScreen.leftWidth).trimmingCharacters(in: .whitespaces) == "±0.005 s")
        #expect(!lines.joined().contains("…"))
    }

    @Test("strings from gpsd cannot drive the terminal")
    func hostileStrings() {
        var screen = Self.screen()
        screen.apply(.report(.deviceAdded(Device(path: "/dev/ttyACM0", driver: "evil\u{1B}]0;pwned\u{07}",
                                                 activated: Date()))))
        let text = screen.render(width: 80, height: nil, color: false).joined()
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        #expect(text.contains("evil\\u{1b}]0;pwned\\u{7}"))
    }
}

import FoundationEssentials
import GPSReports
#if canImport(Glibc)
import Glibc
#endif

/// Reads a GPX 1.0 or 1.1 track as a stream of fixes, one per complete `<trkpt>`.
///
/// A small tag-level state machine, not a DOM: memory stays bounded whatever the file's size.
/// It takes `lat`/`lon`, `<time>`, `<ele>`, and speed (m/s) and course (degrees) from GPX 1.0
/// `<speed>`/`<course>` or from any extension element of those names (such as Garmin's
/// `gpxtpx:speed`), and an echo sounder's depth (metres) from one named `depth`. A track cut
/// off mid-point (a copy that stopped) ends at its last complete point, and
/// ``ReplayStatistics/cutTrackPoint`` says the rest was left out.
///
/// What a receiver said about the fix is kept too, so that a track replayed into another track
/// (or into JSON) loses nothing its writer recorded: `<fix>` gives the mode and status (`none`
/// is a report without a position, as gpsd gives while a receiver has no fix), `<geoidheight>`
/// the geoid's separation and with `<ele>` the height above the ellipsoid, `<ageofdgpsdata>`
/// and `<dgpsid>` the differential corrections, and `<sat>`, `<hdop>`, `<vdop>` and `<pdop>`
/// a sky report (no satellites listed, their count and dilutions) sent just before the point.
final class GPXStreamDecoder {
    /// Counts of what was read and skipped.
    var statistics = ReplayStatistics()

    /// The device name put in every report.
    let device: String?
    private static let maximumTag = 4096
    private static let maximumText = 64

    private enum Mode { case text, tag, comment, skipTag }
    private enum Element { case none, time, elevation, speed, course, depth, fix, geoidHeight, dgpsAge, dgpsStation, satellites, hdop, vdop, pdop }

    /// The elements of a point whose text is read, by their local name (any namespace prefix dropped).
    private static let capturedElements: [(name: String, element: Element)] = [
        ("time", .time), ("ele", .elevation), ("speed", .speed), ("course", .course), ("depth", .depth), ("fix", .fix),
        ("geoidheight", .geoidHeight), ("ageofdgpsdata", .dgpsAge), ("dgpsid", .dgpsStation),
        ("sat", .satellites), ("hdop", .hdop), ("vdop", .vdop), ("pdop", .pdop),
    ]

    /// GPX 1.1's `fixType`, as read from `<fix>`.
    private enum FixType { case none, twoD, threeD, dgps, pps }

    /// What a point says of the sky, which becomes a ``SkyView`` of its own.
    private struct PointSky: Equatable {
        var satellites: Int?
        var hdop: Double?
        var vdop: Double?
        var pdop: Double?
        var isEmpty: Bool { self == PointSky() }
    }

    private var mode = Mode.text
    private var tag: [UInt8] = []
    private var text: [UInt8] = []
    private var capturing = Element.none
    private var inPoint = false
    private var point = GPSDFix()
    private var pointInvalid = false
    private var fixType: FixType?
    private var pointSky = PointSky()
    private var dgpsAge = Double.nan
    private var dgpsStation = -1
    /// Whether the last point sent a sky report, which a point without one must then clear:
    /// its satellites and dilutions are not the next point's.
    private var sentSky = false
    private var commentTail: (UInt8, UInt8) = (0, 0)
    /// Whether the document's root element has been read.
    private var sawRoot = false
    /// The file is gpxlogger's: its `<ele>` is the height above the ellipsoid.
    private var elevationAboveEllipsoid = false
    /// The time of the last point with a position (0 before one).
    private var lastPointTime = 0.0
    /// Whether a point has been reported, and whether a `<trkseg>` opened since the last one:
    /// the next point then begins a segment after another.
    private var reportedPoint = false
    private var segmentOpened = false

    init(device: String?) {
        self.device = device
        tag.reserveCapacity(256)
        text.reserveCapacity(Self.maximumText)
    }

    /// Consumes bytes and returns how many it used; stops early once `reports` is not empty.
    func consume(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, into reports: inout [Report]) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var i = 0
        let n = bytes.count
        while i < n {
            if !reports.isEmpty { return i }
            let c = base[i]
            i += 1
            switch mode {
            case .text:
                if c == UInt8(ascii: "<") {
                    mode = .tag
                    tag.removeAll(keepingCapacity: true)
                } else if capturing != .none {
                    if text.count < Self.maximumText { text.append(c) } else { pointInvalid = true }
                }
            case .tag:
                if c == UInt8(ascii: ">") {
                    mode = .text
                    handleTag(into: &reports)
                } else if tag.count >= Self.maximumTag {
                    mode = .skipTag
                    statistics.oversized += 1
                    oversizedTag()
                } else {
                    tag.append(c)
                    if tag.count == 3 && tag[0] == UInt8(ascii: "!") && tag[1] == UInt8(ascii: "-") && tag[2] == UInt8(ascii: "-") {
                        mode = .comment
                        commentTail = (0, 0)
                    }
                }
            case .comment:
                if c == UInt8(ascii: ">") && commentTail == (UInt8(ascii: "-"), UInt8(ascii: "-")) {
                    mode = .text
                }
                commentTail = (commentTail.1, c)
            case .skipTag:
                if c == UInt8(ascii: ">") { mode = .text }
            }
        }
        // A document cut short inside a point (a copy that stopped, a disk that filled) loses
        // that point: said, not silent.
        if atEnd, reports.isEmpty {
            statistics.cutTrackPoint = inPoint || (mode == .tag && (tag.starts(with: "trkpt".utf8) || tag.starts(with: "rtept".utf8)))
        }
        return i
    }

    private func handleTag(into reports: inout [Report]) {
        guard let first = tag.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "!") else { return }
        let closing = first == UInt8(ascii: "/")
        let selfClosing = tag.last == UInt8(ascii: "/")
        var nameStart = closing ? 1 : 0
        var nameEnd = nameStart
        while nameEnd < tag.count, !Self.isSpace(tag[nameEnd]), tag[nameEnd] != UInt8(ascii: "/") {
            if tag[nameEnd] == UInt8(ascii: ":") { nameStart = nameEnd + 1 }
            nameEnd += 1
        }
        let name = tag[nameStart..<nameEnd]
        if !closing, !sawRoot {
            sawRoot = true
            // KML, an HTML page, Garmin's TCX: XML, but nothing of it is a track point here.
            if !name.elementsEqual("gpx".utf8) {
                statistics.junkRuns += 1
                // Only letters, digits, - and _ of it: the name is printed in the error.
                let safe = name.prefix(40).filter { byte in
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                }
                statistics.foreignDocument = safe.isEmpty ? "?" : String(decoding: safe, as: UTF8.self)
            } else {
                // gpxlogger (creator "GPSD 3.22 - https://gpsd.io") writes the height above the
                // ellipsoid as <ele>, where other writers, geotrack among them, write the height
                // above mean sea level: read as such, its track would be some tens of metres high.
                forEachAttribute(from: nameEnd) { key, value in
                    if key.elementsEqual("creator".utf8), value.starts(with: "GPSD ".utf8) { elevationAboveEllipsoid = true }
                }
            }
        }
        if closing {
            closeElement(name, into: &reports)
            return
        }
        if name.elementsEqual("trkseg".utf8) || name.elementsEqual("trk".utf8) { segmentOpened = true }
        if name.elementsEqual("trkpt".utf8) || name.elementsEqual("rtept".utf8) {
            beginPoint(attributesFrom: nameEnd)
            if selfClosing { closeElement(name, into: &reports) }
            return
        }
        guard inPoint, !selfClosing else { return }
        capturing = Self.capturedElements.first { name.elementsEqual($0.name.utf8) }?.element ?? .none
        text.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each attribute's name and value in the tag, from `start`.
    private func forEachAttribute(from start: Int, _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        var k = start
        while k < tag.count {
            while k < tag.count, Self.isSpace(tag[k]) { k += 1 }
            let keyStart = k
            while k < tag.count, tag[k] != UInt8(ascii: "="), !Self.isSpace(tag[k]) { k += 1 }
            let key = tag[keyStart..<k]
            while k < tag.count, tag[k] != UInt8(ascii: "\""), tag[k] != UInt8(ascii: "'") { k += 1 }
            guard k < tag.count else { break }
            let quote = tag[k]
            k += 1
            let valueStart = k
            while k < tag.count, tag[k] != quote { k += 1 }
            body(key, tag[valueStart..<min(k, tag.count)])
            k += 1
        }
    }

    /// A tag too long to read: a point's own opening tag, or any tag within a point, makes
    /// that point one that is skipped and said so (``ReplayStatistics/skippedTrackPoints``),
    /// never one that vanishes because its start was not seen.
    private func oversizedTag() {
        let opensPoint = ["trkpt", "rtept"].contains { name in
            tag.count > name.utf8.count && tag.starts(with: name.utf8) && [0x20, 0x09, 0x0A, 0x0D].contains(tag[name.utf8.count])
        }
        if opensPoint {
            beginPoint(attributesFrom: tag.count)
            pointInvalid = true
        } else if inPoint {
            pointInvalid = true
        }
    }

    private func beginPoint(attributesFrom start: Int) {
        inPoint = true
        pointInvalid = false
        point = GPSDFix()
        fixType = nil
        pointSky = PointSky()
        dgpsAge = .nan
        dgpsStation = -1
        capturing = .none
        var lat = Double.nan, lon = Double.nan
        forEachAttribute(from: start) { key, text in
            let value = Self.number(text)
            if key.elementsEqual("lat".utf8) { lat = value ?? .infinity }
            if key.elementsEqual("lon".utf8) { lon = value ?? .infinity }
        }
        if lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 {
            point.latitude = lat
            point.longitude = lon
        } else {
            pointInvalid = true
        }
    }

    private func closeElement(_ name: ArraySlice<UInt8>, into reports: inout [Report]) {
        if name.elementsEqual("trkpt".utf8) || name.elementsEqual("rtept".utf8) {
            guard inPoint else { return }
            inPoint = false
            capturing = .none
            if pointInvalid {
                statistics.skippedTrackPoints += 1
                return
            }
            statistics.trackPoints += 1
            finishPoint()
            // Points of one time (an app that samples faster than it writes seconds) become one
            // point per time in a track and its statistics: counted, to be said.
            if point.time != 0, point.time == lastPointTime, point.latitude.isFinite { statistics.repeatedTimes += 1 }
            if point.latitude.isFinite { lastPointTime = point.time }
            if !pointSky.isEmpty || sentSky {
                reports.append(.sky(skyView()))
                statistics.reports += 1
                sentSky = !pointSky.isEmpty
            }
            var fix = point.report(status: point.status, device: device)
            fix.beginsTrackSegment = segmentOpened && reportedPoint
            segmentOpened = false
            reportedPoint = true
            reports.append(.fix(fix))
            statistics.reports += 1
            return
        }
        guard inPoint, capturing != .none else { return }
        let element = capturing
        capturing = .none
        let trimmed = Self.trim(text[...])
        switch element {
        case .time:
            if let t = Self.isoTime(trimmed) { point.time = t } else { pointInvalid = true }
        case .elevation:
            if let v = Self.number(trimmed), v.isFinite, abs(v) < 1e6 { point.altMSL = v } else { pointInvalid = true }
        case .speed:
            if let v = Self.number(trimmed), v.isFinite, v >= 0, v < 1e5 { point.speed = v } else { pointInvalid = true }
        case .course:
            if let v = Self.number(trimmed), v.isFinite, (0...360).contains(v) { point.track = v } else { pointInvalid = true }
        case .depth:
            if let v = Self.number(trimmed), v.isFinite, v >= 0, v < 1e5 { point.depth = v } else { pointInvalid = true }
        case .fix:
            // A `fixType` outside GPX's list says nothing of the position: the point stays, as without `<fix>`.
            fixType = Self.fixType(trimmed)
        case .geoidHeight:
            if let v = Self.number(trimmed), v.isFinite, abs(v) < 1000 { point.geoidSeparation = v } else { pointInvalid = true }
        case .dgpsAge:
            if let v = Self.number(trimmed), v.isFinite, v >= 0, v < 1e6 { dgpsAge = v } else { pointInvalid = true }
        case .dgpsStation:
            // GPX 1.1's dgpsStationType: 0 to 1023.
            if let v = Self.number(trimmed), v.isFinite, v >= 0, v <= 1023, v == v.rounded() { dgpsStation = Int(v) } else { pointInvalid = true }
        case .satellites:
            if let v = Self.number(trimmed), v.isFinite, v >= 0, v <= 1000, v == v.rounded() { pointSky.satellites = Int(v) } else { pointInvalid = true }
        case .hdop, .vdop, .pdop:
            guard let v = Self.number(trimmed), v.isFinite, v >= 0, v < 1e5 else {
                pointInvalid = true
                break
            }
            switch element {
            case .hdop: pointSky.hdop = v
            case .vdop: pointSky.vdop = v
            default: pointSky.pdop = v
            }
        case .none:
            break
        }
    }

    /// Sets the point's mode, status and heights from what it held. Without `<fix>`, a point
    /// with an elevation is 3D and one without is 2D.
    private func finishPoint() {
        switch fixType {
        case .none?:
            point.mode = 1
        case .twoD?:
            point.mode = 2
        case .threeD?:
            point.mode = 3
        case .dgps?, .pps?, nil:
            point.mode = point.altMSL.isFinite ? 3 : 2
        }
        point.status = switch fixType {
        case .dgps?: 2
        case .pps?: 9
        default: 0
        }
        // `ele` is the height above mean sea level, and `ele + geoidheight` the height above
        // the ellipsoid (GPX 1.1's definition of geoidheight, and how geotrack writes both).
        // gpxlogger's `ele` is the height above the ellipsoid, and it writes no geoidheight: the
        // height above sea level is then gpsd's, from its geoid model, as gpsd gives it when a
        // receiver reports no separation.
        if elevationAboveEllipsoid {
            point.altHAE = point.altMSL
            if point.altHAE.isFinite, !point.geoidSeparation.isFinite, point.latitude.isFinite, point.longitude.isFinite {
                point.geoidSeparation = GeoidModel.separation(latitude: point.latitude, longitude: point.longitude)
            }
            point.altMSL = point.geoidSeparation.isFinite ? point.altHAE - point.geoidSeparation : .nan
            if !point.altMSL.isFinite { point.geoidSeparation = .nan }
        } else if point.altMSL.isFinite, point.geoidSeparation.isFinite {
            point.altHAE = point.altMSL + point.geoidSeparation
        } else {
            point.geoidSeparation = .nan
        }
        if dgpsAge.isFinite, dgpsStation >= 0 {
            point.dgpsAge = dgpsAge
            point.dgpsStation = dgpsStation
        }
        if point.time > 0 { point.ept = 0.005 }
    }

    /// The sky report of the point: the satellites used as a count, and the dilutions.
    private func skyView() -> SkyView {
        var sky = SkyView(device: device, time: point.time > 0 ? Date(timeIntervalSince1970: point.time) : nil)
        sky.reportedUsedCount = pointSky.satellites
        sky.hdop = pointSky.hdop
        sky.vdop = pointSky.vdop
        sky.pdop = pointSky.pdop
        return sky
    }

    /// GPX's `fixType` words, read in any case (some writers put `3D`).
    private static func fixType(_ s: ArraySlice<UInt8>) -> FixType? {
        let word = s.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        switch true {
        case word.elementsEqual("none".utf8): return FixType.none
        case word.elementsEqual("2d".utf8): return .twoD
        case word.elementsEqual("3d".utf8): return .threeD
        case word.elementsEqual("dgps".utf8): return .dgps
        case word.elementsEqual("pps".utf8): return .pps
        default: return nil
        }
    }

    @inline(__always)
    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    private static func trim(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = s.startIndex, upper = s.endIndex
        while lower < upper, isSpace(s[lower]) { lower += 1 }
        while upper > lower, isSpace(s[upper - 1]) { upper -= 1 }
        return s[lower..<upper]
    }

    private static func number(_ s: ArraySlice<UInt8>) -> Double? {
        let t = trim(s)
        guard !t.isEmpty else { return nil }
        return t.withUnsafeBufferPointer { p -> Double? in
            guard let base = p.baseAddress, let v = NMEANumber.parse(base, 0, p.count), v.isFinite else { return nil }
            return v
        }
    }

    /// `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]` to seconds since 1970.
    static func isoTime(_ s: ArraySlice<UInt8>) -> Double? {
        let b = Array(s)
        guard b.count >= 19 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for k in from..<(from + count) {
                let d = b[k] &- 0x30
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
              b[16] == UInt8(ascii: ":"), let second = digits(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        // A day the month has (February 30th is no date: not March 1st): the calendar gives the
        // same date back for its day number.
        let date = CivilDate(year: year, month: month, day: day)
        let days = date.daysSince1970
        guard CivilDate(daysSince1970: days) == date else { return nil }
        var k = 19
        var fraction = 0.0
        if k < b.count, b[k] == UInt8(ascii: ".") {
            k += 1
            var scale = 0.1
            var any = false
            while k < b.count, b[k] &- 0x30 < 10 {
                fraction += Double(b[k] - 0x30) * scale
                scale /= 10
                k += 1
                any = true
            }
            guard any else { return nil }
        }
        var offset = 0
        if k < b.count {
            if b[k] == UInt8(ascii: "Z") {
                k += 1
            } else if b[k] == UInt8(ascii: "+") || b[k] == UInt8(ascii: "-"), k + 6 <= b.count,
                      let oh = digits(k + 1, 2), b[k + 3] == UInt8(ascii: ":"), let om = digits(k + 4, 2),
                      oh <= 14, om < 60 {
                offset = (oh * 3600 + om * 60) * (b[k] == UInt8(ascii: "-") ? -1 : 1)
                k += 6
            } else {
                return nil
            }
        }
        guard k == b.count else { return nil }
        let time = NMEACycleAssembler.seconds(days: days, hour: hour, minute: minute, second: second, subseconds: fraction)
            - Double(offset)
        // Zero is a fix's "no time": a time at or before 1970's first second is none a receiver
        // gave, and its point is skipped and counted rather than kept without a time.
        return time > 0 ? time : nil
    }
}

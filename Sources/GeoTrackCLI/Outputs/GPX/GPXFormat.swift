import FoundationEssentials
import GPSReports
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// The text of a GPX 1.1 file, piece by piece, so a writer can stream it.
package enum GPXFormat {
    /// The Garmin TrackPointExtension namespace, which carries speed and course.
    package static let trackPointExtensionNamespace = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    /// Everything up to and including `<trk>` and its name.
    package static func header(creator: String, name: String, created: Date) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="\(escape(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:gpxtpx="\(trackPointExtensionNamespace)" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
        <metadata><time>\(UTCText.timestamp(created))</time></metadata>
        <trk>
        <name>\(escape(name))</name>

        """
    }

    /// Opens a track segment.
    package static let segmentStart = "<trkseg>\n"
    /// Closes a track segment.
    package static let segmentEnd = "</trkseg>\n"
    /// Closes the track and the document.
    package static let trailer = "</trk>\n</gpx>\n"

    /// One `trkpt` line for a fix that has a position (elements in the order GPX 1.1 requires),
    /// with the satellites used and the dilutions of `gnss` when known, and the age and station
    /// of the differential corrections when the fix has them.
    ///
    /// `<ele>` is the height above mean sea level when the receiver gave one. `<geoidheight>`
    /// is the geoid's height above the ellipsoid (gpsd's `geoidSep`, or HAE − MSL), so that
    /// `ele + geoidheight` recovers the height above the ellipsoid, as GPX 1.1 defines it.
    /// Both are written with gpsd's own precision, so that an RTK receiver's millimetres stay.
    package static func point(_ fix: Fix, gnss: GNSSDetail? = nil) -> String? {
        guard let coordinate = fix.coordinate, let time = fix.time else { return nil }
        var line = "<trkpt lat=\"" + NumberText.fixed(coordinate.latitude, decimals: coordinateDecimals)
            + "\" lon=\"" + NumberText.fixed(coordinate.longitude, decimals: coordinateDecimals) + "\">"
        if let elevation = fix.altitudeMSL ?? fix.altitudeHAE {
            line += "<ele>" + NumberText.fixed(elevation, decimals: elevationDecimals) + "</ele>"
        }
        line += "<time>\(UTCText.timestamp(time))</time>"
        if let geoid = geoidHeight(fix) {
            line += "<geoidheight>" + NumberText.fixed(geoid, decimals: geoidHeightDecimals) + "</geoidheight>"
        }
        line += "<fix>" + fixType(fix) + "</fix>"
        if let satellitesUsed = gnss?.satellitesUsed, satellitesUsed > 0 {
            line += "<sat>\(satellitesUsed)</sat>"
        }
        for (name, value) in [("hdop", gnss?.hdop), ("vdop", gnss?.vdop), ("pdop", gnss?.pdop)] {
            if let value, value.isFinite, value >= 0 { line += "<\(name)>" + NumberText.fixed(value, decimals: 2) + "</\(name)>" }
        }
        if let age = fix.dgpsAge, let station = fix.dgpsStation, age.isFinite, age >= 0, (0...1023).contains(station) {
            line += "<ageofdgpsdata>" + NumberText.fixed(age, decimals: 1) + "</ageofdgpsdata><dgpsid>\(station)</dgpsid>"
        }
        let depth = fix.depth.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        if fix.speed != nil || fix.track != nil || depth != nil {
            line += "<extensions><gpxtpx:TrackPointExtension>"
            // TrackPointExtension v2's order: depth (an echo sounder's, in metres, with gpsd's
            // three decimals) comes before speed and course.
            if let depth { line += "<gpxtpx:depth>" + NumberText.fixed(depth, decimals: 3) + "</gpxtpx:depth>" }
            if let speed = fix.speed { line += "<gpxtpx:speed>" + NumberText.fixed(speed, decimals: 3) + "</gpxtpx:speed>" }
            if let track = fix.track { line += "<gpxtpx:course>" + NumberText.fixed(track, decimals: courseDecimals) + "</gpxtpx:course>" }
            line += "</gpxtpx:TrackPointExtension></extensions>"
        }
        return line + "</trkpt>\n"
    }

    /// The decimals of `lat` and `lon`: gpsd's TPV prints them with `%.9f`, and gpxlogger writes
    /// them so. An RTK receiver's minutes with eight decimals are a tenth of a millimetre; eight
    /// decimals of a degree (a millimetre) would round them, and a replay of the track would then
    /// print another position than gpsd printed for the same fix.
    static let coordinateDecimals = 9
    /// The decimals of the course: gpsd prints `track` with `%.4f` (a receiver's `126.965` stays).
    static let courseDecimals = 4

    /// The decimals of `<ele>`: gpxlogger's `%.4f`, which is also how gpsd prints `altHAE` and
    /// `altMSL` in TPV. Kept fixed, as gpxlogger keeps them, rather than trimmed of trailing
    /// zeros: a height is a `Double` by now, so neither form can say how many digits the
    /// receiver gave, and the fixed one is the same text gpsd's TPV shows for the same fix.
    static let elevationDecimals = 4
    /// The decimals of `<geoidheight>`: gpsd prints `geoidSep` with `%.3f` (gpxlogger writes no
    /// geoid height).
    static let geoidHeightDecimals = 3

    /// GPX 1.1's `fixType` for a fix with a position: `dgps` for a differentially corrected one
    /// (DGPS or SBAS, and RTK, which corrects by a base station's carrier phase), `pps` for the
    /// precise code, else its mode, as gpxlogger writes it.
    static func fixType(_ fix: Fix) -> String {
        switch fix.status {
        case .dgps?, .rtkFixed?, .rtkFloat?: "dgps"
        case .pps?: "pps"
        default: fix.mode == .threeD ? "3d" : "2d"
        }
    }

    /// The geoid's height above the ellipsoid, when the fix has an MSL elevation to go with it.
    static func geoidHeight(_ fix: Fix) -> Double? {
        guard let msl = fix.altitudeMSL else { return nil }
        if let separation = fix.geoidSeparation, separation.isFinite { return separation }
        if let hae = fix.altitudeHAE, hae.isFinite, msl.isFinite { return hae - msl }
        return nil
    }

    /// `text` as XML character data (GPX and SVG alike). Control characters other than tab, newline and carriage
    /// return cannot appear in XML 1.0 at all, not even as references: they become U+FFFD.
    package static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

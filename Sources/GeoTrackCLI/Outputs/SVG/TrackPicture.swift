import FoundationEssentials
import GeoTrackService
import GPSReports
import LocationKit
#if canImport(Glibc)
import Glibc
#endif

/// A track drawn as SVG: Web Mercator (EPSG:3857) fitted to the picture, the line coloured by
/// speed with a legend, start and end marked, stops and regions drawn, a scale bar, a north
/// arrow, and the statistics as a caption.
package struct TrackPicture: Sendable {
    /// One drawn point: where, how fast (metres per second, when known), and whether the line
    /// breaks before it (a gap, or a time that steps back).
    package struct Point: Sendable {
        let latitude: Double
        let longitude: Double
        let speed: Float
        var breakBefore = false
    }

    /// A region to draw.
    package struct Region: Sendable {
        let name: String
        let center: Coordinate
        let radius: Double
    }

    /// The points kept, oldest first; the newest location is ``latest`` when it was not kept.
    package private(set) var points: [Point] = []
    package var regions: [Region] = []
    /// The newest location when thinning did not keep it: drawn as the track's end.
    private var latest: Point?
    private var previous: (coordinate: Coordinate, time: Date)?
    /// The last point's longitude as drawn: each taken within half a turn of the one before it,
    /// so that a track across the 180th meridian is drawn across it, not across the globe.
    private var lastLongitude: Double?
    /// One location in this many is kept (doubles each time the points are thinned).
    private var keepEvery = 1
    private var sinceKept = 0
    /// A gap came before a location that thinning did not keep: the next one kept carries it.
    private var pendingBreak = false

    /// The most points kept. An 800-pixel picture shows no more, and a `watch --svg` that runs
    /// for months must not grow without end: at this count every other point is dropped, and
    /// from then on one new location in two (then four, …) is kept, the newest always drawn.
    static let maximumPoints = 10_000

    /// The picture's width; the height follows the track's shape.
    static let width = 800.0
    static let margin = 30.0
    static let footer = 120.0
    /// Speeds fall into this many colours: consecutive segments of one colour are one polyline.
    static let colours = 12

    package init() {}

    /// Adds a location, coloured by the speed the receiver reported (as the statistics count
    /// it), or else by the speed from the previous location. A gap (``TrackStatistics/isGap(before:seconds:)``)
    /// breaks the line rather than drawing a jump nobody travelled.
    package mutating func add(_ location: Location) {
        let coordinate = location.coordinate
        let reported = location.reportedSpeed
        var speed = reported ?? 0
        var gap = false
        if let previous {
            let seconds = location.timestamp.timeIntervalSince(previous.time)
            gap = TrackStatistics.isGap(before: location, seconds: seconds)
            if reported == nil, !gap { speed = previous.coordinate.distance(to: coordinate) / seconds }
        }
        previous = (coordinate, location.timestamp)
        let longitude = lastLongitude.map { Coordinate.longitude(coordinate.longitude, unwrappedNear: $0) } ?? coordinate.longitude
        lastLongitude = longitude
        let point = Point(latitude: coordinate.latitude, longitude: longitude, speed: Float(speed),
                          breakBefore: gap || pendingBreak)
        sinceKept += 1
        guard sinceKept >= keepEvery else {
            pendingBreak = point.breakBefore
            latest = point
            return
        }
        sinceKept = 0
        latest = nil
        pendingBreak = false
        points.append(point)
        if points.count >= Self.maximumPoints {
            // Keeping the even places drops the newest point when the count is even: it stays
            // drawn as the latest, and the next point kept is counted from the one now last.
            if points.count % 2 == 0 {
                latest = points.last
                sinceKept = keepEvery
            }
            // A break before a dropped point moves to the next point kept.
            var thinned: [Point] = []
            thinned.reserveCapacity(points.count / 2 + 1)
            var carried = false
            for (index, kept) in points.enumerated() {
                if index % 2 == 0 {
                    var kept = kept
                    kept.breakBefore = kept.breakBefore || carried
                    thinned.append(kept)
                    carried = false
                } else {
                    carried = carried || kept.breakBefore
                }
            }
            pendingBreak = pendingBreak || carried
            points = thinned
            keepEvery *= 2
        }
    }

    /// What is drawn: the points kept, and the newest location.
    var drawnPoints: [Point] {
        latest.map { points + [$0] } ?? points
    }

    /// Adds a region to draw as a dashed circle.
    package mutating func addRegion(name: String, center: Coordinate, radius: Double) {
        regions.append(Region(name: name, center: center, radius: radius))
    }

    /// Web Mercator: x and y in metres at the equator.
    static func project(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
        let radius = 6_378_137.0
        let clamped = min(max(latitude, -85), 85) * .pi / 180
        return (radius * longitude * .pi / 180, radius * log(tan(.pi / 4 + clamped / 2)))
    }

    /// The SVG document, or nil with no position to draw (`--svg` then writes no file).
    package func svg(statistics: TrackStatistics, units: Units, title: String) -> String? {
        let points = drawnPoints
        guard !points.isEmpty else { return nil }
        let projected = points.map { Self.project($0.latitude, $0.longitude) }
        // Regions and stops are drawn beside the track: their longitudes taken near its middle.
        let middle = ((points.map(\.longitude).min() ?? 0) + (points.map(\.longitude).max() ?? 0)) / 2
        func project(_ coordinate: Coordinate) -> (x: Double, y: Double) {
            Self.project(coordinate.latitude, Coordinate.longitude(coordinate.longitude, unwrappedNear: middle))
        }
        var minX = projected.map(\.x).min() ?? 0, maxX = projected.map(\.x).max() ?? 0
        var minY = projected.map(\.y).min() ?? 0, maxY = projected.map(\.y).max() ?? 0
        for region in regions {
            let centre = project(region.center)
            let r = region.radius / cos(region.center.latitude * .pi / 180)
            minX = min(minX, centre.x - r); maxX = max(maxX, centre.x + r)
            minY = min(minY, centre.y - r); maxY = max(maxY, centre.y + r)
        }
        // At least 100 m across, so a track standing still is not a division by zero.
        let meanLatitude = (points.map(\.latitude).reduce(0, +) / Double(points.count)) * .pi / 180
        let minimumSpan = 100 / cos(meanLatitude)
        if maxX - minX < minimumSpan { let c = (minX + maxX) / 2; minX = c - minimumSpan / 2; maxX = c + minimumSpan / 2 }
        if maxY - minY < minimumSpan { let c = (minY + maxY) / 2; minY = c - minimumSpan / 2; maxY = c + minimumSpan / 2 }
        let mapWidth = Self.width - 2 * Self.margin
        let mapHeight = min(560, max(240, mapWidth * (maxY - minY) / (maxX - minX)))
        // The track keeps clear of the frame, so markers and labels at its edge stay inside.
        let padding = 28.0
        let scale = min((mapWidth - 2 * padding) / (maxX - minX), (mapHeight - 2 * padding) / (maxY - minY))
        let offsetX = Self.margin + (mapWidth - (maxX - minX) * scale) / 2
        let offsetY = Self.margin + (mapHeight - (maxY - minY) * scale) / 2
        func place(_ p: (x: Double, y: Double)) -> (Double, Double) {
            (offsetX + (p.x - minX) * scale, offsetY + (maxY - p.y) * scale)
        }
        let height = Self.margin + mapHeight + Self.footer
        // The scale is the statistics' maximum, so the legend and the caption agree, and a speed
        // from position noise cannot stretch it.
        let top = statistics.maximumSpeed ?? Double(points.map(\.speed).max() ?? 0)
        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(Self.width))" height="\(Self.number(height))" \
        viewBox="0 0 \(Self.number(Self.width)) \(Self.number(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">
        <title>\(GPXFormat.escape(title))</title>
        <defs><linearGradient id="speed" x1="0" x2="1" y1="0" y2="0">\(Self.gradientStops())</linearGradient></defs>
        <rect width="100%" height="100%" fill="#fbfaf6"/>
        <rect x="\(Self.number(Self.margin))" y="\(Self.number(Self.margin))" width="\(Self.number(mapWidth))" height="\(Self.number(mapHeight))" fill="#eef2ec" stroke="#c9cfc4"/>

        """
        for region in regions {
            let (cx, cy) = place(project(region.center))
            let r = region.radius / cos(region.center.latitude * .pi / 180) * scale
            svg += "<circle class=\"region\" cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" r=\"\(Self.number(r))\" fill=\"#7aa6d6\" fill-opacity=\"0.15\" stroke=\"#3b6ea5\" stroke-dasharray=\"6 4\"/>"
            svg += "<text x=\"\(Self.number(cx))\" y=\"\(Self.number(cy - r - 4))\" text-anchor=\"middle\" fill=\"#3b6ea5\">\(GPXFormat.escape(region.name))</text>\n"
        }
        // The line: runs of one speed colour, drawn as one polyline each.
        var run: [(Double, Double)] = [place(projected[0])]
        var runColour = Self.bucket(points.count > 1 ? points[1].speed : points[0].speed, top: top)
        for index in 1..<max(points.count, 1) {
            let colour = Self.bucket(points[index].speed, top: top)
            let here = place(projected[index])
            if points[index].breakBefore {
                if run.count > 1 { svg += Self.polyline(run, colour: runColour) }
                run = [here]
                runColour = colour
            } else if colour != runColour {
                svg += Self.polyline(run + [here], colour: runColour)
                run = [here]
                runColour = colour
            } else {
                run.append(here)
            }
        }
        if run.count > 1 { svg += Self.polyline(run, colour: runColour) }
        for stop in statistics.stops {
            let (cx, cy) = place(project(stop.center))
            let minutes = Int((((stop.departure ?? statistics.last?.timestamp) ?? stop.arrival).timeIntervalSince(stop.arrival) / 60).rounded())
            svg += "<circle class=\"stop\" cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" r=\"7\" fill=\"#f0a030\" stroke=\"#7a4a00\"/>"
            svg += "<text x=\"\(Self.number(cx + 10))\" y=\"\(Self.number(cy + 4))\" fill=\"#7a4a00\">stop \(minutes) min</text>\n"
        }
        let (sx, sy) = place(projected[0])
        let (ex, ey) = place(projected[projected.count - 1])
        svg += "<circle class=\"start\" cx=\"\(Self.number(sx))\" cy=\"\(Self.number(sy))\" r=\"6\" fill=\"#2e9e44\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
        svg += "<text x=\"\(Self.number(sx + 9))\" y=\"\(Self.number(sy - 8))\" fill=\"#1f6e30\" font-weight=\"bold\">start</text>\n"
        svg += "<rect class=\"end\" x=\"\(Self.number(ex - 6))\" y=\"\(Self.number(ey - 6))\" width=\"12\" height=\"12\" fill=\"#c0392b\" stroke=\"#ffffff\" stroke-width=\"2\"/>"
        svg += "<text x=\"\(Self.number(ex + 9))\" y=\"\(Self.number(ey + 16))\" fill=\"#8e2a20\" font-weight=\"bold\">end</text>\n"
        svg += northArrow(x: Self.margin + mapWidth - 24, y: Self.margin + 14)
        svg += scaleBar(metresPerUnit: cos(meanLatitude) / scale, x: Self.margin + 12, y: Self.margin + mapHeight - 16, units: units)
        svg += legend(top: top, units: units, x: Self.margin, y: Self.margin + mapHeight + 22)
        svg += caption(statistics, units: units, title: title, y: Self.margin + mapHeight + 70)
        return svg + "</svg>\n"
    }

    // MARK: Pieces

    private func northArrow(x: Double, y: Double) -> String {
        "<g class=\"north\" transform=\"translate(\(Self.number(x)) \(Self.number(y)))\"><path d=\"M0 0 L8 22 L0 17 L-8 22 Z\" fill=\"#333333\"/>"
            + "<text y=\"36\" text-anchor=\"middle\" font-weight=\"bold\">N</text></g>\n"
    }

    private func scaleBar(metresPerUnit: Double, x: Double, y: Double, units: Units) -> String {
        // A round length near a fifth of the map's width, in the unit a chart of that scale
        // uses: metres below a cable (0.1 nmi) on a nautical chart, feet below a mile.
        let targetMetres = Self.width / 5 * metresPerUnit
        guard targetMetres.isFinite, targetMetres > 0 else { return "" }
        let (unitMetres, unit): (Double, String) = switch units {
        case .metric: targetMetres >= 1000 ? (1000, "km") : (1, "m")
        case .imperial: targetMetres >= 1609.344 ? (1609.344, "mi") : (0.3048, "ft")
        case .nautical: targetMetres >= 185.2 ? (1852, "nmi") : (1, "m")
        }
        let target = targetMetres / unitMetres
        let magnitude = pow(10, floor(log10(target)))
        let length = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let pixels = length * unitMetres / metresPerUnit
        // As many decimals as the length needs (0.2 nmi, 0.05 m for an RTK receiver at rest).
        let decimals = min(6, max(0, Int(-floor(log10(length)))))
        let label = NumberText.fixed(length, decimals: decimals) + " " + unit
        return "<g class=\"scale\"><rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(pixels))\" height=\"5\" fill=\"#333333\"/>"
            + "<text x=\"\(Self.number(x + pixels / 2))\" y=\"\(Self.number(y - 5))\" text-anchor=\"middle\">\(label)</text></g>\n"
    }

    private func legend(top: Double, units: Units, x: Double, y: Double) -> String {
        "<g class=\"legend\"><text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\">speed</text>"
            + "<rect x=\"\(Self.number(x + 50))\" y=\"\(Self.number(y - 11))\" width=\"240\" height=\"12\" fill=\"url(#speed)\" stroke=\"#888888\"/>"
            + "<text x=\"\(Self.number(x + 50))\" y=\"\(Self.number(y + 16))\">\(units.speed(0))</text>"
            + "<text x=\"\(Self.number(x + 290))\" y=\"\(Self.number(y + 16))\" text-anchor=\"end\">\(units.speed(top))</text></g>\n"
    }

    private func caption(_ statistics: TrackStatistics, units: Units, title: String, y: Double) -> String {
        var facts = [StatisticsReport.distance(statistics.distance, units: units)]
        if let duration = statistics.duration { facts.append(StatisticsReport.duration(duration)) }
        facts.append("moving " + StatisticsReport.duration(statistics.movingTime))
        if let maximum = statistics.maximumSpeed { facts.append("max " + units.speed(maximum)) }
        if let average = statistics.averageMovingSpeed { facts.append("avg " + units.speed(average)) }
        facts.append("ascent " + units.length(statistics.ascent))
        facts.append("\(statistics.stops.count) stop" + (statistics.stops.count == 1 ? "" : "s"))
        var text = "<g class=\"caption\"><text x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y))\" font-size=\"14\" font-weight=\"bold\">\(GPXFormat.escape(title))</text>"
        text += "<text x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y + 20))\">\(GPXFormat.escape(facts.joined(separator: "  ·  ")))</text>"
        if let first = statistics.first {
            text += "<text x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y + 38))\" fill=\"#666666\">\(UTCText.timestamp(first.timestamp))"
                + (statistics.last.map { " to " + UTCText.timestamp($0.timestamp) } ?? "") + ", Web Mercator</text>"
        }
        return text + "</g>\n"
    }

    // MARK: Colours and numbers

    /// Blue (slow) through green and yellow to red (fast).
    static func colour(_ bucket: Int) -> String {
        let t = Double(bucket) / Double(colours - 1)
        let stops: [(Double, (Double, Double, Double))] = [(0, (49, 54, 149)), (0.35, (69, 160, 90)), (0.65, (240, 200, 40)), (1, (200, 30, 40))]
        var lower = stops[0], upper = stops[stops.count - 1]
        for index in 1..<stops.count where t <= stops[index].0 {
            lower = stops[index - 1]
            upper = stops[index]
            break
        }
        let f = upper.0 > lower.0 ? (t - lower.0) / (upper.0 - lower.0) : 0
        func channel(_ a: Double, _ b: Double) -> Int { Int((a + (b - a) * f).rounded()) }
        return NumberText.printf("#%02x%02x%02x", channel(lower.1.0, upper.1.0), channel(lower.1.1, upper.1.1), channel(lower.1.2, upper.1.2))
    }

    static func bucket(_ speed: Float, top: Double) -> Int {
        guard top > 0 else { return 0 }
        return min(colours - 1, max(0, Int(Double(speed) / top * Double(colours - 1) + 0.5)))
    }

    static func gradientStops() -> String {
        (0..<colours).map { "<stop offset=\"\(number(Double($0) / Double(colours - 1)))\" stop-color=\"\(colour($0))\"/>" }.joined()
    }

    static func polyline(_ points: [(Double, Double)], colour bucket: Int) -> String {
        let list = points.map { number($0.0) + "," + number($0.1) }.joined(separator: " ")
        return "<polyline class=\"track\" points=\"\(list)\" fill=\"none\" stroke=\"\(colour(bucket))\" stroke-width=\"4\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
    }

    /// One decimal at most, no trailing zeros: SVG coordinates need no more.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        // Int(_:) traps beyond its range: such a value (never a coordinate on the picture) is printed as it is.
        guard abs(rounded) < 1e15 else { return NumberText.fixed(rounded.isFinite ? rounded : 0, decimals: 1) }
        return rounded == rounded.rounded() ? String(Int(rounded)) : NumberText.fixed(rounded, decimals: 1)
    }
}

import FoundationEssentials
import GPSReports
import GeoTrackService
import LocationKit
import OwnTracks
import Synchronization
import WebServe

/// What the page shows, kept as the run's updates arrive, and the events that tell a browser
/// of each change.
///
/// Every event carries a sequence number, and a snapshot carries the last one it includes: a
/// browser that joins (or misses events while it reads slowly) gets a snapshot, then drops any
/// event the snapshot already holds. Updates are applied and broadcast under one lock, so that
/// the events leave in the order of their numbers.
package final class ServePage: Sendable {
    /// The most events kept for a browser that joins later.
    static let keptEvents = 200

    /// Seconds without a new fix after which the page greys its marker and says how old the fix
    /// is. A receiver reports once a second (some up to ten times), and the tracker itself calls
    /// a source stale after 5 s without a report (GPSDConfiguration's staleAfter): twice that is
    /// ten fixes missed at the usual rate, so a fix that is merely late never greys the marker,
    /// and one that stopped shows within seconds, not the minutes OwnTracks and Traccar allow
    /// phones that report every few minutes. A distance filter holds back the fixes of a
    /// receiver standing still, which then reads as stale as well: no fix reached the page.
    /// A source that ended (a replay's end) leaves its last fix as it was: no fix is due.
    static let staleAfter: Double = 10

    private let options: RenderOptions
    private let regions: [RegionSetting]
    private let state: Mutex<State>

    private struct State {
        var sequence = 0
        var status = ""
        /// The source ended (finished or failed): the page stops ageing the fix.
        var ended = false
        var fix: String?
        /// The heading the service shows with the latest fix (its status), for the next fix's JSON.
        var heading: Heading?
        /// When `fix` was taken in: a snapshot tells the page how old it is.
        var fixTakenAt: ContinuousClock.Instant?
        var picture = TrackPicture()
        var events: [String] = []
        var sky: String?
        var fleet: String?
        var sink: (@Sendable (ServerSentEvent) -> Void)?
    }

    /// A page for a run drawn with `options` (units, coordinate format), showing `regions`.
    package init(options: RenderOptions, regions: [RegionSetting]) {
        self.options = options
        self.regions = regions
        var picture = TrackPicture()
        for region in regions {
            if let center = Coordinate(latitude: region.latitude, longitude: region.longitude) {
                picture.addRegion(name: region.name, center: center, radius: region.radius)
            }
        }
        state = Mutex(State(picture: picture))
    }

    /// Where the events go (the server's broadcast).
    package func connect(_ sink: @escaping @Sendable (ServerSentEvent) -> Void) {
        state.withLock { $0.sink = sink }
    }

    /// Takes in one update of the run.
    package func handle(_ update: TrackingUpdate) {
        switch update {
        case .status(let status):
            // The service sends a fix's status (with the heading it shows) before the location.
            if case .fix(_, let heading) = status { state.withLock { $0.heading = heading } }
            // The same words as the status line, without its colours; a fix's own line changes
            // with every fix, and the page shows the fix itself, so then it says only whence.
            let text: String
            if case .fix = status {
                text = "fix from " + options.sourceName
            } else {
                text = StatusLine.render(status, width: nil, options: options)
            }
            change { state in
                guard state.status != text else { return nil }
                state.status = text
                state.ended = status.hasEnded
                return ("status", Self.statusJSON(text, ended: status.hasEnded))
            }
        case .location(let location):
            change { state in
                let fix = fixJSON(location, heading: state.heading)
                let before = state.picture.points.count
                state.picture.add(location)
                state.fix = fix
                state.fixTakenAt = .now
                // The kept points only grow until they are thinned: then the whole track is sent.
                let keep = state.picture.points.count >= before ? min(before, state.picture.points.count) : 0
                let drawn = state.picture.drawnPoints
                var track = ServeJSON()
                track.add("keep", keep)
                track.add("points", raw: Self.pointsJSON(drawn[min(keep, drawn.count)...]))
                track.add("count", drawn.count)
                return ("fix", "{\"fix\":\(fix),\"track\":\(track.json)}")
            }
        case .report(.sky(let sky)):
            let json = Self.skyJSON(sky)
            change { state in
                state.sky = json
                return ("sky", json)
            }
        case .report:
            break
        case .event(let event):
            let json = eventJSON(event)
            change { state in
                state.events.append(json)
                if state.events.count > Self.keptEvents { state.events.removeFirst(state.events.count - Self.keptEvents) }
                return ("event", json)
            }
        }
    }

    /// Takes in the fleet roster after a change.
    package func fleet(_ roster: FleetRoster, broker: String, connected: Bool, problem: String?) {
        let json = Self.fleetJSON(roster, broker: broker, connected: connected, problem: problem)
        change { state in
            state.fleet = json
            return ("fleet", json)
        }
    }

    /// Everything shown now, as one event.
    package func snapshot() -> [ServerSentEvent] {
        state.withLock { state in
            var json = ServeJSON()
            json.add("seq", state.sequence)
            json.add("status", state.status)
            json.add("ended", state.ended)
            json.add("fix", raw: state.fix ?? "null")
            json.add("fix_age", state.fixTakenAt.map { (ContinuousClock.now - $0).inSeconds }, decimals: 1)
            json.add("track", raw: Self.pointsJSON(state.picture.drawnPoints[...]))
            json.add("regions", raw: ServeJSON.array(regions.map(Self.regionJSON)))
            json.add("events", raw: ServeJSON.array(state.events))
            json.add("sky", raw: state.sky ?? "null")
            json.add("fleet", raw: state.fleet ?? "null")
            return [ServerSentEvent(name: "snapshot", data: json.json)]
        }
    }

    /// How many points the track shows now (the SVG's count for the same locations).
    package var trackPoints: Int {
        state.withLock { $0.picture.drawnPoints.count }
    }

    /// Applies a change and sends its event, numbered, under the lock.
    private func change(_ body: (inout State) -> (name: String, json: String)?) {
        state.withLock { state in
            guard let (name, json) = body(&state) else { return }
            state.sequence += 1
            // Every event's object gets its number in front: `{"seq":N,` then its own fields.
            let data = "{\"seq\":\(state.sequence)," + json.dropFirst()
            state.sink?(ServerSentEvent(name: name, data: String(data)))
        }
    }

    // MARK: JSON

    private static func statusJSON(_ text: String, ended: Bool) -> String {
        var json = ServeJSON()
        json.add("text", text)
        json.add("ended", ended)
        return json.json
    }

    private func fixJSON(_ location: Location, heading: Heading?) -> String {
        var json = ServeJSON()
        json.add("lat", location.coordinate.latitude)
        json.add("lon", location.coordinate.longitude)
        // The status line's digits: as many as the fix's accuracy warrants.
        json.add("position", options.format.format(location.coordinate, accuracy: location.horizontalAccuracy))
        json.add("accuracy", location.horizontalAccuracy, decimals: 3)
        json.add("accuracy_text", location.horizontalAccuracy.map(options.units.accuracy))
        json.add("speed", location.speed, decimals: 2)
        json.add("speed_text", location.speed.map(options.units.speed))
        json.add("course", location.course, decimals: 1)
        json.add("course_text", location.course.map(CompassPoint.bearing))
        json.add("heading", heading?.bestHeading, decimals: 1)
        json.add("heading_text", heading.map(CompassPoint.heading))
        json.add("altitude_text", (location.altitude ?? location.ellipsoidalAltitude)
            .map { options.units.height($0, accuracy: location.verticalAccuracy) })
        // The mode with the kind of solution, in the status line's words ("3D RTK fixed").
        let kind = location.gnss.status.flatMap(StatusLine.fixKind).map { " " + $0.text } ?? ""
        json.add("mode", (location.gnss.fixMode == .threeD ? "3D" : "2D") + kind)
        json.add("satellites", location.gnss.satellitesUsed)
        json.add("time", UTCText.fixTimeOfDay(location.timestamp))
        return json.json
    }

    private func eventJSON(_ event: TrackingEvent) -> String {
        var json = ServeJSON()
        let kind: String
        switch event.kind {
        case .regionEntered: kind = "region_entered"
        case .regionExited: kind = "region_exited"
        case .visitStarted: kind = "visit_started"
        case .visitEnded: kind = "visit_ended"
        case .reconnected: kind = "reconnected"
        case .disconnected: kind = "disconnected"
        case .authorizationChanged: kind = "authorization"
        case .otherReceiver: kind = "other_receiver"
        }
        json.add("kind", kind)
        json.add("text", EventLine.render(event, options: options))
        return json.json
    }

    static func pointsJSON(_ points: ArraySlice<TrackPicture.Point>) -> String {
        var text = "["
        text.reserveCapacity(points.count * 26 + 2)
        for (index, point) in points.enumerated() {
            if index > 0 { text += "," }
            text += "[" + ServeJSON.number(point.latitude) + "," + ServeJSON.number(point.longitude)
            text += point.breakBefore ? ",1]" : "]"
        }
        return text + "]"
    }

    private static func regionJSON(_ region: RegionSetting) -> String {
        var json = ServeJSON()
        // Control characters shown as the events list and the terminal show them (`\u{1b}`).
        json.add("name", Terminal.safe(region.name))
        json.add("lat", region.latitude)
        json.add("lon", region.longitude)
        json.add("radius", region.radius, decimals: 1)
        return json.json
    }

    static func skyJSON(_ sky: SkyView) -> String {
        var json = ServeJSON()
        json.add("hdop", sky.hdop, decimals: 2)
        json.add("pdop", sky.pdop, decimals: 2)
        let satellites = sky.listed.map { satellite in
            var item = ServeJSON()
            item.add("prn", satellite.prn)
            item.add("gnss", satellite.gnssID)
            item.add("el", satellite.elevation, decimals: 1)
            item.add("az", satellite.azimuth, decimals: 1)
            item.add("snr", satellite.signalStrength, decimals: 1)
            item.add("used", satellite.used)
            // Whether the plot draws it: the terminal's rule, not one of the page's own.
            item.add("plotted", satellite.skyPosition != nil)
            return item.json
        }
        json.add("satellites", raw: ServeJSON.array(satellites))
        return json.json
    }

    static func fleetJSON(_ roster: FleetRoster, broker: String, connected: Bool, problem: String?) -> String {
        var json = ServeJSON()
        json.add("broker", broker)
        json.add("connected", connected)
        json.add("problem", problem)
        let devices = roster.sorted.map { device in
            var item = ServeJSON()
            item.add("name", Terminal.safe(device.name))
            item.add("lat", device.location?.latitude)
            item.add("lon", device.location?.longitude)
            item.add("accuracy", device.location?.accuracy.map(Double.init), decimals: 0)
            item.add("tst", device.location.map { Double($0.timestamp) }, decimals: 0)
            item.add("regions", raw: ServeJSON.array(device.regions.sorted().map { ServeJSON.quoted(Terminal.safe($0)) }))
            item.add("gone", device.gone)
            return item.json
        }
        json.add("devices", raw: ServeJSON.array(devices))
        return json.json
    }
}

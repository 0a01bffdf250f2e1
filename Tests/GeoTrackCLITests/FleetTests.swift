import Foundation
import GPSReports
import GeoTrackTesting
import OwnTracks
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import GeoTrackCLI

/// The fleet roster and its lines, without a broker.
struct FleetScreenTests {
    private func location(_ tst: Int, lat: Double = 52.5, regions: [String]? = nil, tid: String? = "pi") -> OwnTracksMessage {
        .location(OwnTracksLocation(latitude: lat, longitude: 13.4, timestamp: tst, accuracy: 5, velocity: 36, course: 90,
                                    trackerID: tid, regions: regions))
    }

    @Test("a late retained location does not replace a newer one; transitions and last wills update the device")
    func roster() {
        var roster = FleetRoster()
        let first = roster.receive(topic: "owntracks/ann/pi", message: location(100, regions: ["home"]))
        let late = roster.receive(topic: "owntracks/ann/pi", message: location(90, lat: 1))
        #expect(first && !late)
        #expect(roster.devices["ann/pi"]?.location?.latitude == 52.5)
        let left = roster.receive(topic: "owntracks/ann/pi/event",
                                  message: .transition(OwnTracksTransition(event: .leave, region: "home", timestamp: 101)))
        #expect(left && roster.devices["ann/pi"]?.regions == [])
        let will = roster.receive(topic: "owntracks/ann/pi", message: .lastWill(timestamp: 102))
        #expect(will && roster.devices["ann/pi"]?.gone == true)
        let elsewhere = roster.receive(topic: "elsewhere/ann/pi", message: location(200))
        let card = roster.receive(topic: "owntracks/ann/pi", message: .other(type: "card"))
        #expect(!elsewhere && !card)
        #expect(roster.sorted.map(\.name) == ["ann/pi"])
    }

    @Test("an age's text changes at the next whole second, minute, hour or day, and not past a billion seconds",
          arguments: [(-2.5, 3.5), (0, 1), (0.25, 0.75), (4.5, 0.5), (59.25, 0.75), (60, 60), (125, 55),
                      (3_599, 1), (3_600, 3_600), (7_300, 3_500), (86_400, 86_400), (90_000, 82_800)])
    func ageChanges(age: Double, until: Double) {
        #expect(AgeText.secondsUntilChange(age) == until)
        // Just before the change the text is the same as now, and at it the text differs.
        #expect(AgeText.text(age + until - 0.01) == AgeText.text(age))
        #expect(AgeText.text(age + until) != AgeText.text(age))
    }

    @Test("the view's next change: the soonest age to read differently or device to turn stale; none without positions")
    func nextChange() {
        var roster = FleetRoster()
        #expect(FleetScreen.secondsUntilChange(roster, now: Date(timeIntervalSince1970: 1_000), staleAfter: 60) == nil)
        roster.receive(topic: "owntracks/ann/pi", message: location(100))
        // 400 s old: "6 min ago, stale" changes at 420 s.
        #expect(FleetScreen.secondsUntilChange(roster, now: Date(timeIntervalSince1970: 500), staleAfter: 60) == 20)
        // 50 s old and stale after 50.5 s: the stale mark comes first.
        #expect(FleetScreen.secondsUntilChange(roster, now: Date(timeIntervalSince1970: 150), staleAfter: 50.5) == 0.5)
        roster.receive(topic: "owntracks/bob/phone", message: location(495))
        #expect(FleetScreen.secondsUntilChange(roster, now: Date(timeIntervalSince1970: 500), staleAfter: 60) == 1)
        #expect(AgeText.secondsUntilChange(.infinity) == nil && AgeText.secondsUntilChange(2e9) == nil)
    }

    @Test("the header says why the view is not connected, when it is known")
    func headerProblem() {
        #expect(FleetScreen.header(broker: "mqtts://b:8883", connected: false, devices: 2, problem: "the TLS handshake failed")
                == "fleet at mqtts://b:8883 · 2 devices · not connected: the TLS handshake failed, retrying")
        #expect(FleetScreen.header(broker: "mqtt://b:1883", connected: false, devices: 1) == "fleet at mqtt://b:1883 · 1 device · not connected, retrying")
        #expect(FleetScreen.header(broker: "mqtt://b:1883", connected: true, devices: 1, problem: "stale") == "fleet at mqtt://b:1883 · 1 device")
    }

    @Test("a device's line: position in the chosen format, units, regions, age, and stale past the threshold")
    func line() throws {
        var roster = FleetRoster()
        roster.receive(topic: "owntracks/ann/pi", message: location(1_000, regions: ["work", "home"]))
        let device = try #require(roster.devices["ann/pi"])
        let fresh = FleetScreen.line(device, now: Date(timeIntervalSince1970: 1_004), staleAfter: 60,
                                     options: RenderOptions(format: .dd, units: .nautical))
        #expect(fresh == "ann/pi  pi  52.50000°N 13.40000°E  ±5 m  19.4 kn  90°  [home, work]  4 s ago")
        let old = FleetScreen.line(device, now: Date(timeIntervalSince1970: 1_000 + 600), staleAfter: 60, options: RenderOptions())
        #expect(old.hasSuffix("10 min ago, stale"))
    }

    @Test("strings from the broker cannot reach the terminal raw, and lines fit the width")
    func safety() throws {
        var roster = FleetRoster()
        roster.receive(topic: "owntracks/ann/pi", message: location(1, regions: ["\u{1B}[2Jhome"], tid: "\u{1B}]"))
        let lines = FleetScreen.lines(roster, broker: "mqtt://h:1", connected: true, now: Date(timeIntervalSince1970: 2),
                                      staleAfter: 60, options: RenderOptions(), width: 40, height: 10)
        #expect(!lines.joined().contains("\u{1B}"))
        #expect(lines.allSatisfy { $0.count <= 39 })
        #expect(lines[1].hasSuffix("…"))
    }

    @Test("more devices than rows: the rest are counted")
    func overflow() {
        var roster = FleetRoster()
        for index in 0..<30 { roster.receive(topic: "owntracks/u/d\(index)", message: location(1)) }
        let lines = FleetScreen.lines(roster, broker: "b", connected: false, now: Date(timeIntervalSince1970: 2),
                                      staleAfter: 60, options: RenderOptions(), width: 80, height: 10)
        #expect(lines.count <= 9)
        #expect(lines.first == "fleet at b · 30 devices · not connected, retrying")
        #expect(lines.last?.hasPrefix("… ") == true && lines.last?.hasSuffix(" more") == true)
    }
}

/// `geotrack fleet` against a real mosquitto, with real publishers.
@Suite("geotrack fleet on a real broker", .serialized)
struct FleetCommandTests {
    @Test("two devices publishing at once: each on its own line, redrawn in place; Ctrl-C exits 0")
    func twoDevicesInTerminal() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let session = try await TmuxSession(width: 100, height: 12, command: [TestSupport.binary, "fleet", url],
                                      environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path])
        try await session.waitFor("the fleet view connected") { $0.first == "fleet at \(url) · 0 devices" }
        let boatLog = try Corpus.path("quectel-l76k-nmea.nmea"), vanLog = try Corpus.path("haicom-305N.nmea")
        // Two trackers at once, each its own process and device, at ten times their recorded pace.
        let boat = Task.detached {
            try await TestSupport.geotrack(["replay", boatLog, "--realtime", "--speed", "10",
                                      "--publish", url, "--publish-user", "ann", "--publish-device", "boat"],
                                     home: home.appendingPathComponent("boat"))
        }
        let van = Task.detached {
            try await TestSupport.geotrack(["replay", vanLog, "--realtime", "--speed", "10",
                                      "--publish", url, "--publish-user", "bob", "--publish-device", "van"],
                                     home: home.appendingPathComponent("van"))
        }
        let both = try await session.waitFor("both devices, while they publish", timeout: 60) { lines in
            lines.contains { $0.hasPrefix("ann/boat  at  47.6619") } && lines.contains { $0.hasPrefix("bob/van  an  27.21") }
        }
        #expect(both.first == "fleet at \(url) · 2 devices")
        #expect(both.filter { $0.hasPrefix("ann/boat") }.count == 1)
        #expect(both.filter { $0.hasPrefix("bob/van") }.count == 1)
        #expect(try await boat.value.status == 0)
        #expect(try await van.value.status == 0)
        // Once both are done, each line shows its log's last fix, as `replay --json` prints it.
        let boatLast = try await Self.lastPosition(boatLog, home: home)
        let vanLast = try await Self.lastPosition(vanLog, home: home)
        let last = try await session.waitFor("each device's last fix") { lines in
            lines.contains { $0.hasPrefix("ann/boat  at  \(boatLast)  ") } && lines.contains { $0.hasPrefix("bob/van  an  \(vanLast)  ") }
        }
        #expect(last.count == 3, "a header and one line per device, nothing scrolled: \(last)")
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 2) == 0)
    }

    @Test("on a TERM=dumb terminal, fleet prints a line per location: no escape sequence, nothing redrawn")
    func dumbTerminal() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let command = ["env", "TERM=dumb", "HOME=\(home.path)", "XDG_STATE_HOME=\(home.appendingPathComponent("state").path)",
                       TestSupport.binary, "fleet", url].map(TmuxSession.quote).joined(separator: " ")
        // script(1) gives fleet a terminal of its own and copies what it writes, escapes and all.
        let fleet = try ChildProcess("/usr/bin/script", ["-q", "-e", "-c", "stty cols 100 rows 12; " + command, "/dev/null"])
        let phone = #"{"_type":"location","acc":12,"lat":52.5,"lon":13.4,"tid":"jp","tst":1700000000}"#
        // Published until the view has subscribed and printed it.
        let shown = await waitUntil(timeout: .seconds(60)) {
            try? broker.publish(topic: "owntracks/jp/phone", message: phone)
            return fleet.stdout.contains("jp/phone")
        }
        // script ends on SIGTERM, and fleet with its terminal (SIGHUP).
        fleet.signal(SIGTERM)
        #expect(await fleet.status(within: 30) != nil, "fleet did not stop")
        #expect(shown, "\(fleet.stdout.debugDescription)")
        #expect(!fleet.stdout.contains("\u{1B}"), "\(fleet.stdout.debugDescription)")
    }

    @Test("over TLS with a CA that did not sign the broker's certificate, the header says the handshake failed")
    func tlsProblem() async throws {
        let broker = try await Mosquitto(tls: true)
        let stranger = try await Mosquitto(tls: true)
        let home = try TestSupport.temporaryDirectory()
        let url = "mqtts://127.0.0.1:\(try #require(broker.tlsPort))"
        let session = try await TmuxSession(width: 200, height: 6,
                                      command: [TestSupport.binary, "fleet", url, "--publish-ca", try #require(stranger.caFile)],
                                      environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path])
        try await session.waitFor("the reason in the header") {
            $0.first?.hasPrefix("fleet at \(url) · 0 devices · not connected: the TLS handshake failed") == true
        }
        try await session.send("C-c")
        #expect(try await session.waitForExit(timeout: 2) == 0)
    }

    /// The last position `replay --json` prints for a log, in the fleet view's notation.
    static func lastPosition(_ log: String, home: URL) async throws -> String {
        let run = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let line = try #require(run.stdout.split(separator: "\n").last { $0.contains("\"lat\"") })
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let latitude = try #require(object["lat"] as? Double)
        let longitude = try #require(object["lon"] as? Double)
        let coordinate = try #require(Coordinate(latitude: latitude, longitude: longitude))
        return CoordinateFormat.dd.format(coordinate)
    }

    @Test("fleet --json prints every location received, from an OwnTracks phone too, and a device's last will, with topic and received_at")
    func json() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let output = home.appendingPathComponent("fleet.jsonl").path
        let fleet = try GeoTrackTesting.ChildProcess(path: TestSupport.binary,
                                                     arguments: ["fleet", "mqtt://127.0.0.1:\(broker.port)", "--json"],
                                                     stdoutPath: output)
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        // The fleet view's subscription is in place once a message published now reaches it.
        let phone = #"{"_type":"location","acc":12,"batt":80,"lat":52.5,"lon":13.4,"tid":"jp","tst":1700000000,"vel":5,"conn":"w"}"#
        let arrived = await waitUntil(timeout: .seconds(15)) {
            try? broker.publish(topic: "owntracks/jp/phone", message: phone)
            return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("owntracks/jp/phone")
        }
        #expect(arrived)
        try broker.publish(topic: "owntracks/jp/phone", message: "not json")
        try broker.publish(topic: "owntracks/jp/phone", message: #"{"_type":"location","lat":91,"lon":0,"tst":1}"#)
        try broker.publish(topic: "owntracks/jp/phone", message: #"{"_type":"location","lat":52.6,"lon":13.4,"tst":1700000009}"#)
        // The broker lost the phone: its last will, which a recorder of the fleet must see too.
        try broker.publish(topic: "owntracks/jp/phone", message: #"{"_type":"lwt","tst":1700000000}"#)
        #expect(await subscriber.waitForMessages(5))
        let done = await waitUntil(timeout: .seconds(10)) {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains(#""_type":"lwt""#)
        }
        #expect(done)
        fleet.signalGroup(SIGTERM)
        #expect(await fleet.waitForExit(timeout: .seconds(2)))
        #expect(fleet.exitCode == 0)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.allSatisfy { $0["topic"] as? String == "owntracks/jp/phone" && $0["received_at"] is Double })
        let locations = objects.filter { $0["_type"] as? String == "location" }
        #expect(locations.last?["lat"] as? Double == 52.6)
        #expect(objects.last?["_type"] as? String == "lwt" && objects.last?["tst"] as? Int == 1_700_000_000, "\(objects)")
        #expect(!objects.contains { $0["lat"] as? Double == 91 }, "a position off the globe is dropped")
        #expect(objects.first?["vel"] as? Int == 5)
    }

    @Test("fleet --client-id keeps its session: what arrives while it is away is delivered when it is back")
    func lastingSession() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let arguments = ["fleet", "mqtt://127.0.0.1:\(broker.port)", "--json", "--client-id", "geotrack-test-viewer"]
        func message(_ tst: Int) -> String {
            #"{"_type":"location","lat":52.5,"lon":13.4,"tst":\#(tst)}"#
        }
        let first = home.appendingPathComponent("first.jsonl").path
        // Retained, as OwnTracks' apps publish locations: the broker keeps the last one per device
        // and hands it to the viewer when it subscribes. (Published once: a copy still in flight
        // when the viewer stops would rightly come again, QoS 1, with the session.)
        try broker.publish(topic: "owntracks/jp/phone", message: message(1), retain: true)
        let viewer = try GeoTrackTesting.ChildProcess(path: TestSupport.binary, arguments: arguments, stdoutPath: first)
        let subscribed = await waitUntil(timeout: .seconds(15)) {
            ((try? String(contentsOfFile: first, encoding: .utf8)) ?? "").contains("owntracks/jp/phone")
        }
        #expect(subscribed)
        viewer.signalGroup(SIGTERM)
        #expect(await viewer.waitForExit(timeout: .seconds(2)))
        // Published while no viewer runs: the broker keeps it for the session.
        try broker.publish(topic: "owntracks/jp/phone", message: message(2))
        let second = home.appendingPathComponent("second.jsonl").path
        let again = try GeoTrackTesting.ChildProcess(path: TestSupport.binary, arguments: arguments, stdoutPath: second)
        let queued = await waitUntil(timeout: .seconds(15)) {
            ((try? String(contentsOfFile: second, encoding: .utf8)) ?? "").contains("\"tst\":2")
        }
        #expect(queued, "the message published while the viewer was away")
        again.signalGroup(SIGTERM)
        #expect(await again.waitForExit(timeout: .seconds(2)))
        // The session kept its subscriptions, so the broker did not send the retained location
        // again: a recorder appending to one file gets each location once (`>> fleet.jsonl`).
        let lines = ((try? String(contentsOfFile: second, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(!lines.contains { $0.contains("\"tst\":1") }, "\(lines)")
    }

    @Test("usage errors and a refused login are one line each, with their own exit codes")
    func errors() async throws {
        let home = try TestSupport.temporaryDirectory()
        let bad = try await TestSupport.geotrack(["fleet", "http://host"], home: home)
        #expect(bad.status == 64)
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        // Its advice names only what the fleet view takes: no publishing options, no HTTP.
        let path = try await TestSupport.geotrack(["fleet", "mqtt://host/foo"], home: home)
        #expect(path.status == 64)
        #expect(path.stderr.contains("the fleet view follows every device") && !path.stderr.contains("--publish"), "\(path.stderr)")
        let bare = try await TestSupport.geotrack(["fleet", "127.0.0.1:1883"], home: home)
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]") && !bare.stderr.contains("osmand"), "\(bare.stderr)")
        let stale = try await TestSupport.geotrack(["fleet", "mqtt://h", "--stale", "0"], home: home)
        #expect(stale.status == 64)
        let id = try await TestSupport.geotrack(["fleet", "mqtt://h", "--client-id", ""], home: home)
        #expect(id.status == 64 && id.stderr.contains("--client-id must be"), "\(id.stderr)")
        // A password file with no user in the URL would never be sent: said, not ignored.
        let anonymous = try await TestSupport.geotrack(["fleet", "mqtt://h", "--publish-password-file", "/dev/null"], home: home)
        #expect(anonymous.status == 64 && anonymous.stderr.contains("no fleet URL names one: write mqtt://USER@HOST"), "\(anonymous.stderr)")
        let served = try await TestSupport.geotrack(["serve", "--replay", "/dev/null", "--fleet", "mqtt://h", "--publish-password-file", "/dev/null"], home: home)
        #expect(served.status == 64 && served.stderr.contains("no --fleet URL names one"), "\(served.stderr)")
        let broker = try await Mosquitto(users: ["fleet": "secret-one"])
        let refused = try await TestSupport.geotrack(["fleet", "mqtt://fleet@127.0.0.1:\(broker.port)"], home: home,
                                               environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong-one"])
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused the login"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("wrong-one"))
    }
}

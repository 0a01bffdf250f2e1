import Foundation
import GeoTrackTesting
import Testing

/// `--publish` and `geotrack outbox` against a real mosquitto, checked with mosquitto_sub.
@Suite("publishing to a real broker", .serialized)
struct PublishTests {
    static var log: String { get throws { try Corpus.path("quectel-l76k-nmea.nmea") } }

    /// What `replay --json` prints with a position: (lat, lon, whole seconds), in order, the
    /// first fix time of each second only, in its last report: a device's `tst` never repeats
    /// (the Recorder skips its `last` update for a repeated one), so at most one location a
    /// second is published, and a fix time's later report (the RMC after a GGA) completes it.
    static func expectedFixes(_ log: String, home: URL) async throws -> [Fix] {
        try await publishedTPVs(log, home: home).map { tst, object in
            let speed = object["speed"] as? Double, track = object["track"] as? Double
            return Fix(lat: try #require(object["lat"] as? Double), lon: try #require(object["lon"] as? Double), tst: tst,
                       vel: speed.map { Int(($0 * 3.6).rounded()) }.flatMap { $0 == 0 ? nil : $0 },
                       cog: track.map { Int($0.rounded()) % 360 }.flatMap { $0 == 0 ? nil : $0 })
        }
    }

    /// The TPVs with a position that `replay --json` prints and publishing sends, with their
    /// whole seconds: the first fix time of each second, in its last report.
    static func publishedTPVs(_ log: String, home: URL) async throws -> [(tst: Int, tpv: [String: Any])] {
        let run = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        #expect(run.status == 0)
        var reports: [(time: String, tst: Int, tpv: [String: Any])] = []
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard object["class"] as? String == "TPV", object["lat"] is Double, object["lon"] is Double,
                  let time = object["time"] as? String else { continue }
            if reports.last?.time == time { reports.removeLast() }
            reports.append((time, try #require(Self.seconds(time)), object))
        }
        var seen: Int?
        return reports.filter { report in
            defer { seen = report.tst }
            return report.tst != seen
        }.map { ($0.tst, $0.tpv) }
    }

    static func seconds(_ iso: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: iso) ?? ISO8601DateFormatter().date(from: iso)
        return date.map { Int($0.timeIntervalSince1970.rounded(.down)) }
    }

    /// The OwnTracks locations a subscriber received on `topic`, in order.
    static func received(_ subscriber: MosquittoSubscriber, topic: String) throws -> [Fix] {
        try subscriber.messages().filter { $0.topic == topic }.map { message in
            let object = try #require(JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
            #expect(object["_type"] as? String == "location")
            return Fix(lat: try #require(object["lat"] as? Double), lon: try #require(object["lon"] as? Double),
                       tst: try #require(object["tst"] as? Int), vel: object["vel"] as? Int, cog: object["cog"] as? Int)
        }
    }

    /// A position and its whole second, with the speed (km/h) and course OwnTracks sends for it;
    /// positions equal to gpsd's 9 decimals. The velocity is compared only by ``sameVelocity(as:)``.
    struct Fix: Equatable, CustomStringConvertible {
        var lat: Double
        var lon: Double
        var tst: Int
        var vel: Int? = nil
        var cog: Int? = nil
        var description: String { "\(lat),\(lon)@\(tst) vel \(vel.map(String.init) ?? "-") cog \(cog.map(String.init) ?? "-")" }

        static func == (a: Fix, b: Fix) -> Bool {
            a.tst == b.tst && abs(a.lat - b.lat) < 1e-9 && abs(a.lon - b.lon) < 1e-9
        }

        /// Whether `other` has this speed, and this course where there is a speed: OwnTracks sends a
        /// course only with a speed.
        func sameVelocity(as other: Fix) -> Bool {
            vel == other.vel && (vel == nil || cog == other.cog)
        }
    }

    @Test("replay --publish delivers one OwnTracks location per fix with a position, in order")
    func replayPublishes() async throws {
        let home = try TestSupport.temporaryDirectory()
        let expected = try await Self.expectedFixes(try Self.log, home: home)
        #expect(expected.count > 25)
        #expect(Set(expected.map(\.tst)).count == expected.count, "no tst twice")
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let run = try await TestSupport.geotrack(["replay", try Self.log, "--publish", "mqtt://127.0.0.1:\(broker.port)",
                                            "--publish-user", "ann", "--publish-device", "boat"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(await subscriber.waitForMessages(expected.count))
        #expect(try Self.received(subscriber, topic: "owntracks/ann/boat") == expected)
        let outbox = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(outbox.stdout.isEmpty, "nothing waits once the broker acknowledged all: \(outbox.stdout)")
    }

    @Test("a receiver that reports each fix time twice (GGA, then RMC) publishes the RMC's speed and course, as gpsd's last TPV of that time")
    func lastReportOfEachTime() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("haicom-305N.nmea")
        let expected = try await Self.expectedFixes(log, home: home)
        #expect(expected.count > 20)
        #expect(expected.contains { $0.cog != nil }, "the log has courses to publish")
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let run = try await TestSupport.geotrack(["replay", log, "--publish", "mqtt://127.0.0.1:\(broker.port)",
                                                  "--publish-user", "ann", "--publish-device", "walk"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(await subscriber.waitForMessages(expected.count))
        let received = try Self.received(subscriber, topic: "owntracks/ann/walk")
        #expect(received == expected)
        for (got, wanted) in zip(received, expected) where !got.sameVelocity(as: wanted) {
            Issue.record("at \(wanted.tst) published \(got), gpsd's last report of the time says \(wanted)")
        }
    }

    @Test("40 short runs with the broker up: each delivers all it queued before it ends, and none says messages wait")
    func shortRuns() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("garmin15x.nmea")
        let expected = try await Self.expectedFixes(log, home: home)
        #expect(!expected.isEmpty)
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        var notes: [String] = []
        for round in 0..<40 {
            let run = try await TestSupport.geotrack(["replay", log, "--publish", "mqtt://127.0.0.1:\(broker.port)",
                                                "--publish-user", "ann", "--publish-device", "run\(round)"], home: home)
            #expect(run.status == 0, "\(run.stderr)")
            if !run.stderr.isEmpty { notes.append(run.stderr) }
            // Ended: every message it queued was acknowledged, so the outbox holds none of them.
            let left = try await TestSupport.geotrack(["outbox", "--json"], home: home)
            #expect(left.stdout.isEmpty, "round \(round) ended with messages waiting: \(left.stdout)")
        }
        #expect(notes.isEmpty, "\(notes.count) of 40 runs printed a note: \(notes.prefix(3))")
        #expect(await subscriber.waitForMessages(40 * expected.count))
        for round in 0..<40 {
            #expect(try Self.received(subscriber, topic: "owntracks/ann/run\(round)") == expected, "round \(round)")
        }
    }

    /// Replays the log with `--publish` to a "broker" that accepts the connection and never
    /// answers the MQTT CONNECT (a TLS port, a wrong service): everything stays queued for it.
    static func queueForSilentBroker(home: URL, wait: String) async throws -> (silent: HostileGPSD, url: String, run: TestSupport.Run) {
        let silent = try HostileGPSD(.acceptThenSilence)
        let url = "mqtt://127.0.0.1:\(silent.port)"
        let run = try await TestSupport.geotrack(["replay", try log, "--publish", url, "--publish-user", "ann",
                                            "--publish-device", "van", "--publish-wait", wait], home: home)
        return (silent, url, run)
    }

    /// An `outbox flush` (its deadline ten minutes away) that has reached `silent`, which holds
    /// it up: it sends nothing and does not end by itself.
    static func flushHeldBy(_ silent: HostileGPSD, home: URL) async throws -> ChildProcess {
        let connections = silent.accepted
        let flush = try ChildProcess(TestSupport.binary, ["outbox", "flush", "--timeout", "600"],
                                     environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
        let connected = await waitUntil(timeout: .seconds(30)) { silent.accepted > connections }
        try #require(connected, "the flush never reached the broker")
        return flush
    }

    @Test("Ctrl-C stops outbox flush while the broker holds it up: status 0, what was delivered and what waits, nothing lost", arguments: [SIGINT, SIGTERM])
    func flushStopsOnASignal(_ signal: Int32) async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        // A "broker" that accepts and never answers the MQTT CONNECT: the flush waits on it.
        let (silent, url, run) = try await Self.queueForSilentBroker(home: home, wait: "0.5")
        defer { silent.stop() }
        #expect(run.status == 0, "\(run.stderr)")
        let queued = try #require(JSONSerialization.jsonObject(with: Data(try await TestSupport.geotrack(["outbox", "--json"], home: home).stdout.utf8))
            as? [String: Any])["messages"] as? Int
        let count = try #require(queued)
        #expect(count > 0)
        // Connecting to the broker comes after the signals are watched.
        let flush = try await Self.flushHeldBy(silent, home: home)
        flush.signal(signal)
        // Without the signal it would wait for ten minutes: the ceiling guards that.
        #expect(await flush.status(within: 30) == 0, "\(flush.stderr)")
        #expect(flush.stdout == "\(url)/owntracks/ann/van: 0 delivered, \(count) waiting (stopped)\n", "\(flush.stdout)")
        #expect(flush.stderr.isEmpty, "\(flush.stderr)")
        let after = try #require(JSONSerialization.jsonObject(with: Data(try await TestSupport.geotrack(["outbox", "--json"], home: home).stdout.utf8))
            as? [String: Any])
        #expect(after["messages"] as? Int == count)
    }

    @Test("SIGTERM while a location waits for a later report of its time: it stays in the outbox, unsent, and the next flush sends it once; no message reaches the broker twice")
    func signalLeavesTheLastLocationUnsent() async throws {
        let gpsd = try await GPSFake(log: Self.log, once: false)
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "HOME": home.path]
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--quiet", "--publish", url,
                                                          "--publish-user", "ann", "--publish-device", "van"],
                                     environment: environment)
        // A few locations delivered; at about a fix a second, the next one waits for a later
        // report of its time (or a second) most of the time, the signal's moment.
        #expect(await subscriber.waitForMessages(3), "\(watch.stderr)")
        watch.signal(SIGTERM)
        #expect(await watch.status(within: 30) == 0, "\(watch.stderr)")
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "30"], home: home)
        #expect(flush.status == 0, "\(flush.stdout)\(flush.stderr)")
        // Nothing left: `outbox --json` prints nothing for an empty outbox.
        let left = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(left.stdout.isEmpty, "\(left.stdout)")
        // Each message once: the one the run left in the outbox was not also sent by it.
        let payloads = subscriber.messages().filter { $0.topic == "owntracks/ann/van" }.map(\.payload)
        #expect(Set(payloads).count == payloads.count, "sent twice: \(payloads.filter { p in payloads.filter { $0 == p }.count > 1 })")
    }

    @Test("with the broker down every message is queued; outbox flush delivers them all once it is back")
    func storeAndForward() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let expected = try await Self.expectedFixes(try Self.log, home: home)
        let broker = try await Mosquitto()
        try await broker.stop()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let run = try await TestSupport.geotrack(["replay", try Self.log, "--publish", url, "--publish-user", "ann",
                                            "--publish-device", "van", "--publish-wait", "0.5"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(expected.count) messages wait in the outbox for \(url)/owntracks/ann/van"), "\(run.stderr)")
        let listed = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        let summary = try #require(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        #expect(summary["messages"] as? Int == expected.count)
        #expect(summary["destination"] as? String == "\(url)/owntracks/ann/van")

        // Still down: flush gives up with 69 and keeps everything.
        let early = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "0.5"], home: home)
        #expect(early.status == 69, "\(early.stderr)")
        #expect(early.stderr.hasPrefix("geotrack: \(expected.count) messages still wait"), "\(early.stderr)")

        try await broker.restart()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let flush = try await TestSupport.geotrack(["outbox", "flush"], home: home)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout.contains("\(expected.count) delivered, 0 waiting"), "\(flush.stdout)")
        #expect(await subscriber.waitForMessages(expected.count))
        #expect(try Self.received(subscriber, topic: "owntracks/ann/van") == expected)
        let after = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(after.stdout.isEmpty, "\(after.stdout)")
    }

    @Test("a broker with passwords: the right one delivers, a wrong one is refused (77) and never printed")
    func passwords() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let broker = try await Mosquitto(users: ["fleet": "tide-table-42"])
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"], user: ("fleet", "tide-table-42"))
        let passwordFile = home.appendingPathComponent("password").path
        try "tide-table-42\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let url = "mqtt://fleet@127.0.0.1:\(broker.port)"
        let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path
        let expected = try await Self.expectedFixes(log, home: home)
        let good = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-password-file", passwordFile,
                                             "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(await subscriber.waitForMessages(expected.count), "geotrack said: \(good.stderr)")
        #expect(try Self.received(subscriber, topic: "owntracks/ann/pi") == expected)

        // The environment's password, wrong: the run keeps its messages and says why they wait.
        let wrong = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "ann", "--publish-device", "pi",
                                              "--publish-wait", "2"], home: home,
                                             environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong-guess"])
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("the broker refused"), "\(wrong.stderr)")
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "5"], home: home,
                                             environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong-guess"])
        #expect(flush.status == 77, "\(flush.stderr)")
        // The same words in the note at exit and in flush's error.
        #expect(wrong.stderr.contains("refused the login"), "\(wrong.stderr)")
        #expect(flush.stderr.contains("refused the login"), "\(flush.stderr)")
        for output in [wrong.stderr, wrong.stdout, flush.stderr, flush.stdout] {
            #expect(!output.contains("wrong-guess"))
            #expect(!output.contains("tide-table"))
        }
        // A password in the URL is refused before anything runs: it would show in ps.
        let inline = try await TestSupport.geotrack(["replay", log, "--publish", "mqtt://fleet:tide-table-42@127.0.0.1:1"], home: home)
        #expect(inline.status == 64)
        #expect(inline.stderr.contains("no password in the URL"), "\(inline.stderr)")
        #expect(inline.stderr.contains("mqtt://fleet:***@127.0.0.1:1"), "\(inline.stderr)")
        #expect(!inline.stderr.contains("tide-table-42"))
    }

    @Test("mqtts:// with --publish-ca delivers over TLS; a CA that did not sign the broker's certificate is named as the reason messages wait")
    func tls() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let broker = try await Mosquitto(tls: true)
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let url = "mqtts://127.0.0.1:\(try #require(broker.tlsPort))"
        let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path
        let expected = try await Self.expectedFixes(log, home: home)
        let good = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-ca", try #require(broker.caFile),
                                             "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(await subscriber.waitForMessages(expected.count))
        #expect(try Self.received(subscriber, topic: "owntracks/ann/pi") == expected)

        let stranger = try await Mosquitto(tls: true)
        let wary = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-ca", try #require(stranger.caFile),
                                             "--publish-user", "ann", "--publish-device", "wary", "--publish-wait", "2"], home: home)
        #expect(wary.status == 0, "\(wary.stderr)")
        // One line: the messages that wait, and why.
        let told = wary.stderr.split(separator: "\n").filter { $0.contains("the TLS handshake failed") }
        #expect(told.count == 1, "\(wary.stderr)")
        #expect(told.first?.contains("wait in the outbox for \(url)") == true, "\(wary.stderr)")
        // A flush with the same CA says why (69); with the broker's own CA it delivers them.
        let stuck = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "3", "--publish-ca", try #require(stranger.caFile)],
                                             home: home)
        #expect(stuck.status == 69, "\(stuck.stderr)")
        #expect(stuck.stderr.contains("cannot connect to \(url): the TLS handshake failed"), "\(stuck.stderr)")
        let flushed = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10", "--publish-ca", try #require(broker.caFile)],
                                               home: home)
        #expect(flushed.status == 0, "\(flushed.stderr)")
        #expect(await subscriber.waitForMessages(2 * expected.count))
    }

    @Test("a broker that requires a client certificate: --publish-cert and --publish-key deliver; a wrong CA, or no certificate, is told as a TLS failure, in the same words at exit and by outbox flush")
    func clientCertificate() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let broker = try await Mosquitto(clientCertificates: true)
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let url = "mqtts://127.0.0.1:\(try #require(broker.tlsPort))"
        let ca = try #require(broker.caFile)
        let certificate = try #require(broker.clientCertificateFile)
        let key = try #require(broker.clientKeyFile)
        let log = try Corpus.path("garmin15x.nmea")
        let expected = try await Self.expectedFixes(log, home: home)
        #expect(!expected.isEmpty)
        let tls = ["--publish-ca", ca, "--publish-cert", certificate, "--publish-key", key]
        let good = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "ann", "--publish-device", "pi"] + tls,
                                            home: home)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.isEmpty, "\(good.stderr)")
        #expect(await subscriber.waitForMessages(expected.count))
        #expect(try Self.received(subscriber, topic: "owntracks/ann/pi") == expected)
        let empty = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(empty.stdout.isEmpty, "\(empty.stdout)")

        // A CA that did not sign the broker's certificate: the client refuses the broker.
        let stranger = try await Mosquitto(tls: true)
        let wrongCA = ["--publish-ca", try #require(stranger.caFile), "--publish-cert", certificate, "--publish-key", key]
        let wary = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "ann", "--publish-device", "wary",
                                             "--publish-wait", "3"] + wrongCA, home: home)
        #expect(wary.status == 0, "\(wary.stderr)")
        let told = wary.stderr.split(separator: "\n").filter { $0.contains("the TLS handshake failed") }
        #expect(told.count == 1, "\(wary.stderr)")
        #expect(told.first?.contains("\(expected.count) messages wait in the outbox for \(url)/owntracks/ann/wary") == true,
                "\(wary.stderr)")
        let stuck = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "3"] + wrongCA, home: home)
        #expect(stuck.status == 69, "\(stuck.stderr)")
        #expect(stuck.stderr.contains("cannot connect to \(url): the TLS handshake failed"), "\(stuck.stderr)")

        // The broker's CA, no client certificate: the broker refuses the client (under TLS 1.3
        // after the client's side of the handshake ended), told as a TLS failure too, with
        // what to check. The note at exit and flush say it in the same words.
        let refused = "the TLS handshake failed: the broker refused the client"
        let anonymous = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "ann",
                                                  "--publish-device", "anonymous", "--publish-wait", "3", "--publish-ca", ca],
                                                 home: home)
        #expect(anonymous.status == 0, "\(anonymous.stderr)")
        let note = anonymous.stderr.split(separator: "\n").filter { $0.contains(refused) }
        #expect(note.count == 1, "\(anonymous.stderr)")
        #expect(note.first?.contains("\(expected.count) messages wait in the outbox for \(url)/owntracks/ann/anonymous") == true,
                "\(anonymous.stderr)")
        #expect(note.first?.contains("check the client certificate and key") == true, "\(anonymous.stderr)")
        let unsigned = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "3", "--publish-ca", ca], home: home)
        #expect(unsigned.status == 69, "\(unsigned.stderr)")
        #expect(unsigned.stderr.contains("cannot connect to \(url): \(refused)"), "\(unsigned.stderr)")

        // With all three, both queues go.
        let flushed = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "20"] + tls, home: home)
        #expect(flushed.status == 0, "\(flushed.stderr)")
        #expect(flushed.stdout.contains("\(url)/owntracks/ann/wary: \(expected.count) delivered, 0 waiting"), "\(flushed.stdout)")
        #expect(flushed.stdout.contains("\(url)/owntracks/ann/anonymous: \(expected.count) delivered, 0 waiting"), "\(flushed.stdout)")
        #expect(await subscriber.waitForMessages(3 * expected.count))
        #expect(try Self.received(subscriber, topic: "owntracks/ann/wary") == expected)
        #expect(try Self.received(subscriber, topic: "owntracks/ann/anonymous") == expected)
        let drained = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(drained.stdout.isEmpty, "\(drained.stdout)")
    }

    @Test("bad --publish values are one-line usage errors")
    func usageErrors() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path
        for (arguments, fragment) in [
            (["--publish", "ftp://host"], "unknown scheme ftp"),
            (["--publish", "gopher://host/owntracks"], "unknown scheme gopher"),
            (["--publish", "mqtt://host:99999"], "port must be a number from 1 to 65535"),
            (["--publish", "mqtt://host/owntracks/a/b"], "a broker URL has no path"),
            (["--publish", "mqtt://h", "--publish-device", "a/b"], "--publish-device must be"),
            (["--publish-user", "ann"], "need a destination: --publish URL, or publish.destinations"),
            (["--publish", "mqtt://h", "--publish-tid", "abc"], "--publish-tid must be"),
            // A password with no user to log in would be read and never sent.
            (["--publish", "mqtt://h", "--publish-password-file", "/dev/null"], "no --publish URL names one: write mqtt://USER@HOST"),
            (["--publish", "http://h:8083/pub", "--publish-password-file", "/dev/null"], "no --publish URL names one"),
        ] {
            let run = try await TestSupport.geotrack(["replay", log] + arguments, home: home)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
    }
}

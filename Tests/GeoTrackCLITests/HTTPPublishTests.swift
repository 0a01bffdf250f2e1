import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// `--publish http://` (OwnTracks' HTTP mode) and `--publish osmand://` (Traccar's OsmAnd
/// protocol) against a recording HTTP server (``RecordingHTTPServer``), through the real outbox.
@Suite("publishing over HTTP", .serialized)
struct HTTPPublishTests {
    static var log: String { get throws { try Corpus.path("quectel-l76k-nmea.nmea") } }
    static let shortLog = TestSupport.packageRoot.appendingPathComponent("Tests/GPSDTests/Logs/garmin15x.nmea").path

    /// A TPV with a position, as `replay --json` prints it.
    struct TPV {
        var lat: Double
        var lon: Double
        var tst: Int
        var speed: Double?
        var track: Double?
        var altitude: Double?
        var eph: Double?
    }

    /// The TPVs publishing sends (``PublishTests/publishedTPVs(_:home:)``).
    static func expected(_ log: String, home: URL) async throws -> [TPV] {
        try await PublishTests.publishedTPVs(log, home: home).map { tst, object in
            TPV(lat: try #require(object["lat"] as? Double), lon: try #require(object["lon"] as? Double), tst: tst,
                speed: object["speed"] as? Double, track: object["track"] as? Double,
                altitude: (object["altMSL"] ?? object["alt"]) as? Double, eph: object["eph"] as? Double)
        }
    }

    /// What `geotrack outbox --json` lists, one object per destination.
    static func outbox(home: URL) async throws -> [[String: Any]] {
        let listed = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(listed.status == 0, "\(listed.stderr)")
        return try listed.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Java's `Double.parseDouble` on what Traccar reads: a plain decimal (no hex, no NaN).
    static func javaDouble(_ text: String?) -> Double? {
        guard let text, text.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil else { return nil }
        return Double(text)
    }

    @Test("osmand:// sends each location as Traccar's OsmAndProtocolDecoder reads it: id, unix seconds, degrees, knots, metres")
    func osmAnd() async throws {
        let home = try TestSupport.temporaryDirectory()
        // A log that moves (speeds are checked in knots) with fixes that lack a speed or course.
        let log = try Corpus.path("haicom-305N.nmea")
        let expected = try await Self.expected(log, home: home)
        #expect(expected.count > 25)
        #expect(expected.filter { ($0.speed ?? 0) > 1 }.count > 10, "the log moves")
        let server = try await RecordingHTTPServer(answers: [200])
        let run = try await TestSupport.geotrack(["replay", log, "--publish", "osmand://127.0.0.1:\(server.port)",
                                            "--publish-user", "ann", "--publish-device", "boat-7"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let requests = try server.requests()
        try #require(requests.count == expected.count, "\(requests.count) requests for \(expected.count) locations")
        let known: Set = ["id", "timestamp", "lat", "lon", "speed", "bearing", "altitude", "accuracy", "hdop"]
        for (request, fix) in zip(requests, expected) {
            #expect(request.method == "POST" && request.path == "/", "\(request.method) \(request.path)")
            let names = request.query.map(\.name)
            #expect(Set(names).isSubset(of: known) && Set(names).count == names.count, "\(names)")
            #expect(request.parameter("id") == "boat-7")
            // Traccar: Long.parseLong, and below Integer.MAX_VALUE it is seconds.
            let timestamp = try #require(request.parameter("timestamp").flatMap { Int64($0) }, "\(request.query)")
            #expect(timestamp < Int64(Int32.max) && timestamp == Int64(fix.tst))
            let lat = try #require(Self.javaDouble(request.parameter("lat")))
            let lon = try #require(Self.javaDouble(request.parameter("lon")))
            #expect(abs(lat - fix.lat) < 1e-9 && abs(lon - fix.lon) < 1e-9, "\(lat),\(lon) for \(fix.lat),\(fix.lon)")
            // Knots: Traccar converts from "kn". Two roundings apart: the JSON's m/s to 3
            // decimals (0.0005 m/s), the query's knots to 3 (0.0005 kn, 0.00026 m/s); a
            // km/h or m/s sent as knots would be 1.9 or 1.08 times too large.
            if let speed = fix.speed {
                let knots = try #require(Self.javaDouble(request.parameter("speed")), "\(request.query)")
                #expect(abs(knots * 1852 / 3600 - speed) <= 0.0005 + 0.0005 * 1852 / 3600 + 1e-9, "\(knots) kn for \(speed) m/s")
            } else {
                #expect(request.parameter("speed") == nil, "no speed reported, none sent: \(request.query)")
            }
            if let track = fix.track {
                let bearing = try #require(Self.javaDouble(request.parameter("bearing")), "\(request.query)")
                #expect(abs(bearing - track) <= 0.05 + 1e-9)
            } else {
                #expect(request.parameter("bearing") == nil, "\(request.query)")
            }
            if let altitude = fix.altitude {
                let sent = try #require(Self.javaDouble(request.parameter("altitude")), "\(request.query)")
                #expect(abs(sent - altitude) <= 0.005 + 1e-9)
            } else {
                #expect(request.parameter("altitude") == nil)
            }
            if let eph = fix.eph {
                let accuracy = try #require(Self.javaDouble(request.parameter("accuracy")), "\(request.query)")
                #expect(abs(accuracy - eph) <= 0.05 + 1e-9)
            }
            if let hdop = request.parameter("hdop") {
                #expect((Self.javaDouble(hdop) ?? -1) > 0, "\(hdop)")
            }
        }
        #expect(try await Self.outbox(home: home).isEmpty, "nothing waits once every request was answered 200")
    }

    @Test("http:// POSTs to /pub the JSON MQTT publishes for the same fix, with its topic, and with the user and device the Recorder reads")
    func ownTracksHTTP() async throws {
        let home = try TestSupport.temporaryDirectory()
        let expected = try await Self.expected(try Self.log, home: home)
        let server = try await RecordingHTTPServer(answers: [200])
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        // Both at once: each location is one message, queued for each destination.
        let run = try await TestSupport.geotrack(["replay", try Self.log, "--publish", "http://127.0.0.1:\(server.port)/pub",
                                            "--publish", "mqtt://127.0.0.1:\(broker.port)",
                                            "--publish-user", "ann", "--publish-device", "boat"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(await subscriber.waitForMessages(expected.count))
        let mqtt = subscriber.messages().filter { $0.topic == "owntracks/ann/boat" }.map(\.payload)
        let requests = try server.requests()
        #expect(requests.count == expected.count && mqtt.count == expected.count, "\(requests.count), \(mqtt.count)")
        for (request, published) in zip(requests, mqtt) {
            #expect(request.method == "POST" && request.path == "/pub")
            #expect(request.parameter("u") == "ann" && request.parameter("d") == "boat", "\(request.query)")
            #expect(request.headers["x-limit-u"] == "ann" && request.headers["x-limit-d"] == "boat", "\(request.headers)")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["authorization"] == nil, "no password, no authentication")
            let body = try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            let message = try #require(JSONSerialization.jsonObject(with: Data(published.utf8)) as? [String: Any])
            // The same message, and the topic it has over MQTT, as OwnTracks' iOS app sends it in
            // HTTP mode: Traccar's OwnTracks decoder tells devices apart by it.
            #expect(body["topic"] as? String == "owntracks/ann/boat", "\(body)")
            #expect(message["topic"] == nil, "\(message)")
            #expect(NSDictionary(dictionary: body.filter { $0.key != "topic" }) == NSDictionary(dictionary: message), "\(body) != \(message)")
            #expect(body["_type"] as? String == "location")
        }
        #expect(zip(requests, expected).allSatisfy { request, fix in
            ((try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any])?["tst"] as? Int == fix.tst
        })
        #expect(try await Self.outbox(home: home).isEmpty)
    }

    @Test("a user or device name beyond ASCII (jörg) is sent in the query only: a header value must be visible ASCII, and the Recorder reads the query when the header is absent")
    func nonASCIIName() async throws {
        let home = try TestSupport.temporaryDirectory()
        let server = try await RecordingHTTPServer(answers: [200])
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://127.0.0.1:\(server.port)/pub",
                                                  "--publish-user", "jörg", "--publish-device", "boat"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = try server.requests()
        #expect(!requests.isEmpty)
        for request in requests {
            // python's http.server reads header bytes as Latin-1: raw UTF-8 would show here as "jÃ¶rg".
            for (name, value) in request.headers {
                #expect(value.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, "\(name): \(value)")
            }
            #expect(request.headers["x-limit-u"] == nil, "\(request.headers)")
            #expect(request.headers["x-limit-d"] == "boat", "\(request.headers)")
            #expect(request.parameter("u") == "jörg" && request.parameter("d") == "boat", "\(request.query)")
        }
    }

    @Test("a user in the URL and --publish-password-file: basic authentication to /pub by default; a 401 is a refused login, said, and flush exits 77")
    func basicAuthentication() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let passwordFile = home.appendingPathComponent("password").path
        try "tide-table-42\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let good = try await RecordingHTTPServer(answers: [200])
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://fleet@127.0.0.1:\(good.port)",
                                            "--publish-password-file", passwordFile,
                                            "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = try good.requests()
        #expect(!requests.isEmpty)
        let credentials = "Basic " + Data("fleet:tide-table-42".utf8).base64EncodedString()
        #expect(requests.allSatisfy { $0.headers["authorization"] == credentials }, "\(requests.first?.headers ?? [:])")
        #expect(requests.allSatisfy { $0.path == "/pub" }, "a URL without a path posts to the Recorder's /pub")

        // The URL's user is percent-encoded: an e-mail address as the login reaches the server whole.
        let mail = try await RecordingHTTPServer(answers: [200])
        let encoded = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://me%40example.com@127.0.0.1:\(mail.port)",
                                                "--publish-password-file", passwordFile,
                                                "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let mailCredentials = "Basic " + Data("me@example.com:tide-table-42".utf8).base64EncodedString()
        let mailRequests = try mail.requests()
        #expect(!mailRequests.isEmpty && mailRequests.allSatisfy { $0.headers["authorization"] == mailCredentials },
                "\(mailRequests.first?.headers ?? [:])")
        let broken = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://me%4@127.0.0.1:1"], home: home)
        #expect(broken.status == 64 && broken.stderr.contains("write %25 for a %"), "\(broken.stderr)")

        let refusing = try await RecordingHTTPServer(answers: [401])
        let url = "http://fleet@127.0.0.1:\(refusing.port)/pub"
        let refused = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-user", "ann", "--publish-device", "pi",
                                                "--publish-wait", "3"], home: home,
                                               environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong-guess"])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("the server refused the login"), "\(refused.stderr)")
        #expect(refused.stderr.contains("401"), "\(refused.stderr)")
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "5"], home: home,
                                             environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong-guess"])
        #expect(flush.status == 77, "\(flush.stderr)")
        #expect(flush.stderr.contains("refused the login"), "\(flush.stderr)")
        for output in [run.stderr, refused.stderr, flush.stderr, flush.stdout] {
            #expect(!output.contains("tide-table") && !output.contains("wrong-guess"))
        }
    }

    @Test("https:// and osmand+https:// with --publish-ca deliver over TLS; a CA that did not sign the server's certificate is named as the reason messages wait")
    func https() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let expected = try await Self.expected(Self.shortLog, home: home)
        let server = try await RecordingHTTPServer(answers: [200], tls: true)
        let url = "https://127.0.0.1:\(server.port)/pub"
        let good = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-ca", try #require(server.caFile),
                                             "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.isEmpty, "\(good.stderr)")
        #expect(try server.requests().count == expected.count)

        let stranger = try TestSupport.temporaryDirectory()
        try await RecordingHTTPServer.makeCertificates(directory: stranger.path)
        let strangerCA = stranger.appendingPathComponent("ca.crt").path
        let wary = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-ca", strangerCA,
                                             "--publish-user", "ann", "--publish-device", "wary", "--publish-wait", "2"], home: home)
        #expect(wary.status == 0, "\(wary.stderr)")
        let told = wary.stderr.split(separator: "\n").filter { $0.contains("the TLS handshake failed") }
        #expect(told.count == 1, "\(wary.stderr)")
        #expect(told.first?.contains("wait in the outbox for \(url)?u=ann&d=wary") == true, "\(wary.stderr)")
        #expect(try server.requests().count == expected.count, "nothing reached the server past a refused certificate")
        // Flushed with the server's own CA, they arrive.
        let flushed = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10", "--publish-ca", try #require(server.caFile)],
                                               home: home)
        #expect(flushed.status == 0, "\(flushed.stderr)")
        #expect(try server.requests().count == 2 * expected.count)

        // osmand+https:// is OsmAnd over the same TLS.
        let osmAnd = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "osmand+https://127.0.0.1:\(server.port)",
                                               "--publish-ca", try #require(server.caFile), "--publish-device", "pi"], home: home)
        #expect(osmAnd.status == 0 && osmAnd.stderr.isEmpty, "\(osmAnd.stderr)")
        let queries = try server.requests().dropFirst(2 * expected.count)
        #expect(queries.count == expected.count)
        #expect(queries.allSatisfy { $0.path == "/" && $0.parameter("id") == "pi" && $0.body.isEmpty })
        #expect(zip(queries, expected).allSatisfy { $0.parameter("timestamp") == String($1.tst) })
    }

    @Test("https:// to a server that asks for a client certificate: --publish-cert and --publish-key present it; without them nothing is taken and the messages wait")
    func clientCertificate() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let server = try await RecordingHTTPServer(answers: [200], tls: true, requireClientCertificate: true)
        let ca = try #require(server.caFile), client = try #require(server.clientCertificate)
        let url = "https://127.0.0.1:\(server.port)/pub"
        let without = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-ca", ca,
                                                "--publish-device", "pi", "--publish-wait", "2"], home: home)
        #expect(without.status == 0, "\(without.stderr)")
        // Under TLS 1.3 the server refuses the missing certificate after the handshake, so
        // libcurl sees a failed send rather than a failed handshake: a reason, but not "TLS".
        #expect(without.stderr.contains("wait in the outbox for \(url)?u="), "\(without.stderr)")
        #expect(without.stderr.contains("(cannot connect: "), "\(without.stderr)")
        #expect(try server.requests().isEmpty)
        let with = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10", "--publish-ca", ca,
                                             "--publish-cert", client.certificate, "--publish-key", client.key], home: home)
        #expect(with.status == 0, "\(with.stderr)")
        let expected = try await Self.expected(Self.shortLog, home: home)
        #expect(try server.requests().count == expected.count)
    }

    @Test("a 500 and then 200s: the refused message is sent again, all arrive in order, and the outbox is empty")
    func retriesAfterServerError() async throws {
        let home = try TestSupport.temporaryDirectory()
        let expected = try await Self.expected(Self.shortLog, home: home)
        let server = try await RecordingHTTPServer(answers: [500, 500, 200])
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://127.0.0.1:\(server.port)/pub",
                                            "--publish-user", "ann", "--publish-device", "pi"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "everything was delivered within --publish-wait: \(run.stderr)")
        let requests = try server.requests()
        #expect(requests.map(\.status) == [500, 500] + Array(repeating: 200, count: expected.count))
        let times = try requests.map { request in
            try #require((JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["tst"] as? Int)
        }
        // The first message three times (two 500s), then each once, in order.
        #expect(times == [expected[0].tst, expected[0].tst] + expected.map(\.tst), "\(times)")
        #expect(try await Self.outbox(home: home).isEmpty)
    }

    @Test("a 400 sets that message aside as a dead letter 'geotrack outbox' lists with the reason; the others are delivered")
    func deadLetter() async throws {
        let home = try TestSupport.temporaryDirectory()
        let expected = try await Self.expected(Self.shortLog, home: home)
        #expect(expected.count >= 3)
        let server = try await RecordingHTTPServer(answers: [200, 400, 200])
        let url = "http://127.0.0.1:\(server.port)/pub"
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-user", "ann", "--publish-device", "pi"],
                                           home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = try server.requests()
        #expect(requests.map(\.status) == [200, 400] + Array(repeating: 200, count: expected.count - 2), "sent once, never again")
        let listed = try await Self.outbox(home: home)
        try #require(listed.count == 1, "\(listed)")
        #expect(listed[0]["destination"] as? String == "\(url)?u=ann&d=pi")
        #expect(listed[0]["messages"] as? Int == 0)
        #expect(listed[0]["dead_letters"] as? Int == 1)
        let reason = listed[0]["dead_letter_reason"] as? String ?? ""
        #expect(reason.contains("400") && reason.contains("Bad Request"), "\(reason)")
        let text = try await TestSupport.geotrack(["outbox"], home: home)
        #expect(text.stdout.contains("400"), "\(text.stdout)")
        // Clearing says what it deleted, the dead letter too.
        let cleared = try await TestSupport.geotrack(["outbox", "clear", "--all"], home: home)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout == "Deleted 0 messages and 1 dead letter.\n")
        #expect(try await Self.outbox(home: home).allSatisfy { $0["dead_letters"] as? Int ?? 0 == 0 })
    }

    @Test("Traccar's 400 for an unknown device: every location is set aside, and the exit line says how many, why and what to do")
    func deadLettersAreSaid() async throws {
        let home = try TestSupport.temporaryDirectory()
        let expected = try await Self.expected(Self.shortLog, home: home)
        let server = try await RecordingHTTPServer(answers: [400])
        let url = "osmand://127.0.0.1:\(server.port)"
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-user", "ann", "--publish-device", "pi"],
                                           home: home)
        // Nothing waits and nothing is lost unsaid: the run did its work, so 0 (docs/FLEET.md).
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.requests().count == expected.count, "each sent once, never again")
        let key = try await #require(Self.outbox(home: home).first?["destination"] as? String)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines == ["geotrack: \(expected.count) messages for \(key) set aside as undeliverable in this run (the server answered 400 (Bad Request): it cannot take this message), not sent: Traccar answers 400 for a device it does not know: add the device 'pi' in Traccar; once that is mended, 'geotrack outbox retry \(key)' queues them again; 'geotrack outbox clear \(key)' deletes them"],
                "\(run.stderr)")
        // The status's last line agrees with that note: it said 1 while the rest were set aside
        // after it was printed.
        let last = try #require(run.stdout.split(separator: "\n").last.map(String.init))
        #expect(last.hasSuffix("· \(expected.count) set aside as undeliverable: the server answered 400 (Bad Request)"), "\(run.stdout)")
    }

    @Test("once Traccar knows the device, outbox retry queues the set-aside locations again, and flush delivers every one, in order")
    func deadLettersRetried() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        let expected = try await Self.expected(Self.shortLog, home: home)
        // Traccar without the device: 400 for each location; then with it: 200.
        let server = try await RecordingHTTPServer(answers: Array(repeating: 400, count: expected.count) + [200])
        let url = "osmand://127.0.0.1:\(server.port)"
        let run = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", url, "--publish-user", "ann", "--publish-device", "pi"],
                                                 home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let listed = try #require(try await Self.outbox(home: home).first)
        let key = try #require(listed["destination"] as? String)
        #expect(listed["dead_letters"] as? Int == expected.count)
        let retried = try await TestSupport.geotrack(["outbox", "retry", key], home: home)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stdout == "Queued \(expected.count) messages again: 'geotrack outbox flush' sends them now.\n")
        let queued = try #require(try await Self.outbox(home: home).first)
        #expect(queued["messages"] as? Int == expected.count && queued["dead_letters"] as? Int ?? 0 == 0, "\(queued)")
        let flush = try await TestSupport.geotrack(["outbox", "flush", key, "--timeout", "30"], home: home)
        #expect(flush.status == 0, "\(flush.stderr)")
        let times = try server.requests().map { $0.parameter("timestamp") }
        #expect(times.count == 2 * expected.count)
        // The second time, the same locations in the same order.
        #expect(Array(times.suffix(expected.count)) == Array(times.prefix(expected.count)))
        #expect(try await Self.outbox(home: home).allSatisfy { ($0["messages"] as? Int ?? 0) == 0 && ($0["dead_letters"] as? Int ?? 0) == 0 })
        // Nothing more to queue again; a destination the outbox does not hold is 66; one or --all.
        let again = try await TestSupport.geotrack(["outbox", "retry", "--all"], home: home)
        #expect(again.status == 0 && again.stdout == "Queued 0 messages again: no dead letters.\n", "\(again.stdout)\(again.stderr)")
        let unknown = try await TestSupport.geotrack(["outbox", "retry", "osmand://elsewhere:5055/?id=pi"], home: home)
        #expect(unknown.status == 66, "\(unknown.stderr)")
        let neither = try await TestSupport.geotrack(["outbox", "retry"], home: home)
        #expect(neither.status == 64 && neither.stderr == "geotrack: name one destination, or give --all; see 'geotrack outbox retry --help'\n", "\(neither.stderr)")
    }

    @Test("an unknown host and a refused connection are named, in the note at exit and by outbox flush (69)")
    func namedFailures() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let unknown = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "http://nohost.invalid/pub",
                                                "--publish-user", "ann", "--publish-device", "pi", "--publish-wait", "5"], home: home)
        #expect(unknown.status == 0, "\(unknown.stderr)")
        let notFound = unknown.stderr.split(separator: "\n").filter { $0.contains("the server's host name was not found") }
        #expect(notFound.count == 1, "\(unknown.stderr)")
        #expect(notFound.first?.contains("wait in the outbox for http://nohost.invalid:80/pub?u=ann&d=pi") == true, "\(unknown.stderr)")

        let port = try GeoTrackTesting.GPSFake.freePort()
        let closed = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "osmand://127.0.0.1:\(port)",
                                               "--publish-user", "ann", "--publish-device", "pi", "--publish-wait", "5"], home: home)
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stderr.contains("wait in the outbox for osmand://127.0.0.1:\(port)/?id=pi (cannot connect: the server's host refused the connection"),
                "\(closed.stderr)")

        let flush = try await TestSupport.geotrack(["outbox", "flush", "osmand://127.0.0.1:\(port)/?id=pi", "--timeout", "3"], home: home)
        #expect(flush.status == 69, "\(flush.stderr)")
        #expect(flush.stderr.contains("cannot connect to osmand://127.0.0.1:\(port)/: the server's host refused the connection"), "\(flush.stderr)")
        let unresolved = try await TestSupport.geotrack(["outbox", "flush", "http://nohost.invalid:80/pub?u=ann&d=pi", "--timeout", "3"],
                                                  home: home)
        #expect(unresolved.status == 69, "\(unresolved.stderr)")
        #expect(unresolved.stderr.contains("cannot connect to http://nohost.invalid:80/pub: the server's host name was not found"),
                "\(unresolved.stderr)")
        // A server that answers 500 was reached: the line says what it answered, not that it
        // could not be connected to.
        let failing = try await RecordingHTTPServer(answers: [500])
        let queued = try await TestSupport.geotrack(["replay", Self.shortLog, "--publish", "osmand://127.0.0.1:\(failing.port)",
                                                     "--publish-user", "ann", "--publish-device", "pi", "--publish-wait", "3"], home: home)
        #expect(queued.status == 0, "\(queued.stderr)")
        // The note at exit says the same: what the server answered, not "cannot connect".
        #expect(queued.stderr.contains("wait in the outbox for osmand://127.0.0.1:\(failing.port)/?id=pi (the server answered 500 (Internal Server Error)"),
                "\(queued.stderr)")
        #expect(!queued.stderr.contains("cannot connect"), "\(queued.stderr)")
        let answered = try await TestSupport.geotrack(["outbox", "flush", "osmand://127.0.0.1:\(failing.port)/?id=pi", "--timeout", "3"], home: home)
        #expect(answered.status == 69, "\(answered.stderr)")
        #expect(answered.stderr.contains("still wait for osmand://127.0.0.1:\(failing.port)/?id=pi: osmand://127.0.0.1:\(failing.port)/: the server answered 500 (Internal Server Error): check the server's log; then flush again"),
                "\(answered.stderr)")
        #expect(!answered.stderr.contains("cannot connect"), "\(answered.stderr)")
    }

    @Test("an outbox message that makes no valid request (a query with a space and a line break) is a dead letter, and holds up nothing behind it")
    func malformedMessage() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let server = try await RecordingHTTPServer(answers: [200])
        let key = "osmand://127.0.0.1:\(server.port)/?id=pi"
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        for payload in ["id=pi&timestamp=1&lat=1 2\r\nX-Evil: 1&lon=2", "id=pi&timestamp=2&lat=1&lon=2"] {
            try outbox.enqueue(OutboxMessage(destination: key, topic: "owntracks/ann/pi", payload: Array(payload.utf8), retain: false,
                                             created: Date()))
        }
        outbox.close()
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10"], home: home)
        #expect(flush.status == 0, "\(flush.stderr)")
        let requests = try server.requests()
        #expect(requests.count == 1 && requests.first?.parameter("timestamp") == "2", "\(requests.map(\.query))")
        #expect(requests.allSatisfy { $0.headers["x-evil"] == nil })
        let listed = try await Self.outbox(home: home)
        #expect(listed.first?["dead_letters"] as? Int == 1, "\(listed)")
        #expect((listed.first?["dead_letter_reason"] as? String)?.contains("the request cannot be made") == true, "\(listed)")
    }

    @Test("bad HTTP URLs are one-line usage errors; fleet takes only MQTT")
    func usageErrors() async throws {
        let home = try TestSupport.temporaryDirectory()
        for (arguments, fragment) in [
            (["--publish", "http://ann:secret@host/pub"], "no password in the URL"),
            (["--publish", "http://host/pub?u=ann"], "no query in the URL"),
            (["--publish", "osmand://host:0"], "port must be a number from 1 to 65535"),
            (["--publish", "http://host/a b"], "the path has spaces"),
        ] {
            let run = try await TestSupport.geotrack(["replay", Self.shortLog] + arguments, home: home)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(fragment), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("secret"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
        }
        let fleet = try await TestSupport.geotrack(["fleet", "http://host/pub"], home: home)
        #expect(fleet.status == 64 && fleet.stderr.contains("subscribes to an MQTT broker"), "\(fleet.stderr)")
    }
}

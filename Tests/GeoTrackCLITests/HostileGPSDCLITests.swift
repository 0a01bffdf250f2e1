import Foundation
import GeoTrackTesting
import Testing

/// The command line against a peer that breaks gpsd's rules (``HostileGPSD``).
@Suite("geotrack against a hostile gpsd", .timeLimit(.minutes(5)))
struct HostileGPSDCLITests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#

    @Test("devices --timeout 1 ends with 69 when the connect never completes or the peer says nothing, within its timeout",
          arguments: [HostileGPSD.Script.neverComplete, .acceptThenSilence])
    func devicesTimeout(script: HostileGPSD.Script) async throws {
        let server = try HostileGPSD(script)
        defer { server.stop() }
        let started = ContinuousClock.now
        let run = try await TestSupport.geotrack(["devices", "--gpsd", "127.0.0.1:\(server.port)", "--timeout", "1"],
                                           home: try TestSupport.temporaryDirectory())
        let elapsed = ContinuousClock.now - started
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("127.0.0.1:\(server.port)"))
        // One sentence per thought: no "there?. Check", no "2.0 seconds" beside "1 s".
        #expect(run.stderr.hasSuffix(" within 1 s. Is gpsd listening there? Check the host, the port and any firewall between.\n"),
                "\(run.stderr)")
        // The kernel alone would hold a connect for about two minutes: the ceiling is half that,
        // to tell the timeout from the kernel's, never a measure of speed.
        #expect(elapsed < .seconds(60), "took \(elapsed)")
    }

    @Test("devices prints a hostile gpsd's escape sequences as visible text, never to the terminal")
    func devicesEscapes() async throws {
        let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/tty\u001b[2J","driver":"u-blox\u001b]0;pwned\u0007","activated":"2024-05-01T10:00:00.000Z"}]}"#
        let server = try HostileGPSD(.send([.line(Self.version), .line(devices)], closeAfter: false))
        defer { server.stop() }
        let run = try await TestSupport.geotrack(["devices", "--gpsd", "127.0.0.1:\(server.port)", "--timeout", "5"],
                                           home: try TestSupport.temporaryDirectory())
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(run.stdout.contains(#"/dev/tty\u{1b}[2J"#))
        // --json escapes them as JSON does, and a JSON reader gets the path back exactly.
        let json = try await TestSupport.geotrack(["devices", "--gpsd", "127.0.0.1:\(server.port)", "--timeout", "5", "--json"],
                                            home: try TestSupport.temporaryDirectory())
        #expect(json.status == 0, "\(json.stderr)")
        #expect(!json.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["path"] as? String == "/dev/tty\u{1b}[2J")
        #expect(object?["activated"] as? String == "2024-05-01T10:00:00.000Z")
    }

    @Test("watch --json prints only what passed the checks: no 0 from 0x33, no 1899 from a bad time")
    func watchGarbage() async throws {
        let tpv = { (fields: String) in #"{"class":"TPV","device":"/dev/ttyX","mode":3,"# + fields + "}" }
        let server = try HostileGPSD(.send([
            .line(Self.version),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyX","activated":"2024-05-01T10:00:00.000Z"}]}"#),
            .line(tpv(#""time":"2024-05-01T10:00:01.000Z","lat":0x33,"lon":-0.1"#)),
            .line(tpv(#""time":"not-a-time","lat":51.2,"lon":-0.1"#)),
            .line(tpv(#""time":"2024-05-01T10:00:03.000Z","lat":NaN,"lon":-0.1"#)),
            .line(tpv(#""time":"2024-05-01T10:00:04.000Z","lat":51.4,"lon":-0.1"#)),
        ], closeAfter: false))
        defer { server.stop() }
        let home = try TestSupport.temporaryDirectory()
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let gpx = home.appendingPathComponent("track.gpx").path
        let run = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:\(server.port)", "--json", "--count", "1",
                                            "--timeout", "20", "--gpx", gpx], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""lat":51.4"#) == true, "\(run.stdout)")
        let track = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(track.components(separatedBy: "<trkpt").count == 2)
        #expect(!track.contains("1899") && !track.contains(#"lat="0"#))
    }

    // Two receivers on one gpsd are scripted here, not played by gpsfake: the order of their
    // reports is what is tested, and a scripted peer fixes it.
    @Test("two receivers on one gpsd: the first with a position is followed, the other's reports set aside and said once, so a receiver without a fix cannot hide the fix")
    func secondReceiverIsSetAside() async throws {
        let device = { (path: String) in #"{"class":"DEVICE","path":"\#(path)","driver":"NMEA0183","activated":"2024-05-01T10:00:00.000Z"}"# }
        let noFix = #"{"class":"TPV","device":"/dev/ttyB","mode":1}"#
        let fix = { (second: Int) in
            #"{"class":"TPV","device":"/dev/ttyA","mode":3,"time":"2024-05-01T10:00:0\#(second).000Z","lat":51.\#(second),"lon":-0.1}"#
        }
        let bow = #"{"class":"TPV","device":"/dev/ttyB","mode":3,"time":"2024-05-01T10:00:02.000Z","lat":38.1,"lon":-122.6}"#
        let server = try HostileGPSD(.send([
            .line(Self.version), .line(#"{"class":"DEVICES","devices":["# + device("/dev/ttyA") + "," + device("/dev/ttyB") + "]}"),
            .line(noFix), .line(fix(1)), .line(noFix), .line(bow), .line(fix(2)), .line(noFix), .line(fix(3)),
        ], closeAfter: false))
        defer { server.stop() }
        let home = try TestSupport.temporaryDirectory()
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let gpx = home.appendingPathComponent("track.gpx").path
        let run = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:\(server.port)", "--json", "--count", "3",
                                                  "--timeout", "20", "--gpx", gpx], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        // Before any position, every receiver's reports go on: the first is B's "no fix".
        let afterFirstFix = lines.drop { !$0.contains(#""device":"/dev/ttyA""#) }.filter { $0.contains(#""class":"TPV""#) }
        #expect(afterFirstFix.count == 3, "\(run.stdout)")
        #expect(afterFirstFix.allSatisfy { $0.contains(#""device":"/dev/ttyA""#) }, "\(run.stdout)")
        let events = lines.filter { $0.contains(#""event":"otherReceiver""#) }
        #expect(events.count == 1 && events.first?.hasSuffix(#","device":"/dev/ttyB","following":"/dev/ttyA"}"#) == true,
                "\(run.stdout)")
        let track = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(track.components(separatedBy: "<trkpt").count == 4)
        #expect(!track.contains("38.1"))
        // Without --json the event is a line that says what to do.
        let plain = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:\(server.port)", "--count", "3", "--timeout", "20"],
                                                   home: home)
        #expect(plain.status == 0, "\(plain.stderr)")
        let notice = "gpsd at 127.0.0.1:\(server.port) has another receiver, /dev/ttyB: following /dev/ttyA, the first with a position "
            + "(--device chooses; 'geotrack devices' lists them)"
        #expect((plain.stdout + plain.stderr).components(separatedBy: notice).count == 2, "\(plain.stdout)\(plain.stderr)")
        #expect(!plain.stdout.contains("38.1"))
        // --quiet, as a service runs: its journal shows it too, once, among the changes of state.
        let quiet = try await TestSupport.geotrack(["watch", "--gpsd", "127.0.0.1:\(server.port)", "--count", "3", "--timeout", "20",
                                                    "--quiet"], home: home)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.components(separatedBy: notice).count == 2, "\(quiet.stderr)")
    }
}

/// Where state changes go when stdout carries data.
@Suite("watch --json: data on stdout, state changes on stderr")
struct StateChangesOnStderrTests {
    @Test("with gpsd down, stdout stays empty and stderr says so once, not once per retry")
    func gpsdDown() async throws {
        let home = try TestSupport.temporaryDirectory()
        _ = try await TestSupport.geotrack(["auth", "grant"], home: home)
        let port = try GeoTrackTesting.GPSFake.freePort()
        // Attempts at 0, 1 and 3 s (the backoff doubles) before the 3.5 s timeout.
        let run = try await TestSupport.geotrack(["watch", "--json", "--gpsd", "127.0.0.1:\(port)", "--once", "--timeout", "3.5"], home: home)
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("gpsd unreachable") }.count == 1, "\(run.stderr)")
        #expect(lines.last?.contains("no fix within 3.5 s: gpsd was unreachable") == true, "\(run.stderr)")
    }
}

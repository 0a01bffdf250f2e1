import Foundation
import GPSReports
import GeoTrackTesting
import LocationKit
import Testing
@testable import GeoTrackCLI

/// `geotrack serve`: the page in a real browser (Debian's chromium, headless, driven by
/// Browser/headless.py over the DevTools pipe), against a real replay and a real mosquitto.
@Suite("geotrack serve")
struct ServeTests {
    static let logs = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs")
    static let helper = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Browser/headless.py").path
    static let badGateway = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Browser/bad-gateway.py").path
    static let mqttBurst = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Browser/mqtt-burst.py").path
    static let cafe = "regions:\n  cafe:\n    latitude: 46.20752\n    longitude: 6.14623\n    radius: 120\n"

    /// A `geotrack serve` started in `directory` (so that the page names the log as given), on a
    /// free loopback port, with the URL it serves read from its stderr.
    /// Handed between a test and the thread that starts or stops it, never used by two at once.
    final class Server: @unchecked Sendable {
        let process: ChildProcess
        let url: String

        /// serve with `arguments`, run in `directory`; `feed`, a shell command, writes its
        /// standard input (for `--replay -`) through a FIFO, so that serve itself is the process
        /// the test signals, and the feed, in its process group, ends with it.
        init(_ arguments: [String], in directory: URL, home: URL, feed: String? = nil) throws {
            let quoted = ([TestSupport.binary, "serve", "--listen", "127.0.0.1:0"] + arguments)
                .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let command = feed.map { "mkfifo input.fifo && { ( \($0) ) > input.fifo & } && exec \(quoted) < input.fifo" }
                ?? "exec \(quoted)"
            process = try ChildProcess("/bin/sh", ["-c", "cd '\(directory.path)' && \(command)"],
                                       environment: ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                     "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                                     "HOME": home.path])
            let deadline = Date().addingTimeInterval(60)
            var found: String?
            while found == nil, Date() < deadline, process.wait(timeout: 0.05) == nil {
                found = process.stderr.split(separator: "\n").lazy.compactMap { line -> String? in
                    guard let range = line.range(of: "serving http://") else { return nil }
                    return String(line[range.lowerBound...].dropFirst("serving ".count).prefix { $0 != " " })
                }.first
            }
            guard let found else {
                throw HarnessError("geotrack serve printed no URL on stderr within 60 s: \(process.stderr)")
            }
            url = found
        }

        /// Sends SIGINT and waits for the end; returns the exit status (nil: it did not end).
        func stop() -> Int32? {
            process.signal(SIGINT)
            return process.wait(timeout: 20)
        }
    }

    /// Runs `body`, which blocks (a child process, a browser), on a thread of its own: never on
    /// the cooperative pool, whose two threads every other suite needs meanwhile.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.start()
        }
    }

    /// A harness object handed to the thread that uses it, and kept alive by the test meanwhile.
    final class Held<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// What headless.py printed: the value of `read` once `until` held, and whether it held.
    /// With `responses`, headless.py writes there every HTTP answer the tab got (``answers(_:)`` reads it).
    static func browse(_ url: String, until: String, read: String, screenshot: String? = nil,
                       phone: String? = nil, hiddenTabs: (count: Int, ready: String)? = nil,
                       responses: String? = nil) async throws -> (held: Bool, value: Any?) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            Issue.record("chromium is missing: run make deps")
            return (false, nil)
        }
        var arguments = [helper, url, "--until", until, "--read", read, "--deadline", "90"]
        if let screenshot { arguments += ["--screenshot", screenshot] }
        if let phone { arguments += ["--phone", phone] }
        if let hiddenTabs { arguments += ["--hidden-tabs", String(hiddenTabs.count), "--hidden-ready", hiddenTabs.ready] }
        if let responses { arguments += ["--responses", responses] }
        let command = arguments
        let run = try await TestSupport.run("/usr/bin/python3", command)
        #expect(run.status == 0 || run.status == 1, "headless.py: \(run.stderr)")
        let value = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8), options: [.fragmentsAllowed])
        return (run.status == 0, value)
    }

    /// The HTTP answers headless.py's `--responses` wrote: URL and status, in order.
    static func answers(_ path: String) throws -> [(url: String, status: Int)] {
        let list = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]] ?? []
        return list.map { ($0["url"] as? String ?? "", ($0["status"] as? NSNumber)?.intValue ?? -1) }
    }

    /// Whether the serve on `port` has `count` event streams open, by its `/stats`, within 60 s.
    /// Blocks: call it off the pool.
    static func waitForStreams(port: Int, count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let socket = Loopback.connect(port: port, receiveTimeout: 10) {
                defer { close(socket) }
                let request = Array("GET /stats HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
                _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                var answer = [UInt8](), buffer = [UInt8](repeating: 0, count: 4096)
                while case let read = recv(socket, &buffer, buffer.count, 0), read > 0 { answer += buffer[0..<read] }
                if String(decoding: answer, as: UTF8.self).contains("\"clients\":\(count),") { return true }
            }
            usleep(50_000)
        }
        return false
    }

    /// The points the SVG of the same replay draws: the vertices of its track polylines, a
    /// vertex shared where one colour's run hands over to the next counted once.
    static func svgPoints(_ svg: String) -> Int {
        let runs = svg.components(separatedBy: "<polyline class=\"track\" points=\"").dropFirst().map {
            $0.prefix { $0 != "\"" }.split(separator: " ").map(String.init)
        }
        let vertices = runs.reduce(0) { $0 + $1.count }
        let shared = zip(runs, runs.dropFirst()).filter { $0.last == $1.first }.count
        return vertices - shared
    }

    @Test("serve --replay in chromium: #fix ends at the last fix, #track has the SVG's points, a region event is listed; the README's screenshot")
    func replayInBrowser() async throws {
        let home = try TestSupport.temporaryDirectory()
        let config = home.appendingPathComponent("regions.yaml")
        try Self.cafe.write(to: config, atomically: true, encoding: .utf8)
        let log = Self.logs.appendingPathComponent("loop.nmea").path

        // The oracles: the replay's last fix (gpsd's TPV) and the SVG of the same replay.
        let json = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let last = try #require(json.stdout.split(separator: "\n").last { $0.contains("\"lat\"") })
        let tpv = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let latitude = try #require(tpv["lat"] as? Double), longitude = try #require(tpv["lon"] as? Double)
        let svgPath = home.appendingPathComponent("loop.svg").path
        let drawn = try await TestSupport.geotrack(["replay", log, "--config", config.path, "--svg", svgPath], home: home)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let points = Self.svgPoints(try String(contentsOfFile: svgPath, encoding: .utf8))
        #expect(points > 100)

        let server = try await Self.offPool { try Server(["--replay", "loop.nmea", "--tiles", "none", "--config", config.path], in: Self.logs, home: home) }
        let screenshot = TestSupport.packageRoot.appendingPathComponent("docs/images/serve.png").path
        let (held, value) = try await Self.browse(
            server.url,
            until: """
            document.getElementById("fix").dataset.lat !== "" && document.getElementById("track").dataset.points === "\(points)" \
            && [...document.querySelectorAll("#events li")].some(e => e.textContent.includes("entered region cafe"))
            """,
            read: """
            ({lat: document.getElementById("fix").dataset.lat, lon: document.getElementById("fix").dataset.lon,
              points: document.getElementById("track").dataset.points, status: document.getElementById("status").textContent,
              events: [...document.querySelectorAll("#events li")].map(e => e.textContent)})
            """,
            screenshot: screenshot)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed the replay's end: \(page)")
        #expect(abs((Double(page["lat"] as? String ?? "") ?? 0) - latitude) < 1e-6, "\(page)")
        #expect(abs((Double(page["lon"] as? String ?? "") ?? 0) - longitude) < 1e-6, "\(page)")
        #expect(page["points"] as? String == String(points))
        #expect((page["events"] as? [String] ?? []).contains { $0.hasSuffix("entered region cafe") }, "\(page)")
        #expect(page["status"] as? String == "end of loop.nmea")

        // The screenshot the README shows: a PNG at the window's size.
        let image = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(image.count > 24 && image[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1280)

        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        #expect(server.process.stderr.contains("served 1 event stream; 0 events skipped and 0 clients dropped"), "\(server.process.stderr)")
    }

    @Test("serve --replay in chromium: a passage across the 180th meridian is drawn as the same passage 10° west, not across the world")
    func antimeridianInBrowser() async throws {
        let home = try TestSupport.temporaryDirectory()
        var drawn: [Double: [String: Any]] = [:]
        for meridian in [180.0, 170.0] {
            let name = "passage\(Int(meridian)).nmea"
            try SyntheticLog.writeNMEA(Fix.passage(across: meridian), to: home.appendingPathComponent(name).path)
            let server = try await Self.offPool { try Server(["--replay", name, "--tiles", "none"], in: home, home: home) }
            // The whole passage replayed, then the line's width on the page and the map's scale.
            let (held, value) = try await Self.browse(
                server.url,
                until: #"document.getElementById("status").textContent.startsWith("end of") && document.querySelector(".leaflet-overlay-pane path") !== null && document.querySelector(".fix-marker") !== null"#,
                read: """
                (() => {
                  const line = document.querySelector(".leaflet-overlay-pane path").getBoundingClientRect();
                  const marker = document.querySelector(".fix-marker").getBoundingClientRect();
                  return {width: Math.round(line.width), scale: document.querySelector(".leaflet-control-scale-line").textContent,
                          points: document.getElementById("track").dataset.points,
                          markerFromEnd: Math.round(Math.abs(marker.left + marker.width / 2 - line.right))};
                })()
                """)
            #expect(held, "the page never showed the replay's end: \(String(describing: value))")
            drawn[meridian] = value as? [String: Any] ?? [:]
            #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        }
        let across = drawn[180] ?? [:], beside = drawn[170] ?? [:]
        #expect(across["points"] as? String == beside["points"] as? String)
        #expect(across["scale"] as? String == beside["scale"] as? String, "\(across) against \(beside)")
        let acrossWidth = across["width"] as? Double ?? 0, besideWidth = beside["width"] as? Double ?? -10
        #expect(abs(acrossWidth - besideWidth) <= 2 && besideWidth > 100, "\(across) against \(beside)")
        // The marker at the passage's east end, on the same copy of the world as the line.
        for page in [across, beside] {
            #expect((page["markerFromEnd"] as? Double ?? .infinity) <= 12, "\(page)")
        }
    }

    @Test("serve --replay in chromium: a boat's heading (a gyro's HDT) and its course over ground are two rows, each its own value")
    func headingAndCourseInBrowser() async throws {
        let home = try TestSupport.temporaryDirectory()
        let name = "gyro.nmea"
        try SyntheticLog.writeNMEA(cycles: 12, to: home.appendingPathComponent("moving.nmea").path)
        // The same passage (course 90°) with a gyro saying 45° after every cycle: leeway and current.
        let lines = try String(contentsOf: home.appendingPathComponent("moving.nmea"), encoding: .utf8).split(separator: "\n")
        let withGyro = lines.flatMap { $0.hasPrefix("$GPGGA") ? [String($0), SyntheticLog.sentence("HEHDT,45.0,T")] : [String($0)] }
        try (withGyro.joined(separator: "\n") + "\n").write(to: home.appendingPathComponent(name), atomically: true, encoding: .utf8)
        let server = try await Self.offPool { try Server(["--replay", name, "--tiles", "none"], in: home, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: #"document.getElementById("status").textContent === "end of \#(name)""#,
            read: """
            ({course: document.getElementById("fix-course").textContent, heading: document.getElementById("fix-heading").textContent})
            """)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the replay never ended on the page: \(page) \(server.process.stderr)")
        #expect(page["course"] as? String == "90° E", "\(page)")
        #expect(page["heading"] as? String == "45° NE", "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve --replay in chromium: the satellite table, the sky plot and the DOPs are the replay's last SKY")
    func skyInBrowser() async throws {
        let home = try TestSupport.temporaryDirectory()
        let name = "quectelLC79D.nmea"
        // The oracle: the last SKY object `replay --json --sky` prints for the same log.
        let json = try await TestSupport.geotrack(["replay", Self.logs.appendingPathComponent(name).path, "--json", "--sky"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let last = try #require(json.stdout.split(separator: "\n").last { $0.contains(#""class":"SKY""#) })
        let sky = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let satellites = try #require(sky["satellites"] as? [[String: Any]])
        #expect(satellites.count > 10)
        // Each satellite as the table shows it: PRN, elevation, azimuth, signal, used; nil for "–".
        func cell(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
        let expected = satellites.map { [cell($0["PRN"]), cell($0["el"]), cell($0["az"]), cell($0["ss"]),
                                         ($0["used"] as? Bool ?? false) ? 1 : 0] }
        // The plot shows a satellite with a position (Satellite.skyPosition, as the terminal's plot).
        let plotted = satellites.filter {
            Satellite(prn: 1, elevation: cell($0["el"]), azimuth: cell($0["az"])).skyPosition != nil
        }

        let server = try await Self.offPool { try Server(["--replay", name, "--tiles", "none"], in: Self.logs, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: """
            document.getElementById("status").textContent === "end of \(name)" \
            && document.querySelectorAll("#satellites tbody tr").length === \(satellites.count)
            """,
            read: """
            ({rows: [...document.querySelectorAll("#satellites tbody tr")].map(r => [...r.cells].map(c => c.textContent)),
              dots: [...document.querySelectorAll("#sky circle[r='6']")].map(c => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]),
              used: document.querySelectorAll("#sky circle[r='6'][fill='#2e9e44']").length,
              labels: [...document.querySelectorAll("#sky text")].map(t => t.textContent).filter(t => t !== "N"),
              dop: document.getElementById("dop").textContent})
            """)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed the replay's last sky: \(page) \(server.process.stderr)")
        let rows = (page["rows"] as? [[String]] ?? []).map { row in
            row.enumerated().map { index, text -> Double? in index == 4 ? (text == "yes" ? 1 : 0) : Double(text) }
        }
        #expect(rows == expected, "\(page)")
        // Each plotted satellite where the sky plot puts it: the zenith in the middle, the horizon
        // 100 units out, north up and east to the right.
        let dots = page["dots"] as? [[Double]] ?? []
        #expect(dots.count == plotted.count, "\(page)")
        for (dot, satellite) in zip(dots, plotted) {
            let radius = 100 * (90 - (cell(satellite["el"]) ?? 0)) / 90, azimuth = (cell(satellite["az"]) ?? 0) * .pi / 180
            #expect(abs(dot[0] - radius * sin(azimuth)) <= 0.051 && abs(dot[1] + radius * cos(azimuth)) <= 0.051, "\(dot) \(satellite)")
        }
        #expect(page["used"] as? Int == plotted.filter { $0["used"] as? Bool == true }.count)
        #expect(page["labels"] as? [String] == plotted.map { "\(cell($0["PRN"]).map(Int.init) ?? -1)" })
        let dops = (page["dop"] as? String ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(dops == [cell(sky["hdop"]), cell(sky["pdop"])].compactMap { $0 }, "\(page)")
        #expect(dops.count == 2, "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve in chromium: no fix for 10 s greys the marker and says the fix's age, the next fix makes it current, a replay's end does not; the page asks for nothing serve lacks (no /favicon.ico 404)")
    func staleFix() async throws {
        let home = try TestSupport.temporaryDirectory()
        // Three fixes, then none for 15 s, then two more (a cycle's first has none). The test
        // gives them to serve on standard input itself, the first once the page is open (a
        // browser slow to start on a loaded machine would otherwise miss a gap played from the
        // start), and the silence is the receiver's: 15 s of it, longer than the page's 10 s.
        func lines(_ seconds: [Int]) -> String {
            seconds.flatMap { second -> [String] in
                let time = String(format: "0900%02d.00", second)
                let longitude = String(format: "006%07.4f", 9 + Double(second) * 0.001)
                return [SyntheticLog.sentence("GPRMC,\(time),A,4612.0004,N,\(longitude),E,2.5,90.0,120925,,,A"),
                        SyntheticLog.sentence("GPGGA,\(time),4612.0004,N,\(longitude),E,1,09,0.8,380.0,M,47.9,M,,")]
            }.joined(separator: "\n") + "\n"
        }
        try lines([0, 1, 2]).write(to: home.appendingPathComponent("before.nmea"), atomically: true, encoding: .utf8)
        try lines([20, 21]).write(to: home.appendingPathComponent("after.nmea"), atomically: true, encoding: .utf8)
        let ready = home.appendingPathComponent("page-open").path
        // The wait for the page is bounded, so that a test that failed leaves no loop behind.
        let feed = "i=0; while [ ! -e page-open ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done; "
            + "cat before.nmea; sleep 15; cat after.nmea"
        let server = try await Self.offPool {
            try Server(["--replay", "-", "--tiles", "none"], in: home, home: home, feed: feed)
        }
        let port = try #require(URLComponents(string: server.url)?.port)
        let opened = Task {
            let open = try await Self.offPool { Self.waitForStreams(port: port, count: 1) }
            return open && FileManager.default.createFile(atPath: ready, contents: nil)
        }
        let answers = home.appendingPathComponent("responses.json").path
        // Each change of the fix's state, as the page shows it then: sampled every 200 ms, and
        // the stale spell lasts 28 s.
        let (held, value) = try await Self.browse(
            server.url,
            until: """
            (() => { const fix = document.getElementById("fix"), note = document.getElementById("fix-age");
              const marker = document.querySelector("path.fix-marker");
              const seen = window.geotrackSeen || (window.geotrackSeen = []);
              const state = fix.dataset.lat === "" ? "none" : fix.dataset.stale === "true" ? "stale" : "current";
              if (!seen.length || seen[seen.length - 1].state !== state)
                seen.push({state: state, note: note.hidden ? null : note.textContent, fill: marker ? marker.getAttribute("fill") : null});
              return seen.map((s) => s.state).join(" ").includes("stale current"); })()
            """,
            read: #"({seen: window.geotrackSeen, icon: document.querySelector("link[rel~=icon]")?.getAttribute("href")})"#,
            responses: answers)
        #expect(try await opened.value, "the page opened no event stream")
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed the fix stale, then current again: \(page) \(server.process.stderr)")
        let seen = page["seen"] as? [[String: Any]] ?? []
        let stale = try #require(seen.first { $0["state"] as? String == "stale" }, "\(page)")
        let current = try #require(seen.last { $0["state"] as? String == "current" }, "\(page)")
        // "last fix N s ago", N at least the 10 s the page waits for a fix.
        let note = stale["note"] as? String ?? ""
        let age = Int(note.dropFirst("last fix ".count).prefix { $0.isNumber }) ?? -1
        #expect(note.hasPrefix("last fix ") && note.hasSuffix(" s ago") && age >= 10, "\(stale)")
        #expect(stale["fill"] as? String == "#9e9e9e", "the stale marker is not grey: \(stale)")
        #expect(current["note"] is NSNull && current["fill"] as? String == "#1f6feb", "\(current)")

        // Every request the browser made on its own (the page's icon too) found what it asked for.
        #expect((page["icon"] as? String ?? "").hasPrefix("data:image/svg+xml,"), "\(page)")
        let got = try Self.answers(answers)
        #expect(got.contains { $0.url == server.url && $0.status == 200 }, "\(got)")
        #expect(got.allSatisfy { $0.status < 400 }, "\(got)")
        #expect(!got.contains { $0.url.hasSuffix("/favicon.ico") }, "\(got)")

        // Past the replay's end no fix is due: a page open for longer than 10 s after it still
        // shows the last fix as it was.
        let (ended, after) = try await Self.browse(
            server.url,
            until: #"document.getElementById("status").textContent === "end of standard input" && performance.now() > 12000"#,
            read: """
            ({lat: document.getElementById("fix").dataset.lat, stale: document.getElementById("fix").dataset.stale,
              note: document.getElementById("fix-age").hidden, fill: document.querySelector("path.fix-marker")?.getAttribute("fill")})
            """)
        let last = after as? [String: Any] ?? [:]
        #expect(ended, "the page never showed the replay's end: \(last) \(server.process.stderr)")
        #expect(last["lat"] as? String != "" && last["stale"] as? String == "false" && last["note"] as? Bool == true
                && last["fill"] as? String == "#1f6feb", "\(last)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve in chromium: satellites with elevation and azimuth 0 (a GSV's empty fields) are listed, but not plotted at north, as on the terminal's plot")
    func satellitesWithoutPosition() async throws {
        let home = try TestSupport.temporaryDirectory()
        // PRN 5 and 23 have a position; 12's fields are empty and 17's are 00,000: gpsd reads
        // both as elevation 0, azimuth 0.
        let log = home.appendingPathComponent("nopos.nmea")
        var lines: [String] = []
        for second in 0..<4 {
            let time = String(format: "0900%02d.00", second)
            lines.append(SyntheticLog.sentence("GPRMC,\(time),A,4612.0004,N,00609.0000,E,0.0,90.0,120925,,,A"))
            lines.append(SyntheticLog.sentence("GPGGA,\(time),4612.0004,N,00609.0000,E,1,04,0.8,380.0,M,47.9,M,,"))
            lines.append(SyntheticLog.sentence("GPGSA,A,3,05,12,17,23,,,,,,,,,1.5,0.8,1.2"))
            lines.append(SyntheticLog.sentence("GPGSV,1,1,04,05,45,120,40,12,,,35,17,00,000,30,23,10,300,28"))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        // The oracle: the SKY the replay reports (gpsd's), and the satellites the terminal plots.
        let json = try await TestSupport.geotrack(["replay", log.path, "--json", "--sky"], home: home)
        let last = try #require(json.stdout.split(separator: "\n").last { $0.contains(#""class":"SKY""#) }, "\(json.stdout)")
        let sky = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let satellites = try #require(sky["satellites"] as? [[String: Any]])
        #expect(satellites.map { ($0["PRN"] as? NSNumber)?.intValue ?? -1 } == [5, 12, 17, 23], "\(satellites)")
        #expect(satellites.filter { ($0["el"] as? NSNumber)?.doubleValue == 0 && ($0["az"] as? NSNumber)?.doubleValue == 0 }.count == 2,
                "\(satellites)")
        let plotted = satellites.compactMap { satellite -> Int? in
            let value = Satellite(prn: (satellite["PRN"] as? NSNumber)?.intValue ?? 0, elevation: (satellite["el"] as? NSNumber)?.doubleValue,
                                  azimuth: (satellite["az"] as? NSNumber)?.doubleValue)
            return SkyPlot.cell(of: value, top: 0, left: 0, rows: 10) == nil ? nil : value.prn
        }
        #expect(plotted == [5, 23])

        let server = try await Self.offPool { try Server(["--replay", "nopos.nmea", "--tiles", "none"], in: home, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: ##"document.getElementById("status").textContent === "end of nopos.nmea" && document.querySelectorAll("#satellites tbody tr").length === 4"##,
            read: """
            ({rows: [...document.querySelectorAll("#satellites tbody tr")].map(r => r.cells[0].textContent),
              dots: [...document.querySelectorAll("#sky circle[r='6']")].map(c => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]),
              labels: [...document.querySelectorAll("#sky text")].map(t => t.textContent).filter(t => t !== "N")})
            """)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed the log's sky: \(page) \(server.process.stderr)")
        #expect(page["rows"] as? [String] == ["5", "12", "17", "23"], "every satellite is listed: \(page)")
        #expect(page["labels"] as? [String] == plotted.map(String.init), "only those the terminal plots are plotted: \(page)")
        // Nothing on the horizon at north, where 0° and 0° would put a satellite.
        let dots = page["dots"] as? [[Double]] ?? []
        #expect(dots.count == 2 && !dots.contains { abs($0[0]) < 0.1 && abs($0[1] + 100) < 0.1 }, "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve on a phone (390x844): the sky plot and satellite table fit the width, the map's scale is on screen, nothing scrolls sideways")
    func phone() async throws {
        let home = try TestSupport.temporaryDirectory()
        // The log's whole path: a status longer than a phone is wide, whose header takes two lines.
        let log = Self.logs.appendingPathComponent("quectelLC79D.nmea").path
        let server = try await Self.offPool { try Server(["--replay", log, "--tiles", "none"], in: Self.logs, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: """
            document.getElementById("status").textContent === "end of \(log)" \
            && document.querySelectorAll("#satellites tbody tr").length > 10 && document.querySelector(".leaflet-control-scale") !== null
            """,
            read: """
            (() => { const box = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; };
              return {width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
                      aside: box("aside"), sky: box("#sky"), table: box("#satellites"), map: box("#map"), scale: box(".leaflet-control-scale")}; })()
            """,
            phone: "390x844")
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed the replay's end: \(page) \(server.process.stderr)")
        let width = try #require(page["width"] as? Double, "\(page)"), height = try #require(page["height"] as? Double, "\(page)")
        // A page wider than the phone makes the phone zoom out, and its viewport grows past 390.
        #expect(width == 390, "the page is wider than the phone: \(page)")
        #expect((page["scrollWidth"] as? Double ?? .infinity) <= width, "the page scrolls sideways: \(page)")
        let aside = page["aside"] as? [Double] ?? []
        // Whole on screen, and not cut off by the panel that holds them (it clips what overflows).
        for key in ["sky", "table"] {
            let box = page[key] as? [Double] ?? []
            #expect(box.count == 4 && aside.count == 4 && box[0] >= max(0, aside[0]) && box[1] <= min(width, aside[1]),
                    "\(key) does not fit across the phone: \(page)")
        }
        // The map is not a sliver beside the panel, and its scale bar can be seen without scrolling.
        let map = page["map"] as? [Double] ?? [], scale = page["scale"] as? [Double] ?? []
        #expect(map.count == 4 && map[1] - map[0] >= width / 2, "the map is squeezed: \(page)")
        #expect(scale.count == 4 && scale[3] <= min(height, map.count == 4 ? map[3] : 0), "the map's scale is off screen: \(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("the page in the tab in view gets the run with six hidden tabs of it open in the same browser")
    func manyTabs() async throws {
        let home = try TestSupport.temporaryDirectory()
        let server = try await Self.offPool { try Server(["--replay", "loop.nmea", "--tiles", "none"], in: Self.logs, home: home) }
        // A browser opens at most six connections to one host over HTTP/1.1: with a stream per
        // tab, six tabs of the page left a seventh nothing, not even the page itself. Each hidden
        // tab is ready once loaded and either showing the run or saying it waits.
        let ready = """
            document.readyState === "complete" \
            && (document.getElementById("status").textContent !== "connecting…" || document.getElementById("link").textContent !== "")
            """
        let (held, value) = try await Self.browse(
            server.url, until: #"document.getElementById("status")?.textContent === "end of loop.nmea""#,
            read: #"({visibility: document.visibilityState, status: document.getElementById("status")?.textContent})"#,
            hiddenTabs: (6, ready))
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the tab in view never got the run: \(page) \(server.process.stderr)")
        #expect(page["visibility"] as? String == "visible", "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("a page open while serve restarts, answered 502 meanwhile (a reverse proxy's), connects to the new serve by itself")
    func reconnectsAfterRefusal() async throws {
        let home = try TestSupport.temporaryDirectory()
        let first = try await Self.offPool { try Server(["--replay", "loop.nmea", "--tiles", "none"], in: Self.logs, home: home) }
        let port = try #require(Int(first.url.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(first.url)")
        let url = first.url
        // One page, open from the first serve to the second: done once it shows the second's replay.
        async let browsed = Self.browse(
            url, until: #"document.getElementById("status").textContent === "end of walk.nmea" && document.getElementById("link").textContent === """#,
            read: #"({status: document.getElementById("status").textContent, link: document.getElementById("link").textContent})"#)
        #expect(try await Self.offPool { Self.waitForStreams(port: port, count: 1) }, "the page never opened its stream")
        #expect(try await Self.offPool { first.stop() } == 0, "\(first.process.stderr)")

        // While serve is down, a reverse proxy in front of it answers 502; none is installed
        // here, so Browser/bad-gateway.py plays one. A browser's EventSource gives up for good on
        // an answer that is not a stream (serve's own 503 when full or stopping is another).
        let proxy = try ChildProcess("/usr/bin/python3", [Self.badGateway, String(port)])
        let held = Held(proxy)
        let refused = try await Self.offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, held.value.wait(timeout: 0.05) == nil {
                if held.value.stdout.contains("/events") { return true }
            }
            return false
        }
        #expect(refused, "the page never asked the stand-in proxy for its stream: \(proxy.stdout) \(proxy.stderr)")
        proxy.signal(SIGTERM)
        _ = try await Self.offPool { held.value.wait(timeout: 20) }

        let second = try await Self.offPool {
            try Server(["--replay", "walk.nmea", "--tiles", "none", "--listen", "127.0.0.1:\(port)"], in: Self.logs, home: home)
        }
        let (shown, value) = try await browsed
        #expect(shown, "the page stayed on the first serve: \(String(describing: value)) \(second.process.stderr)")
        #expect(try await Self.offPool { second.stop() } == 0, "\(second.process.stderr)")
    }

    @Test("a page open while serve restarts shows the new run alone: the old fix, its marker, DOPs and fleet go")
    func restartClearsOldRun() async throws {
        let home = try TestSupport.temporaryDirectory()
        #expect(try await TestSupport.geotrack(["auth", "grant"], home: home).status == 0)
        let broker = try await Mosquitto()
        let mosquitto = Held(broker)
        try await Self.offPool {
            try mosquitto.value.publish(topic: "owntracks/alice/phone", message: #"{"_type":"location","lat":50.04,"lon":19.98,"tst":1700000000}"#,
                                        retain: true)
        }
        let brokerPort = broker.port
        // First a replay with a fix, a sky and a fleet...
        let first = try await Self.offPool {
            try Server(["--replay", "quectelLC79D.nmea", "--tiles", "none", "--fleet", "mqtt://127.0.0.1:\(brokerPort)"], in: Self.logs, home: home)
        }
        let port = try #require(Int(first.url.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(first.url)")
        // ...then, on the same port, a serve of a gpsd that is not there: no fix, no sky, no fleet.
        let nowhere = try GPSFake.freePort()
        async let browsed = Self.browse(
            first.url,
            until: """
            (window.firstRun = window.firstRun || (document.getElementById("status").textContent === "end of quectelLC79D.nmea" \
              && document.getElementById("dop").textContent !== "" && document.querySelectorAll("#devices li").length === 1)) \
            && document.getElementById("status").textContent.includes("gpsd unreachable")
            """,
            read: """
            ({firstRun: window.firstRun === true, lat: document.getElementById("fix").dataset.lat,
              fix: [...document.querySelectorAll("#fix dd")].map(d => d.textContent), dop: document.getElementById("dop").textContent,
              rows: document.querySelectorAll("#satellites tbody tr").length, fleetHidden: document.getElementById("fleet").hidden,
              devices: document.querySelectorAll("#devices li").length,
              shapes: [...document.querySelectorAll("#map path")].filter(p => (p.getAttribute("d") || "M0 0") !== "M0 0").length})
            """)
        #expect(try await Self.offPool { Self.waitForStreams(port: port, count: 1) }, "the page never opened its stream")
        #expect(try await Self.offPool { first.stop() } == 0, "\(first.process.stderr)")
        let second = try await Self.offPool {
            try Server(["--gpsd", "127.0.0.1:\(nowhere)", "--tiles", "none", "--listen", "127.0.0.1:\(port)"], in: home, home: home)
        }
        let (held, value) = try await browsed
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the page never showed both runs: \(page) \(second.process.stderr)")
        #expect(page["firstRun"] as? Bool == true, "\(page)")
        #expect(page["lat"] as? String == "", "the first run's fix is still on the page: \(page)")
        #expect(page["fix"] as? [String] == Array(repeating: "–", count: 8), "the first run's fix is still on the page: \(page)")
        // Leaflet keeps the empty track's path, drawn as "M0 0": what counts is a shape drawn.
        #expect(page["shapes"] as? Int == 0, "the first run's marker, circle or track is still on the map: \(page)")
        #expect(page["dop"] as? String == "" && page["rows"] as? Int == 0, "the first run's sky is still on the page: \(page)")
        #expect(page["fleetHidden"] as? Bool == true && page["devices"] as? Int == 0, "the first run's fleet is still on the page: \(page)")
        #expect(try await Self.offPool { second.stop() } == 0, "\(second.process.stderr)")
    }

    @Test("serve --fleet: a burst of 3000 devices on a real mosquitto reaches the page in a few fleet events, not one per message")
    func fleetBurst() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let brokerPort = broker.port
        let server = try await Self.offPool {
            try Server(["--replay", "loop.nmea", "--tiles", "none", "--fleet", "mqtt://127.0.0.1:\(brokerPort)"], in: Self.logs, home: home)
        }
        let port = try #require(Int(server.url.split(separator: ":").last?.prefix { $0.isNumber } ?? ""), "\(server.url)")
        // A browser's stream, open before the burst: every fleet event sent, counted.
        let stream = try #require(Loopback.connect(port: port, receiveTimeout: 10))
        defer { close(stream) }
        let request = Array("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(stream, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(try await Self.offPool { Self.waitForStreams(port: port, count: 1) }, "the stream never opened")
        // 3000 devices' locations in one burst, as many retained ones arrive at a subscription
        // (mosquitto_pub would take a process each: Browser/mqtt-burst.py speaks MQTT 3.1.1).
        let publish = try await TestSupport.run("/usr/bin/python3", [Self.mqttBurst, String(brokerPort), "3000"])
        #expect(publish.status == 0, "\(publish.stderr)")
        // Until the last device is in a fleet event; mosquitto keeps one publisher's order, so
        // that event holds all 3000.
        let (complete, events) = try await Self.offPool { () -> (Bool, Int) in
            var line = [UInt8](), events = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline {
                let count = recv(stream, &buffer, buffer.count, 0)
                if count == 0 { break }
                for byte in buffer[0..<max(0, count)] {
                    guard byte == UInt8(ascii: "\n") else { line.append(byte); continue }
                    if line.elementsEqual("event: fleet".utf8) { events += 1 }
                    if line.starts(with: "data: ".utf8), String(decoding: line, as: UTF8.self).contains("burst/d2999") { return (true, events) }
                    line.removeAll(keepingCapacity: true)
                }
            }
            return (false, events)
        }
        #expect(complete, "the 3000th device never reached the stream (\(events) fleet events)")
        // Each fleet event carries the whole roster: one per message would send 3000 rosters of
        // up to 3000 devices (half a gigabyte) to every browser.
        #expect(events <= 100, "\(events) fleet events for one burst")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve --fleet: a device named <img src=x onerror=alert(1)> on a real mosquitto shows as text, and no element comes of it")
    func hostileDeviceName() async throws {
        let broker = try await Mosquitto()
        let home = try TestSupport.temporaryDirectory()
        let hostile = "<img src=x onerror=alert(1)>"
        let port = broker.port
        let mosquitto = Held(broker)
        try await Self.offPool {
            try mosquitto.value.publish(topic: "owntracks/mallory/\(hostile)",
                                   message: #"{"_type":"location","lat":46.2,"lon":6.15,"tst":1700000000,"acc":12,"inregions":["<b>home</b>","\u001b[2Jx"]}"#,
                                   retain: true)
        }
        let server = try await Self.offPool {
            try Server(["--replay", "loop.nmea", "--tiles", "none", "--fleet", "mqtt://127.0.0.1:\(port)"], in: Self.logs, home: home)
        }
        let (held, value) = try await Self.browse(
            server.url,
            until: ##"document.querySelectorAll("#devices li").length === 1"##,
            read: """
            ({name: document.querySelector("#devices li .name")?.textContent, text: document.querySelector("#devices li")?.textContent,
              elements: document.querySelectorAll("#devices li *").length, images: document.querySelectorAll("img").length,
              bold: document.querySelectorAll("#devices b").length})
            """)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "the device never appeared: \(page) \(server.process.stderr)")
        #expect(page["name"] as? String == "mallory/" + hostile)
        let text = page["text"] as? String ?? ""
        #expect(text.contains("<b>home</b>"), "\(page)")
        // A control character is shown as the terminal shows it, never passed to the page raw.
        #expect(text.contains(#"\u{1b}[2Jx"#) && !text.contains("\u{1b}"), "\(page)")
        // The item holds only the name's <strong>: nothing was parsed from what the broker sent.
        #expect(page["elements"] as? Int == 1)
        #expect(page["images"] as? Int == 0)
        #expect(page["bold"] as? Int == 0)
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("serve's bad values are one-line errors (64; 66 and 65 for a replay that is missing or no log) before any serving line; all interfaces are warned about, the URL printed opens; SIGTERM ends it")
    func usage() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = Self.logs.appendingPathComponent("loop.nmea").path
        for (arguments, expected) in [
            (["--listen", "nowhere"], "--listen takes HOST:PORT"),
            (["--listen", "127.0.0.1:70000"], "--listen takes HOST:PORT"),
            (["--tiles", "ftp://tiles.example/{z}/{x}/{y}.png"], "--tiles takes none or a tile URL"),
            (["--tiles", "https://tiles.example/{z}/{x}.png"], "it has no {y}"),
            (["--tiles", "https://tiles.example/{z}/{x}/{y}.png;script-src"], "semicolon"),
            (["--tiles", "https://kärtchen.example/{z}/{x}/{y}.png"], "it is not ASCII"),
            (["--gpsd", "localhost:2947", "--replay", log], "--gpsd and --replay cannot be used together"),
            (["--speed", "2"], "give --replay FILE too"),
            (["--realtime"], "give --replay FILE too"),
            (["--fleet", "https://example.invalid/"], "the fleet is read from an MQTT broker"),
        ] {
            let run = try await TestSupport.geotrack(["serve"] + arguments, home: home)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
        let missing = try await TestSupport.geotrack(["serve", "--replay", home.appendingPathComponent("none.nmea").path, "--listen", "127.0.0.1:0",
                                                "--tiles", "none"], home: home)
        #expect(missing.status == 66, "\(missing.stderr)")
        // Found before anything is served: the error is all it prints.
        #expect(missing.stderr == "geotrack: cannot replay \(home.appendingPathComponent("none.nmea").path): no such file. Check the path.\n")
        // A file that is no log is found as early: never a "serving" line, then the error.
        let junk = home.appendingPathComponent("notes.txt")
        try String(repeating: "shopping list: bread, milk\n", count: 2000).write(to: junk, atomically: true, encoding: .utf8)
        let notALog = try await TestSupport.geotrack(["serve", "--replay", junk.path, "--listen", "127.0.0.1:0", "--tiles", "none"], home: home)
        #expect(notALog.status == 65, "\(notALog.stderr)")
        #expect(notALog.stderr == "geotrack: \(junk.path) holds no NMEA sentence or GPX track point gpsd would read; give an NMEA log or a GPX track\n")

        // Every interface: the address printed is one a browser opens (loopback), and the
        // warning says that it listens on all of them.
        for (wildcard, loopback) in [("0.0.0.0", "127.0.0.1"), ("[::]", "[::1]")] {
            let open = try await Self.offPool {
                try Server(["--replay", "loop.nmea", "--realtime", "--speed", "50", "--tiles", "none", "--listen", "\(wildcard):0"],
                           in: Self.logs, home: home)
            }
            let host = wildcard.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            #expect(open.process.stderr.contains("warning: listening on all interfaces (\(host)), not loopback"), "\(open.process.stderr)")
            #expect(open.url.hasPrefix("http://\(loopback):"), "\(open.process.stderr)")
            #expect(open.process.stderr.contains("on every interface"), "\(open.process.stderr)")
            let fetch = try await TestSupport.run("/usr/bin/python3", ["-c", "from sys import argv\nfrom urllib.request import urlopen\nprint(urlopen(argv[1]).status)", open.url])
            #expect(fetch.stdout == "200\n", "\(open.url): \(fetch.stderr)")
            open.process.signal(SIGTERM)
            #expect(await open.process.status(within: 20) == 0, "\(open.process.stderr)")
        }
    }

    @Test("serve --gpsd: a real gpsd (gpsfake) moves #fix, once access is granted; without it, exit 79 as watch")
    func liveFromGPSD() async throws {
        let home = try TestSupport.temporaryDirectory()
        let fake = try await GPSFake(log: Self.logs.appendingPathComponent("loop.nmea").path, once: false)
        let gpsd = fake.port
        let undecided = try await TestSupport.geotrack(["serve", "--gpsd", "127.0.0.1:\(gpsd)", "--listen", "127.0.0.1:0"], home: home)
        #expect(undecided.status == 79, "\(undecided.stderr)")
        #expect(try await TestSupport.geotrack(["auth", "grant"], home: home).status == 0)
        let server = try await Self.offPool { try Server(["--gpsd", "127.0.0.1:\(gpsd)", "--tiles", "none"], in: home, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: #"Number(document.getElementById("track").dataset.points) >= 3 && document.getElementById("fix").dataset.lat !== """#,
            read: #"({lat: document.getElementById("fix").dataset.lat, status: document.getElementById("status").textContent})"#)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "no fix from gpsd reached the page: \(page) \(server.process.stderr)")
        // loop.nmea goes round Geneva.
        #expect(abs((Double(page["lat"] as? String ?? "") ?? 0) - 46.2) < 0.05, "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        withExtendedLifetime(fake) {}
    }

    @Test("serve --gpsd: a `geotrack auth deny` mid-run says so on the page, and no later fix reaches it")
    func denialMidRun() async throws {
        let home = try TestSupport.temporaryDirectory()
        let fake = try await GPSFake(log: Self.logs.appendingPathComponent("loop.nmea").path, once: false)
        let gpsd = fake.port
        #expect(try await TestSupport.geotrack(["auth", "grant"], home: home).status == 0)
        let server = try await Self.offPool { try Server(["--gpsd", "127.0.0.1:\(gpsd)", "--tiles", "none"], in: home, home: home) }
        let moving = try await Self.browse(server.url, until: #"Number(document.getElementById("track").dataset.points) >= 2"#,
                                           read: #"document.getElementById("track").dataset.points"#)
        #expect(moving.held, "no fix from gpsd reached the page: \(String(describing: moving.value)) \(server.process.stderr)")

        let deny = try await TestSupport.geotrack(["auth", "deny"], home: home)
        #expect(deny.status == 0, "\(deny.stderr)")
        let read = #"({status: document.getElementById("status").textContent, points: document.getElementById("track").dataset.points, lat: document.getElementById("fix").dataset.lat})"#
        let denied = try await Self.browse(server.url, until: #"document.getElementById("status").textContent.includes("location access denied")"#,
                                           read: read)
        #expect(denied.held, "the page never said access was denied: \(String(describing: denied.value)) \(server.process.stderr)")
        let before = denied.value as? [String: Any] ?? [:]

        // gpsd goes on sending fixes (gpsfake loops the log): let another client see three more.
        let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", "127.0.0.1:\(gpsd)"])
        let three = try await Self.offPool { () throws -> Bool in
            let pipe = try ChildProcess(gpspipe.executable, gpspipe.arguments)
            defer { pipe.signal(SIGTERM) }
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, pipe.wait(timeout: 0.05) == nil {
                let fixes = pipe.stdout.split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"TPV\"") && $0.contains("\"lat\"") }
                if fixes.count >= 3 { return true }
            }
            return false
        }
        #expect(three, "gpspipe saw no three fixes from gpsd")
        // A new page, from the server's snapshot once it has arrived.
        let after = try await Self.browse(server.url, until: #"document.getElementById("status").textContent !== "connecting…""#, read: read)
        let page = after.value as? [String: Any] ?? [:]
        #expect(after.held, "\(page) \(server.process.stderr)")
        #expect(page["points"] as? String == before["points"] as? String, "points reached the page after the denial: \(before) → \(page)")
        #expect(page["lat"] as? String == before["lat"] as? String, "\(before) → \(page)")
        #expect((page["status"] as? String ?? "").contains("location access denied"), "\(page)")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        withExtendedLifetime(fake) {}
    }

    @Test("serve --gpsd under approximate access: the page's position is on the grid, with no altitude, speed, course or heading")
    func approximateFromGPSD() async throws {
        let home = try TestSupport.temporaryDirectory()
        let fake = try await GPSFake(log: Self.logs.appendingPathComponent("loop.nmea").path, once: false)
        let gpsd = fake.port
        let grant = try await TestSupport.geotrack(["auth", "grant", "--approximate"], home: home)
        #expect(grant.status == 0, "\(grant.stderr)")
        let server = try await Self.offPool { try Server(["--gpsd", "127.0.0.1:\(gpsd)", "--tiles", "none"], in: home, home: home) }
        let (held, value) = try await Self.browse(
            server.url,
            until: #"Number(document.getElementById("track").dataset.points) >= 1 && document.getElementById("fix").dataset.lat !== """#,
            read: """
            ({lat: document.getElementById("fix").dataset.lat, lon: document.getElementById("fix").dataset.lon,
              altitude: document.getElementById("fix-altitude").textContent, speed: document.getElementById("fix-speed").textContent,
              heading: document.getElementById("fix-heading").textContent, course: document.getElementById("fix-course").textContent})
            """)
        let page = value as? [String: Any] ?? [:]
        #expect(held, "no fix from gpsd reached the page: \(page) \(server.process.stderr)")
        let latitude = try #require(Double(page["lat"] as? String ?? ""), "\(page)")
        let longitude = try #require(Double(page["lon"] as? String ?? ""), "\(page)")
        #expect(ApproximateLocation.isOnGrid(latitude) && ApproximateLocation.isOnGrid(longitude), "\(page)")
        #expect(abs(latitude - 46.2) < 0.1, "\(page)")
        for key in ["altitude", "speed", "heading", "course"] { #expect(page[key] as? String == "–", "\(key): \(page)") }
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        withExtendedLifetime(fake) {}
    }

    @Test("the page's headers: the default tiles' host is the only outside origin in the policy; a taken port exits 69")
    func headersAndPort() async throws {
        let home = try TestSupport.temporaryDirectory()
        let server = try await Self.offPool { try Server(["--replay", "loop.nmea"], in: Self.logs, home: home) }
        let url = server.url
        let fetch = try await TestSupport.run("/usr/bin/python3", ["-c", """
            from sys import argv
            from urllib.request import urlopen
            r = urlopen(argv[1] + "app.js")
            print(r.headers["Content-Security-Policy"]); print(r.headers["Content-Type"])
            """, url])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(fetch.stdout.contains("img-src 'self' data: https://tile.openstreetmap.org;"), "\(fetch.stdout)")
        #expect(fetch.stdout.contains("script-src 'self';") && fetch.stdout.contains("default-src 'none'"), "\(fetch.stdout)")
        #expect(fetch.stdout.contains("text/javascript"), "\(fetch.stdout)")
        let taken = try await TestSupport.geotrack(["serve", "--replay", Self.logs.appendingPathComponent("loop.nmea").path,
                                              "--listen", String(server.url.dropFirst("http://".count).dropLast())], home: home)
        #expect(taken.status == 69, "\(taken.stderr)")
        #expect(taken.stderr == "geotrack: cannot listen on \(server.url.dropFirst("http://".count).dropLast()): address already in use; choose another --listen address\n")
        let nowhere = try await TestSupport.geotrack(["serve", "--replay", Self.logs.appendingPathComponent("loop.nmea").path,
                                                "--listen", "no-such-host.invalid:8080"], home: home)
        #expect(nowhere.status == 69, "\(nowhere.stderr)")
        #expect(nowhere.stderr == "geotrack: cannot listen on no-such-host.invalid:8080: no such host; choose another --listen address\n")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
    }

    @Test("a request naming another site as Host (DNS rebinding) gets 403 and no position, on every path; addresses, localhost, this machine's name and --allow-host are answered")
    func foreignHostsAreRefused() async throws {
        let home = try TestSupport.temporaryDirectory()
        let server = try await Self.offPool {
            try Server(["--replay", "loop.nmea", "--allow-host", "GPS.example.org"], in: Self.logs, home: home)
        }
        let port = String(server.url.dropFirst("http://127.0.0.1:".count).dropLast())
        // Each Host header given, asked for each path: the status, and whether a position came.
        let ask = try await TestSupport.run("/usr/bin/python3", ["-c", """
            from http.client import HTTPConnection
            from sys import argv
            port = int(argv[1])
            for host in argv[2:]:
                for path in ["/", "/events", "/stats", "/app.js"]:
                    c = HTTPConnection("127.0.0.1", port, timeout=10)
                    c.putrequest("GET", path, skip_host=True)
                    c.putheader("Host", host)
                    c.endheaders()
                    r = c.getresponse()
                    body = r.read(4096) if path != "/events" or r.status != 200 else r.fp.read1(4096)
                    print(host, path, r.status, b'"lat"' in body)
                    c.close()
            """, port, "evil.example:\(port)", "evil.example", "127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)",
            "gps.example.org.", ServeHosts.machineNames().first ?? "localhost", "127.0.0.1:\(port)@evil.example"])
        #expect(ask.status == 0, "\(ask.stderr)")
        let lines = ask.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 32, "\(ask.stdout)")
        for line in lines {
            let refused = line.hasPrefix("evil.example") || line.contains("@evil.example")
            let status = line.split(separator: " ")[2]
            #expect(status == (refused ? "403" : "200"), "\(line)")
            if refused { #expect(line.hasSuffix("False"), "\(line)") }
            if line.contains(" /events ") && !refused { #expect(line.hasSuffix("True"), "the stream's snapshot carries the fix: \(line)") }
        }
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")
        let bad = try await TestSupport.geotrack(["serve", "--replay", Self.logs.appendingPathComponent("loop.nmea").path,
                                                  "--allow-host", "evil.example/x"], home: home)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--allow-host takes a host name"), "\(bad.stderr)")
    }

    @Test("serve --fleet: a broker that refuses the login ends serve with 77, saying what to check; --publish-password-file logs in as for fleet")
    func refusedLogin() async throws {
        let broker = try await Mosquitto(users: ["alice": "right"])
        let home = try TestSupport.temporaryDirectory()
        let log = Self.logs.appendingPathComponent("loop.nmea").path
        let run = try await TestSupport.geotrack(["serve", "--replay", log, "--listen", "127.0.0.1:0",
                                            "--tiles", "none", "--fleet", "mqtt://alice@127.0.0.1:\(broker.port)"],
                                          home: home, environment: ["GEOTRACK_PUBLISH_PASSWORD": "wrong"])
        #expect(run.status == 77, "\(run.stderr)")
        #expect(run.stderr.contains("refused the login") && run.stderr.contains("--publish-password-file or GEOTRACK_PUBLISH_PASSWORD"),
                "\(run.stderr)")

        // The right password from a file: the broker lets serve in, and its devices reach the page.
        let passwordFile = home.appendingPathComponent("password").path
        try "right\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let mosquitto = Held(broker)
        try await Self.offPool {
            try mosquitto.value.publish(topic: "owntracks/alice/phone", message: #"{"_type":"location","lat":46.2,"lon":6.15,"tst":1700000000}"#,
                                        retain: true, user: ("alice", "right"))
        }
        let port = broker.port
        let server = try await Self.offPool {
            try Server(["--replay", "loop.nmea", "--tiles", "none", "--fleet", "mqtt://alice@127.0.0.1:\(port)",
                        "--publish-password-file", passwordFile], in: Self.logs, home: home)
        }
        let (held, value) = try await Self.browse(server.url, until: ##"document.querySelectorAll("#devices li").length === 1"##,
                                                  read: ##"document.querySelector("#devices li .name")?.textContent"##)
        #expect(held, "the device never appeared: \(String(describing: value)) \(server.process.stderr)")
        #expect(value as? String == "alice/phone")
        #expect(try await Self.offPool { server.stop() } == 0, "\(server.process.stderr)")

        // The broker's options without a broker are a usage error.
        let alone = try await TestSupport.geotrack(["serve", "--replay", log, "--publish-password-file", passwordFile], home: home)
        #expect(alone.status == 64, "\(alone.stderr)")
        #expect(alone.stderr.contains("give --fleet URL too"), "\(alone.stderr)")
    }
}

import Foundation
import GeoTrackTesting
@testable import GPSD
import GPSReports
import Logging
import Testing

/// `GPSDClient` against a scripted peer that breaks every rule a real gpsd keeps. Each test
/// ends when the client delivers the script's last, valid fix (the marker) or an expected
/// state, and has a time limit in case it hangs instead.
@Suite(.timeLimit(.minutes(5)))
struct HostileGPSDTests {
    static let version = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
    static let devices = #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyX","driver":"NMEA0183","activated":"2024-05-01T10:00:00.000Z"}]}"#
    /// The last line of a script: once it arrives, everything before it has been handled.
    static let marker = tpv(#""time":"2024-05-01T10:00:59.000Z","lat":51.5,"lon":-0.25"#)

    static func tpv(_ fields: String) -> String {
        #"{"class":"TPV","device":"/dev/ttyX","mode":3,"# + fields + "}"
    }

    let logger = Logger(label: "HostileGPSDTests")

    private func client(_ server: HostileGPSD, clock: any Clock<Duration> = ContinuousClock(),
                        connectTimeout: Duration = .seconds(10)) -> GPSDClient {
        GPSDClient(configuration: GPSDConfiguration(host: "127.0.0.1", port: server.port, connectTimeout: connectTimeout,
                                                    initialBackoff: .seconds(1), maximumBackoff: .seconds(8)),
                   clock: clock, logger: logger)
    }

    /// Every report the client delivers for `chunks`, up to and including the marker fix.
    private func reports(for chunks: [HostileGPSD.Chunk]) async throws -> [Report] {
        let server = try HostileGPSD(.send([.line(Self.version), .line(Self.devices)] + chunks + [.line(Self.marker)],
                                           closeAfter: false))
        defer { server.stop() }
        var reports: [Report] = []
        for await event in client(server).events() {
            guard case .report(let report) = event else { continue }
            reports.append(report)
            if case .fix(let fix) = report, fix.latitude == 51.5, fix.longitude == -0.25 { break }
        }
        return reports
    }

    private static func fixes(_ reports: [Report]) -> [Fix] {
        reports.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }

    @Test("a flood of reports waits in the socket, not in memory: the client reads no further ahead than its buffer, and every fix arrives, in order")
    func floodIsHeldBack() async throws {
        let count = 20_000
        let server = try HostileGPSD(.send([.line(Self.version), .line(Self.devices), .lines(count: count) { index in
            let time = "2024-05-01T%02d:%02d:%02d.000Z"
            return Self.tpv(#""time":"\#(String(format: time, index / 3600, index / 60 % 60, index % 60))","lat":\#(51 + Double(index) / 100_000),"lon":-0.1"#)
        }], closeAfter: false))
        defer { server.stop() }
        let events = client(server).events()
        let channel = events.consumer.channel
        // Nothing is consumed yet: the session reads until its buffer is full, then stops
        // reading (a client without the bound reads all of it). A wait for either condition,
        // never for a time.
        while !channel.isHoldingBackProducer, channel.pendingCount < count {
            try await Task.sleep(for: .milliseconds(1))
        }
        // The last report read, and the state change it may bring, can go past the capacity.
        #expect(channel.pendingCount <= GPSDEventChannel.defaultCapacity + 2)
        var received: [Int] = []
        for await event in events {
            guard case .report(.fix(let fix)) = event, let latitude = fix.latitude else { continue }
            received.append(Int(((latitude - 51) * 100_000).rounded()))
            if received.count == count { break }
        }
        #expect(received == Array(0..<count))
    }

    @Test("lines that are not strict JSON are dropped whole: no 0 from 0x33, no NaN, no Infinity, no half a message")
    func malformedLinesAreDropped() async throws {
        let reports = try await reports(for: [
            .line("this is not gpsd"),
            .line(#"{"class":"TPV","device":"/dev/ttyX","mode":3,"lat":"#),
            .line(Self.tpv(#""time":"2024-05-01T10:00:01.000Z","lat":0x33,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:02.000Z","lat":NaN,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:03.000Z","lat":51.1,"lon":Infinity"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:04.000Z","lat":012,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:05.000Z","lat":51.2,"lon":-0.1}{"class":"TPV""#)),
            .bytes(Array(Self.tpv(#""time":"2024-05-01T10:00:06.000Z","lat":51.3,"lon":-0.1"#).utf8) + [0x00, 0x0D, 0x0A]),
            .line(Self.tpv(#""time":"2024-05-01T10:00:07.000Z","lat":51.4,"lon":-0.1"#)),
        ])
        let positions = Self.fixes(reports).compactMap(\.coordinate).map { [$0.latitude, $0.longitude] }
        // Only the valid fix and the marker: every other line had a syntax error somewhere.
        #expect(positions == [[51.4, -0.1], [51.5, -0.25]])
    }

    @Test("a time libgps cannot read, or a position off the globe, drops the report; no position is believed without a valid time")
    func impossibleValuesDropTheReport() async throws {
        let reports = try await reports(for: [
            .line(Self.tpv(#""time":"not-a-time","lat":51.1,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"1970-01-01T00:00:00.000Z","lat":51.1,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:01.000Z","lat":95.0,"lon":-0.1"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:02.000Z","lat":51.1,"lon":-200.0"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:03.000Z","lat":1e999,"lon":-0.1"#)),
            .line(#"{"class":"SKY","device":"/dev/ttyX","time":"not-a-time","hdop":1.0,"satellites":[]}"#),
        ])
        let fixes = Self.fixes(reports)
        // 1e999 is valid JSON but no number: that fix arrives without a position.
        #expect(fixes.count == 2)
        #expect(fixes.compactMap(\.coordinate).map(\.latitude) == [51.5])
        #expect(fixes.allSatisfy { ($0.time?.timeIntervalSince1970 ?? 0) > 315_964_800 })
        #expect(!reports.contains { if case .sky = $0 { true } else { false } })
    }

    @Test("a single impossible field is left out and the rest of the report kept")
    func impossibleFieldsAreLeftOut() async throws {
        let reports = try await reports(for: [
            .line(Self.tpv(#""time":"2024-05-01T10:00:01.000Z","lat":51.1,"lon":-0.1,"eph":-4.0,"track":400.0,"speed":-3.0,"epv":7.5"#)),
            .line(#"{"class":"SKY","device":"/dev/ttyX","time":"2024-05-01T10:00:01.000Z","hdop":-1.0,"pdop":1.8,"satellites":[{"PRN":5,"el":120.0,"az":500.0,"ss":-5.0,"used":true},{"PRN":7,"el":40.0,"az":100.0,"ss":30.0,"used":false}]}"#),
        ])
        let fix = try #require(Self.fixes(reports).first)
        #expect(fix.latitude == 51.1)
        #expect(fix.eph == nil && fix.track == nil && fix.speed == nil)
        #expect(fix.epv == 7.5)
        let sky = try #require(reports.compactMap { if case .sky(let sky) = $0 { sky } else { nil } }.first)
        #expect(sky.hdop == nil && sky.pdop == 1.8)
        #expect(sky.satellites.map(\.prn) == [5, 7])
        #expect(sky.satellites[0].elevation == nil && sky.satellites[0].azimuth == nil && sky.satellites[0].signalStrength == nil)
        #expect(sky.satellites[1].elevation == 40 && sky.satellites[1].azimuth == 100 && sky.satellites[1].signalStrength == 30)
    }

    @Test("a satellite's health comes through as gpsd gives it (1 ok, 2 unhealthy), and its absence as unknown; SKY JSON prints it back")
    func satelliteHealth() async throws {
        let sky = #"{"class":"SKY","device":"/dev/ttyX","satellites":[{"PRN":5,"el":40.0,"az":100.0,"ss":30.0,"used":true,"gnssid":0,"svid":5,"health":1},{"PRN":302,"el":10.0,"az":200.0,"ss":20.0,"used":false,"gnssid":2,"svid":2,"health":2},{"PRN":7,"used":false,"gnssid":0,"svid":7}]}"#
        let reports = try await reports(for: [.line(sky)])
        let decoded = try #require(reports.compactMap { if case .sky(let sky) = $0 { sky } else { nil } }.first)
        #expect(decoded.satellites.map(\.health) == [.healthy, .unhealthy, nil])
        #expect(decoded.satellites.map(\.constellation) == [.gps, .galileo, .gps])
        let json = decoded.skyJSON()
        #expect(json.contains(#""svid":5,"health":1}"#) && json.contains(#""svid":2,"health":2}"#))
        #expect(json.contains(#""svid":7}"#))
    }

    @Test("lines on which libgps 3.22's parser loops forever are refused before libgps sees them")
    func libgpsEndlessLoop() async throws {
        // Found by scripts/fuzz-nmea.sh: these keep gps_unpack() busy forever, and the reader
        // thread with it; so does any DEVICES list libgps fails to parse. On 3.25 and 3.27 they
        // are refused the same (make test-gpsd-versions runs this suite against each).
        let reports = try await reports(for: [
            .line(#"{"class":"DEVICES","devmagtrackices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#),
            .line(#"{"classh":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM1","bps":"x"}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"TPV"}]}"#),
            // The same with gps_unpack(), which GeoTrack calls: any entry libgps fails to read.
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":1}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","cycle":"x"}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","parity":"NN"}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","x":[1]}]}"#),
            .line(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/"# + String(repeating: "x", count: 200) + #""}]}"#),
            .line(#"{"class":"DEVICES","devices":["# + Array(repeating: #"{"class":"DEVICE","path":"/dev/ttyACM9"}"#, count: 33).joined(separator: ",") + "]}"),
            .line(Self.tpv(#""time":"2024-05-01T10:00:01.000Z","lat":51.1,"lon":-0.1,"x":[{"class":"DEVICE"}]"#)),
            .line(Self.tpv(#""time":"2024-05-01T10:00:07.000Z","lat":51.4,"lon":-0.1"#)),
        ])
        #expect(Self.fixes(reports).compactMap(\.coordinate).map(\.latitude) == [51.4, 51.5])
        #expect(!reports.contains { if case .devices = $0 { false } else if case .deviceAdded = $0 { true } else { false } })
    }

    @Test("a 10 MB line is skipped in a fixed buffer, and the lines after it still arrive")
    func tenMegabyteLine() async throws {
        let reports = try await reports(for: [
            .bytes(Array(#"{"class":"TPV","device":"/dev/ttyX","mode":3,"lat":1.0,"junk":""#.utf8)),
            .repeated(UInt8(ascii: "x"), count: 10_000_000),
            .line(#""}"#),
            .line(Self.tpv(#""time":"2024-05-01T10:00:07.000Z","lat":51.4,"lon":-0.1"#)),
        ])
        #expect(Self.fixes(reports).compactMap(\.coordinate).map(\.latitude) == [51.4, 51.5])
    }

    @Test("terminal escapes: raw control characters make a line invalid; escaped ones arrive as data, for the CLI to make safe")
    func terminalEscapes() async throws {
        let escaped = #"{"class":"DEVICE","path":"/dev/tty\u001b[2J\u001b]0;pwned\u0007","driver":"x\u001b[31m","activated":"2024-05-01T10:00:00.000Z"}"#
        let raw = Array(#"{"class":"DEVICE","path":"/dev/ttyRAW"#.utf8) + [0x1B] + Array(#"[2J","activated":"2024-05-01T10:00:00.000Z"}"#.utf8)
        let reports = try await reports(for: [.line(escaped), .bytes(raw + [0x0D, 0x0A])])
        let added = reports.compactMap { if case .deviceAdded(let device) = $0 { device } else { nil } }
        #expect(added.map(\.path) == ["/dev/tty\u{1B}[2J\u{1B}]0;pwned\u{07}"])
        #expect(added.first?.driver == "x\u{1B}[31m")
    }

    /// The session's states up to its first retry; when `trigger` holds for a state (the first
    /// time), waits for `sleepers` sleepers on the manual clock and moves it on by `advance`.
    private func statesUntilRetry(_ server: HostileGPSD, connectTimeout: Duration, sleepers: Int,
                                  advance: Duration, when trigger: (SourceState) -> Bool) async -> [SourceState] {
        let clock = ManualClock()
        var states: [SourceState] = []
        var advanced = false
        for await event in client(server, clock: clock, connectTimeout: connectTimeout).events() {
            guard case .state(let state) = event else { continue }
            states.append(state)
            if !advanced, trigger(state) {
                advanced = true
                await clock.sleepers(atLeast: sleepers)
                clock.advance(by: advance)
            }
            if case .retrying = state { break }
        }
        return states
    }

    @Test("accept-then-silence: the handshake deadline gives up on the peer, and the client backs off and retries")
    func acceptThenSilence() async throws {
        let server = try HostileGPSD(.acceptThenSilence)
        defer { server.stop() }
        // The watchdog and the handshake deadline both sleep on the clock once connected.
        let states = await statesUntilRetry(server, connectTimeout: .seconds(10), sleepers: 2, advance: .seconds(10)) {
            $0 == .connected
        }
        let failure = states.compactMap { if case .disconnected(let error) = $0 { error } else { nil } }.first
        #expect(failure?.code == .timedOut)
        #expect(failure?.message.contains("no answer from gpsd at 127.0.0.1:\(server.port) within 10 s") == true)
        #expect(states.last == .retrying(after: .seconds(1)))
    }

    /// What `devices(timeout: 2 s)` against `server` gives once the manual clock passes the timeout.
    private func devicesAfterTimeout(from server: HostileGPSD) async -> Result<[Device], SourceError> {
        let clock = ManualClock()
        let client = client(server, clock: clock)
        async let result: Result<[Device], SourceError> = { () async -> Result<[Device], SourceError> in
            do throws(SourceError) { return .success(try await client.devices(timeout: .seconds(2))) } catch { return .failure(error) }
        }()
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(2))
        return await result
    }

    @Test("accept-then-silence: devices(timeout:) fails with timedOut when the timeout passes")
    func devicesFromSilentPeer() async throws {
        let server = try HostileGPSD(.acceptThenSilence)
        defer { server.stop() }
        guard case .failure(let error) = await devicesAfterTimeout(from: server) else {
            Issue.record("a silent peer listed devices")
            return
        }
        #expect(error.code == .timedOut)
    }

    @Test("a connect that never completes: devices(timeout:) returns when its timeout passes, not minutes later")
    func connectThatNeverCompletes() async throws {
        let server = try HostileGPSD(.neverComplete)
        defer { server.stop() }
        guard case .failure(let error) = await devicesAfterTimeout(from: server) else {
            Issue.record("a peer that never accepted listed devices")
            return
        }
        #expect(error.code == .timedOut)
        #expect(error.message.contains("no answer from gpsd at 127.0.0.1:\(server.port) within 2 s"))
        #expect(server.accepted == 0)
    }

    @Test("a connect that never completes: the session gives up at its connect timeout and retries")
    func sessionConnectTimeout() async throws {
        let server = try HostileGPSD(.neverComplete)
        defer { server.stop() }
        let states = await statesUntilRetry(server, connectTimeout: .seconds(3), sleepers: 1, advance: .seconds(3)) {
            $0 == .connecting
        }
        #expect(states.first == .connecting)
        #expect(!states.contains(.connected))
        let failure = states.compactMap { if case .disconnected(let error) = $0 { error } else { nil } }.first
        #expect(failure?.code == .timedOut)
    }
}

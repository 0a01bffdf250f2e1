import Foundation
import GeoTrackTesting
import GPSD
import GPSReports
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `GPSDClient` against a real gpsd, started by gpsfake on a free loopback port.
/// Serialized: several gpsfake instances at once overload a small CI machine.
@Suite(.serialized)
struct GPSDClientTests {
    let logger = Logger(label: "GPSDTests")

    private func client(port: Int, clock: any Clock<Duration> = ContinuousClock(),
                        staleAfter: Duration = .seconds(30),
                        initialBackoff: Duration = .milliseconds(100),
                        maximumBackoff: Duration = .milliseconds(400)) -> GPSDClient {
        GPSDClient(configuration: GPSDConfiguration(host: "127.0.0.1", port: port, staleAfter: staleAfter,
                                                    initialBackoff: initialBackoff, maximumBackoff: maximumBackoff),
                   clock: clock, logger: logger)
    }

    @Test("the first fix has the position and time gpsd decodes from the log")
    func firstFixMatchesGpsdecode() async throws {
        let log = try TestLog.path("garmin15x")
        let expected = try ReferenceTPV.gpsdecode(log).filter { $0.latitude != nil }
        try #require(expected.count >= 3)
        let fake = try await GPSFake(log: log)
        let recorder = EventRecorder(client(port: fake.port).events())
        defer { recorder.stop() }

        func decoded(_ fix: Fix) -> ReferenceTPV? {
            expected.first { abs(($0.time?.timeIntervalSince1970 ?? 0) - (fix.time?.timeIntervalSince1970 ?? 0)) < 0.0005 }
        }
        // gpsdecode reports the log's cycles from its second (11:32:59 UTC) on; gpsd, which the
        // harness lets read the log from its first sentence (11:32:58), may report that one too.
        let events = try await recorder.wait("a fix with a position gpsdecode decodes too") {
            $0.fixes.contains { $0.hasPosition && decoded($0) != nil }
        }
        let first = try #require(events.fixes.first { $0.hasPosition })
        let time = try #require(first.time)
        let matched = try #require(events.fixes.first { $0.hasPosition && decoded($0) != nil })
        let coordinate = try #require(matched.coordinate)
        let reference = try #require(decoded(matched))
        #expect(abs(coordinate.latitude - (reference.latitude ?? .nan)) < 1e-8)
        #expect(abs(coordinate.longitude - (reference.longitude ?? .nan)) < 1e-8)
        if first != matched {
            // Then it is the first cycle, at its RMC's time and position (3238.9148 N 10822.4466 W).
            #expect(time == Date(timeIntervalSince1970: 1_666_092_778), "\(first) is neither the log's first cycle nor one gpsdecode decodes")
            #expect(abs((first.coordinate?.latitude ?? .nan) - 32.648580) < 1e-6)
            #expect(abs((first.coordinate?.longitude ?? .nan) - -108.374110) < 1e-6)
        }
        // The log's first sentence is at 2022-10-18 11:32:58 UTC; gpsd may skip a cycle or two while it opens the device.
        #expect(time >= Date(timeIntervalSince1970: 1_666_092_778) && time <= Date(timeIntervalSince1970: 1_666_092_784))
        #expect(first.device?.hasPrefix("/dev/") == true)
        #expect(first.mode >= .twoD)

        let states = events.states
        #expect(Array(states.prefix(2)) == [.connecting, .connected])
        #expect(states.contains(.receiverPresent))
        // gpsd's greeting names its release, as `gpsd -V` does, and the protocol's major number:
        // 3 from gpsd 3.0 to 3.26, 16 from 3.27 (gpsd made it its libgps API's).
        let release = try Self.gpsdRelease()
        let version = events.lazy.compactMap { if case .report(.version(let v)) = $0 { v } else { nil } }.first
        #expect(version?.release == release, "\(String(describing: version)) is not gpsd \(release)'s")
        #expect((version?.protocolMajor ?? 0) >= 3)
        try await fake.stop()
    }

    /// A `gpspipe -w` on `fake`'s gpsd, writing to a file of its own, once it watches: it
    /// connects first, so it sees at least every message a client started after it sees.
    static func gpspipe(_ fake: GPSFake) async throws -> (ChildProcess, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("gpspipe-\(UUID().uuidString).jsonl").path
        let command = GPSDInstallation.current.command("gpspipe", ["-w", "-o", output, "127.0.0.1:\(fake.port)"])
        let gpspipe = try ChildProcess(path: command.executable, arguments: command.arguments)
        let watching = await waitUntil(timeout: .seconds(20)) {
            (try? String(contentsOfFile: output, encoding: .utf8))?.contains("\"class\":\"WATCH\"") == true
        }
        try #require(watching, "gpspipe did not start watching")
        return (gpspipe, output)
    }

    @Test("every gpsd TPV message becomes exactly one fix, as gpspipe sees them")
    func oneFixPerMessage() async throws {
        let log = try TestLog.path("garmin15x")
        let fake = try await GPSFake(log: log)
        let (gpspipe, output) = try await Self.gpspipe(fake)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let recorder = EventRecorder(client(port: fake.port).events())
        defer { recorder.stop() }
        // When the log ends gpsd reports the device gone; nothing follows.
        let events = try await recorder.wait("the end of the log") {
            $0.contains { if case .report(.deviceRemoved) = $0 { true } else { false } }
        }
        try await fake.stop()
        #expect(await gpspipe.waitForExit(timeout: .seconds(10)))

        let reference = try ReferenceTPV.parse(String(contentsOfFile: output, encoding: .utf8))
        let ours = events.fixes.map(ReferenceTPV.init)
        #expect(ours.filter { $0.latitude != nil }.count >= 3)
        #expect(ours.count <= reference.count)
        let tail = reference.suffix(ours.count)
        let same = zip(ours, tail).allSatisfy { $0.matches($1) }
        #expect(same, "client fixes \(ours) are not the last \(ours.count) of gpspipe's \(Array(reference))")
    }

    @Test("a receiver's GSTs reach the client as gpspipe sees them, and print back as gpsd sent them")
    func errorStatistics() async throws {
        let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/nmea-corpus/ublox-neo-m9n-nmea.nmea").path
        let fake = try await GPSFake(log: log)
        let (gpspipe, output) = try await Self.gpspipe(fake)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let recorder = EventRecorder(client(port: fake.port).events())
        defer { recorder.stop() }
        func noise(_ events: [SourceEvent]) -> [String] {
            events.compactMap { event -> String? in
                if case .report(.noise(let noise)) = event { noise.gstJSON() } else { nil }
            }
        }
        let events = try await recorder.wait("ten GSTs") { noise($0).count >= 10 }
        try await fake.stop()
        #expect(await gpspipe.waitForExit(timeout: .seconds(10)))
        let theirs = try String(contentsOfFile: output, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.contains("\"class\":\"GST\"") }.map(String.init)
        let ours = noise(events)
        // Ours are a run of gpspipe's, each line the same text.
        let runs = theirs.indices.filter { start in
            start + ours.count <= theirs.count && Array(theirs[start..<(start + ours.count)]) == ours
        }
        #expect(!runs.isEmpty, "ours: \(ours)\ngpspipe's: \(theirs)")
    }

    @Test("a boat's heading sensor reaches the client through gpsd: ATT with the HDT's heading, whichever gpsd (3.22 writes it broken)")
    func headingSensor() async throws {
        // The NMEA decoder's marine log: a gyro's HDT of 90° among a boat's other talkers.
        let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("NMEATests/Logs/marine-mix.nmea").path
        let fake = try await GPSFake(log: log)
        let recorder = EventRecorder(client(port: fake.port).events())
        defer { recorder.stop() }
        let events = try await recorder.wait("an attitude report") {
            $0.contains { if case .report(.attitude) = $0 { true } else { false } }
        }
        try await fake.stop()
        let headings = events.compactMap { event -> Attitude? in
            if case .report(.attitude(let attitude)) = event { attitude } else { nil }
        }
        #expect(headings.first?.heading == 90, "\(headings)")
        #expect(headings.first?.device != nil)
    }

    @Test("after gpsd is killed and started again on the same port, fixes flow again within 10 s")
    func reconnectsAfterGpsdRestart() async throws {
        let first = try TestLog.path("garmin15x")
        let second = try TestLog.path("garmin48")
        var fake = try await GPSFake(log: first)
        let port = fake.port
        let recorder = EventRecorder(client(port: port).events())
        defer { recorder.stop() }
        try await recorder.wait("two fixes from the first gpsd") { $0.fixes.filter(\.hasPosition).count >= 2 }

        try await fake.stop(signal: SIGKILL)
        let beforeRestart = try await recorder.wait("the disconnection and a retry") { events in
            events.states.contains { if case .disconnected = $0 { true } else { false } }
                && events.states.contains { if case .retrying = $0 { true } else { false } }
        }
        let disconnectIndex = try #require(beforeRestart.firstIndex {
            if case .state(.disconnected) = $0 { true } else { false }
        })
        if case .state(.disconnected(let error)) = beforeRestart[disconnectIndex] {
            #expect(error.code == .connectionClosed)
        }

        // The clock starts once the new gpsd serves its receiver: how long gpsfake takes to start
        // it is the harness's time, not the client's (it took 7 s once, on a loaded machine).
        let starting = ContinuousClock.now
        fake = try await GPSFake(log: second, port: port)
        let restart = ContinuousClock.now
        // The ceiling only guards against a client that never comes back: twice the longest
        // backoff (30 s), so a loaded machine cannot fail it while a client that stopped retrying does.
        let events = try await recorder.wait("a fix from the restarted gpsd", timeout: .seconds(60)) { events in
            events[disconnectIndex...].fixes.contains { $0.hasPosition }
        }
        let elapsed = ContinuousClock.now - restart
        print("reconnect: first fix \(elapsed) after gpsd was serving again (gpsfake took \(restart - starting) to start it)")

        // Everything after the disconnection comes from the new gpsd (New Zealand, not New Mexico):
        // no fix of the first connection is delivered again, none is presented as current.
        let oldArea = try #require(Coordinate(latitude: 32.65, longitude: -108.37))
        let newArea = try #require(Coordinate(latitude: -45.46, longitude: 167.15))
        let after = Array(events[disconnectIndex...])
        for fix in after.fixes {
            if let coordinate = fix.coordinate {
                #expect(coordinate.distance(to: newArea) < 50_000)
                #expect(coordinate.distance(to: oldArea) > 1_000_000)
            }
        }
        // Backoff: retries start at 100 ms and never exceed the 400 ms cap.
        let delays = after.states.compactMap { state -> Duration? in if case .retrying(let delay) = state { delay } else { nil } }
        #expect(delays.first == .milliseconds(100))
        #expect(delays.allSatisfy { $0 <= .milliseconds(400) })
        // Between the disconnection and the new connection, nothing claims a receiver.
        let reconnected = try #require(after.firstIndex(of: SourceEvent.state(.connected)))
        #expect(!after[..<reconnected].contains(SourceEvent.state(.receiverPresent)))
        #expect(after[..<reconnected].fixes.isEmpty)
        try await fake.stop()
    }

    @Test("a refused connection is a typed error with an actionable message")
    func refusedConnection() async throws {
        let port = try GPSFake.freePort()
        let recorder = EventRecorder(client(port: port).events())
        defer { recorder.stop() }
        let events = try await recorder.wait("a retry") { $0.states.contains { if case .retrying = $0 { true } else { false } } }
        let error = try #require(events.states.lazy.compactMap { if case .disconnected(let e) = $0 { e } else { nil } }.first)
        #expect(error.code == .connectionRefused)
        #expect(error.message == SourceError.connectionRefused(host: "127.0.0.1", port: port).message)
        #expect(error.message.contains("connection refused"))
        #expect(Array(events.states.prefix(3)) == [.connecting, .disconnected(error), .retrying(after: .milliseconds(100))])

        await #expect(throws: SourceError.connectionRefused(host: "127.0.0.1", port: port)) {
            try await client(port: port).devices(timeout: .seconds(5))
        }
    }

    @Test("an unknown host is a typed error")
    func unknownHost() async throws {
        let client = GPSDClient(configuration: GPSDConfiguration(host: "no-such-host.invalid", port: 2947), logger: logger)
        await #expect(throws: SourceError.hostNotFound(host: "no-such-host.invalid", port: 2947)) {
            try await client.devices(timeout: .seconds(20))
        }
    }

    @Test("a receiver without a fix gives no position")
    func logWithoutFixGivesNoPosition() async throws {
        let fake = try await GPSFake(log: try TestLog.path("nofix"))
        let recorder = EventRecorder(client(port: fake.port).events())
        defer { recorder.stop() }
        let events = try await recorder.wait("the end of the log") {
            $0.contains { if case .report(.deviceRemoved) = $0 { true } else { false } }
        }
        let fixes = events.fixes
        #expect(!fixes.isEmpty, "gpsd reports TPVs with mode 1 for this log")
        #expect(fixes.allSatisfy { !$0.hasPosition && $0.latitude == nil && $0.longitude == nil && $0.mode <= .noFix })
        #expect(events.contains { if case .report(.sky(let sky)) = $0 { sky.seen == 2 && sky.used == 0 } else { false } })
        try await fake.stop()
    }

    @Test("silence longer than staleAfter on the injected clock makes the source stale once; the next fix makes it current")
    func staleDetection() async throws {
        let clock = ManualClock()
        let fake = try await GPSFake(log: try TestLog.path("garmin15x-gap"))
        let recorder = EventRecorder(client(port: fake.port, clock: clock, staleAfter: .seconds(5)).events())
        defer { recorder.stop() }
        // The log's third cycle (11:33:00) is followed by about 6 s of silence. gpsd 3.22 ends the
        // cycle with one TPV and a SKY; 3.25 and later send a TPV per sentence, each with the
        // cycle's time, SKYs among them, so no one message ends the cycle in every version. What
        // every version does is fall silent: once a fix of that cycle has come, wait until nothing
        // more comes for 1.5 s (15 sentences at gpsfake's pace, a quarter of the silence).
        let lastBeforeGap = Date(timeIntervalSince1970: 1_666_092_780)
        try await recorder.wait("a fix of the cycle before the silence") { $0.fixes.contains { $0.time == lastBeforeGap } }
        try await recorder.waitForQuiet(.milliseconds(1500), "the silence after the 11:33:00 cycle")
        try #require(!recorder.all.fixes.contains { ($0.time ?? .distantPast) > lastBeforeGap },
                     "the quiet came after the silence: \(EventRecorder.summary(recorder.all))")

        // A message may still be on its way when time moves; then the silence restarts and time moves again.
        var staleIndex: Int?
        for _ in 0..<5 where staleIndex == nil {
            await clock.sleepers(atLeast: 1)
            let seen = recorder.all.count
            clock.advance(by: .seconds(5))
            let events = try await recorder.wait("any event after moving time", timeout: .seconds(5)) { $0.count > seen }
            staleIndex = events[seen...].firstIndex(of: .state(.stale))
        }
        let stale = try #require(staleIndex)
        #expect(recorder.all[..<stale].states.allSatisfy { $0 != SourceState.stale })
        // Once per silence: more time changes nothing.
        clock.advance(by: .seconds(60))

        let events = try await recorder.wait("a fix after the silence") { $0[stale...].fixes.contains { $0.hasPosition } }
        let after = Array(events[(stale + 1)...])
        #expect(after.first == .state(.receiverPresent))
        if case .report(.fix(let fix))? = after.dropFirst().first {
            #expect(fix.time == lastBeforeGap.addingTimeInterval(1))
        } else {
            Issue.record("the fix after the silence should follow the receiverPresent state: \(EventRecorder.summary(after))")
        }
        #expect(!after.contains(.state(.stale)))
        try await fake.stop()
    }

    @Test("cancelling the consumer ends the reader thread at once, even while gpsd is quiet")
    func cancellationStopsTheReaderThread() async throws {
        let fake = try await GPSFake(log: try TestLog.path("garmin15x"))
        let recorder = EventRecorder(client(port: fake.port).events())
        try await recorder.wait("the end of the log") {
            $0.contains { if case .report(.deviceRemoved) = $0 { true } else { false } }
        }
        // gpsd is quiet now: the reader thread sleeps in poll(2).
        #expect(Self.threadCount(named: "gpsd:\(fake.port)") == 1)
        // gpsd says nothing more: a reader that did not wake on cancellation would sit in poll(2)
        // for good. The ceiling only guards the test against that hang.
        recorder.stop()
        let ended = await waitUntil(timeout: .seconds(30)) { Self.threadCount(named: "gpsd:\(fake.port)") == 0 }
        #expect(ended)
        try await fake.stop()
    }

    /// The release of the tests' gpsd, as `gpsd -V` prints it ("gpsd: 3.22 (revision 3.22)").
    static func gpsdRelease() throws -> String {
        let command = GPSDInstallation.current.command("gpsd", ["-V"])
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: command.executable)
        process.arguments = command.arguments
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = text.split(separator: " ")
        let index = try #require(words.firstIndex { $0.hasSuffix(":") }, "gpsd -V printed \(text)")
        return try #require(words.dropFirst(index + 1).first.map(String.init), "gpsd -V printed \(text)")
    }

    /// How many threads of this process have `name` (Linux: /proc/self/task/*/comm).
    static func threadCount(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    @Test("devices(timeout:) lists gpsfake's receiver")
    func devicesListsTheReceiver() async throws {
        let fake = try await GPSFake(log: try TestLog.path("garmin15x"))
        // gpsfake hands gpsd its pseudo-terminal shortly after gpsd starts; a watcher sees when.
        let watcher = EventRecorder(client(port: fake.port).events())
        defer { watcher.stop() }
        try await watcher.wait("the receiver") { $0.states.contains(.receiverPresent) }

        let devices = try await client(port: fake.port).devices(timeout: .seconds(20))
        #expect(devices.count == 1)
        #expect(devices.first?.path.hasPrefix("/dev/") == true)
        #expect(devices.first?.activated != nil)
        try await fake.stop()
    }
}

import Foundation
import GeoTrackTesting
import GPSReports
import LocationKit
import Testing

/// `Monitor`: iOS 17's CLMonitor, with its conditions kept by name across runs.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct MonitorTests {
    nonisolated static let added = Date(timeIntervalSince1970: 1_735_000_000)

    static func open(_ name: String = "geofences", in directory: TemporaryDirectory) throws -> Monitor {
        try Monitor(named: name, directory: directory.path + "/monitors", now: { added })
    }

    static func location(north: Double, second: Double, accuracy: Double = 5) throws -> Location {
        try #require(Location(fix: .synthetic(at: .at(north: north), second: second, accuracy: accuracy)))
    }

    @Test("add, record and remove are kept by name: a monitor opened again finds its conditions and last events")
    func persistsByName() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        let home = CircularGeographicCondition(center: .at(north: 0), radius: 100)
        try await monitor.add(home, identifier: "home")
        try await monitor.add(CircularGeographicCondition(center: .at(north: 5_000), radius: 300), identifier: "work",
                              assuming: .unsatisfied)
        #expect(await monitor.identifiers == ["home", "work"])
        let first = try #require(await monitor.record(for: "home")?.lastEvent)
        #expect(first.identifier == "home" && first.date == Self.added && first.state == .unknown)
        await monitor.evaluate(try Self.location(north: 10, second: 60))
        // One monitor of a name at a time: this one gives the name up first.
        await monitor.close()
        let reopened = try Self.open(in: directory)
        #expect(await reopened.identifiers == ["home", "work"])
        let record = try #require(await reopened.record(for: "home"))
        #expect(record.condition == home)
        #expect(record.lastEvent.state == .satisfied)
        #expect(record.lastEvent.date == Date(timeIntervalSince1970: 1_735_689_660))
        try await reopened.remove("work")
        await reopened.close()
        #expect(await (try Self.open(in: directory)).identifiers == ["home"])
        // Another name is another monitor.
        #expect(await (try Self.open("other", in: directory)).identifiers.isEmpty)
        var info = stat()
        #expect(stat(monitor.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test("events: unknown, then satisfied on entering and unsatisfied on leaving, with hysteresis and the fixes' times")
    func eventsFollowTheDevice() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        let seen = Task { await monitor.events.firstElements(3) }
        for (second, north) in [(0.0, 500.0), (1, 400), (2, 95), (3, 50), (4, 105), (5, 130), (6, 20)] {
            await monitor.evaluate(try Self.location(north: north, second: second))
        }
        let events = await seen.value
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        #expect(events.map { $0.date.timeIntervalSince1970 - 1_735_689_600 } == [0, 3, 5])
        #expect(await monitor.record(for: "home")?.lastEvent.state == .satisfied)
    }

    @Test("a location no more accurate than the radius decides nothing: an approximate one leaves the state unknown")
    func poorAccuracyDecidesNothing() async throws {
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        let approximate = try #require(Location(fix: ApproximateLocation.reduce(.synthetic(at: .at(north: 0)))))
        await monitor.evaluate(approximate)
        #expect(await monitor.record(for: "home")?.lastEvent.state == .unknown)
    }

    @Test("bad names, radii and files are refused with a message that says what to do; a link is not followed")
    func refusesBadInput() async throws {
        let directory = try TemporaryDirectory()
        for name in ["", ".hidden", "a/b", "../escape", String(repeating: "x", count: 65), "spa ce"] {
            #expect(throws: LocationError.self) { try Self.open(name, in: directory) }
        }
        let monitor = try Self.open(in: directory)
        for radius in [0, -1, .nan, .infinity, 100_001] {
            await #expect(throws: LocationError.self) {
                try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: radius), identifier: "x")
            }
        }
        await #expect(throws: LocationError.self) {
            try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 10), identifier: "")
        }
        try FileManager.default.createDirectory(atPath: directory.path + "/monitors", withIntermediateDirectories: true)
        try "{\"version\":1,\"records\":[{]}".write(toFile: directory.path + "/monitors/broken.json", atomically: true, encoding: .utf8)
        let error = #expect(throws: LocationError.self) { try Self.open("broken", in: directory) }
        #expect(error?.description.contains("remove it to start afresh") == true)
        let target = directory.path + "/elsewhere.json"
        try "{\"version\":1,\"records\":[]}".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/monitors/linked.json", withDestinationPath: target)
        #expect(throws: LocationError.self) { try Self.open("linked", in: directory) }
    }

    @Test("startMonitoring feeds the monitor from the manager's live updates, starting its source")
    func feedsFromTheManager() async throws {
        let track = [300.0, 200, 40, 10, 250].enumerated().map { Fix.synthetic(at: .at(north: $1), second: Double($0)) }
        let harness = try Harness(fixes: track)
        let directory = try TemporaryDirectory()
        let monitor = try Self.open(in: directory)
        try await monitor.add(CircularGeographicCondition(center: .at(north: 0), radius: 100), identifier: "home")
        await monitor.startMonitoring(with: harness.manager)
        let events = await monitor.events.firstElements(3)
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        await monitor.stopMonitoring()
    }

    // MARK: One monitor per name

    @Test("a second monitor of a name in use fails, saying it is open in this process; close() and deallocation free the name")
    func oneMonitorPerName() async throws {
        let directory = try TemporaryDirectory()
        let first = try Self.open(in: directory)
        let home = CircularGeographicCondition(center: .at(north: 0), radius: 100)
        try await first.add(home, identifier: "home")
        let saved = try String(contentsOfFile: first.path, encoding: .utf8)

        let error = #expect(throws: LocationError.self) { try Self.open(in: directory) }
        #expect(error == .monitorInUse(name: "geofences", path: first.path, processID: getpid()))
        #expect(error?.description == "monitor 'geofences' (\(first.path)) is open already in this process; a name is open in one Monitor at a time")
        // Another name is another monitor, and the refused open changed nothing.
        _ = try Self.open("other", in: directory)
        #expect(try String(contentsOfFile: first.path, encoding: .utf8) == saved)
        try await first.add(home, identifier: "still mine")

        await first.close()
        await first.close()
        let closed = await #expect(throws: LocationError.self) { try await first.add(home, identifier: "late") }
        #expect(closed?.description.contains("closed") == true)
        await #expect(throws: LocationError.self) { try await first.remove("home") }
        await first.evaluate(try Self.location(north: 10, second: 60))
        #expect(await first.record(for: "home")?.lastEvent.state == .unknown)
        var finished = true
        for await _ in first.events { finished = false }
        #expect(finished)

        let second = try Self.open(in: directory)
        #expect(await second.identifiers == ["home", "still mine"])
        #expect(await second.record(for: "home")?.lastEvent.state == .unknown)
        // Deallocated, never closed: the name is free once the monitor is gone.
        weak var gone: Monitor?
        do {
            let held = try Self.open("dropped", in: directory)
            gone = held
            #expect(throws: LocationError.self) { try Self.open("dropped", in: directory) }
            try await held.add(home, identifier: "home")
        }
        // The actor's executor may let go of it a moment after its last call returned here.
        while gone != nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await (try Self.open("dropped", in: directory)).identifiers == ["home"])
    }

    @Test("a lock file that is a link is refused, not followed")
    func lockIsNotALink() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/monitors", withIntermediateDirectories: true)
        let target = directory.path + "/elsewhere"
        try "kept\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/monitors/linked.lock", withDestinationPath: target)
        let error = #expect(throws: LocationError.self) { try Self.open("linked", in: directory) }
        #expect(error?.description.contains("linked.lock cannot be taken") == true, "\(String(describing: error))")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
    }

    /// The example program (`Examples/LiveMonitor`), built beside this test bundle: it opens the
    /// monitor named "example" before it reads its log.
    static var example: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [bundle.appendingPathComponent("geotrack-example").path,
                          bundle.deletingLastPathComponent().appendingPathComponent("geotrack-example").path,
                          root.appendingPathComponent(".build/debug/geotrack-example").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    @Test("across processes: a name held here is refused in another process, and one held there is refused here until it is killed")
    func oneMonitorPerNameAcrossProcesses() async throws {
        let example = Self.example
        try #require(FileManager.default.isExecutableFile(atPath: example), "build it first: swift build --build-tests")
        let directory = try TemporaryDirectory()
        let environment = ["XDG_STATE_HOME": directory.path, "HOME": directory.path]
        let monitors = directory.path + "/geotrack/monitors"
        let path = monitors + "/example.json"
        let log = Bundle.module.path(forResource: "garmin15x", ofType: "nmea", inDirectory: "Logs") ?? "Logs/garmin15x.nmea"

        // Held here: the other process is refused, and says by whom.
        let held = try Monitor(named: "example", directory: monitors)
        // A second open here is refused without touching the lock file: closing a descriptor of it
        // would drop this process's lock, and the other process would then get the name.
        #expect(throws: LocationError.self) { try Monitor(named: "example", directory: monitors) }
        let refused = try ChildProcess(example, [log], environment: environment)
        #expect(await refused.waitForExit() == 73)
        #expect(refused.stderr == "geotrack-example: monitor 'example' (\(path)) is open already in process \(getpid()); a name is open in one Monitor at a time\n")
        // A program started while the name is held does not hold it after the monitor is closed.
        let bystander = try ChildProcess(path: "/bin/sleep", arguments: ["600"])
        await held.close()
        await (try Monitor(named: "example", directory: monitors)).close()
        bystander.signal(SIGKILL)

        // Held there: the example reads a pipe nobody writes to, its monitor open.
        let pipe = directory.path + "/silent.nmea"
        try #require(mkfifo(pipe, 0o600) == 0)
        // Open for writing (read-write never waits for a reader), so its read waits instead of ending.
        let writer = Glibc.open(pipe, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        defer { Glibc.close(writer) }
        let holder = try ChildProcess(example, [pipe], environment: environment)
        let lockFile = monitors + "/example.lock"
        let holds = await waitUntil(timeout: .seconds(60)) { @Sendable in
            holder.hasExited || (try? String(contentsOfFile: lockFile, encoding: .utf8)) == "\(holder.pid)\n"
        }
        try #require(holds && !holder.hasExited, "\(holder.stderr)")
        let error = #expect(throws: LocationError.self) { try Monitor(named: "example", directory: monitors) }
        #expect(error == .monitorInUse(name: "example", path: path, processID: holder.pid))
        #expect(error?.description.contains("is open already in process \(holder.pid);") == true)

        // Killed, never closed: the kernel drops the lock with the process.
        holder.signal(SIGKILL)
        #expect(await holder.waitForExit() == 128 + SIGKILL)
        let reopened = try Monitor(named: "example", directory: monitors)
        #expect(await reopened.identifiers.isEmpty)
        let mine = #expect(throws: LocationError.self) { try Monitor(named: "example", directory: monitors) }
        #expect(mine == .monitorInUse(name: "example", path: path, processID: getpid()))
        await reopened.close()
    }
}

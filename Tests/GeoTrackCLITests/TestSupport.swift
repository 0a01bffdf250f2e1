import Foundation
import GeoTrackTesting
import GPSReports
import GeoTrackService
import LocationKit
import Synchronization
import Testing

/// Paths and helpers shared by the CLI tests.
enum TestSupport {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `geotrack` binary, beside the test bundle.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent("geotrack").path,
            bundle.deletingLastPathComponent().appendingPathComponent("geotrack").path,
            packageRoot.appendingPathComponent(".build/debug/geotrack").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    /// One folder per test process for every ``temporaryDirectory()``, removed when the process
    /// exits: each directory handed out used to stay in /tmp.
    private static let temporaryRoot: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("geotrack-cli-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        atexit {
            try? FileManager.default.removeItem(at: TestSupport.temporaryRoot)
        }
        return root
    }()

    /// Directories handed out in this process, for their names.
    private static let temporaryCount = Mutex(0)

    /// A fresh temporary directory, removed with the others when the test process exits.
    static func temporaryDirectory() throws -> URL {
        let number = temporaryCount.withLock { count in
            count += 1
            return count
        }
        let url = temporaryRoot.appendingPathComponent("\(number)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Inputs in `folder` that hold no fix with a time: a GPX route, a log of GGA alone (times
    /// of day and no date: gpsd reports its three cycles as two fixes without a time) and an
    /// empty log. Their paths.
    static func untimedInputs(in folder: URL) throws -> (route: String, gga: String, empty: String) {
        let route = folder.appendingPathComponent("route.gpx")
        try """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <rte><rtept lat="52.5" lon="13.4"/><rtept lat="52.51" lon="13.41"/></rte>
            </gpx>
            """.write(to: route, atomically: true, encoding: .utf8)
        let gga = folder.appendingPathComponent("gga.nmea")
        try ["GPGGA,120000.00,5230.0000,N,01324.0000,E,1,08,1.0,34.0,M,39.0,M,,",
             "GPGGA,120001.00,5230.0010,N,01324.0010,E,1,08,1.0,34.0,M,39.0,M,,",
             "GPGGA,120002.00,5230.0020,N,01324.0020,E,1,08,1.0,34.0,M,39.0,M,,"].map { SyntheticLog.sentence($0) + "\r\n" }.joined()
            .write(to: gga, atomically: true, encoding: .utf8)
        let empty = folder.appendingPathComponent("empty.nmea")
        try Data().write(to: empty)
        return (route.path, gga.path, empty.path)
    }

    /// The result of running a program.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to the end, with stdin from /dev/null unless `input` is given (see ``ChildProcess``).
    ///
    /// The wait is on a thread of its own: a test blocked in waitpid would hold one of the
    /// cooperative pool's two threads here, and two such tests starved every asynchronous test
    /// (a broker handshake, a fleet's first screen) until their deadlines passed.
    ///
    /// At most ``runSlots`` of these run at once: with nothing holding a thread while it waits,
    /// every test would start its programs together, and a test that must catch a program in
    /// the act (a replay at 7× in a terminal) found it already finished on the loaded machine.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    input: String? = nil) async throws -> Run {
        await runSlots.acquire()
        do {
            let run = try await runAtOnce(executable, arguments, environment: environment, input: input)
            await runSlots.release()
            return run
        } catch {
            await runSlots.release()
            throw error
        }
    }

    /// ``run(_:_:environment:input:)`` without waiting for a slot: for a quick look that a test
    /// must take on time (tmux's screen of a program that is playing), not for programs under test.
    static func runAtOnce(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                          input: String? = nil) async throws -> Run {
        let child = try ChildProcess(executable, arguments, environment: environment, input: input)
        let status = await child.waitForExit()
        return Run(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// Programs ``run(_:_:environment:input:)`` lets run at once: two per core.
    static let runSlots = Slots(2 * max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// A counting semaphore for async code: ``acquire()`` waits, without holding a thread, until
    /// fewer than its count hold a slot.
    actor Slots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        func acquire() async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// Hands the slot to the longest waiter, or frees it.
        func release() {
            if waiting.isEmpty {
                free += 1
            } else {
                waiting.removeFirst().resume()
            }
        }
    }

    /// Runs `geotrack` with a private state and config home, so no test sees another's decision.
    static func geotrack(_ arguments: [String], home: URL, environment: [String: String] = [:], input: String? = nil) async throws -> Run {
        var env = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                   "HOME": home.path]
        for (key, value) in environment { env[key] = value }
        return try await run(binary, arguments, environment: env, input: input)
    }

    /// Grants location access in `home`'s state, as `geotrack auth grant` does.
    static func grantAccess(home: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let run = try await geotrack(["auth", "grant"], home: home)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
    }

    /// Replays `log` into a new GPX file called `name` in `home`, expecting success and a file
    /// xmllint accepts; returns the file's path.
    static func replayToGPX(_ log: String, named name: String, home: URL,
                            sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let gpx = home.appendingPathComponent(name).path
        let run = try await geotrack(["replay", log, "--gpx", gpx], home: home)
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        let lint = try await TestSupport.run("/usr/bin/xmllint", ["--noout", gpx])
        #expect(lint.status == 0, "\(lint.stderr)", sourceLocation: sourceLocation)
        return gpx
    }

    /// Whether a program is on this machine.
    static func installed(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }
}

/// The status the service gives for `fix`: a location with `satellitesUsed` from a sky view, and
/// (as the manager delivers one while moving) the fix's course as its heading, or `heading`.
func fixStatus(_ fix: Fix, satellitesUsed: Int? = nil, heading: Double? = nil, stale: Bool = false) -> TrackingStatus {
    let sky = satellitesUsed.map { used in SkyView(satellites: (0..<used).map { Satellite(prn: $0 + 1, used: true) }) }
    guard let location = Location(fix: fix, sky: sky) else { return .searching(seen: 0, used: 0) }
    let degrees = heading ?? ((fix.speed ?? 0) >= 1 ? fix.track : nil)
    let shown = degrees.flatMap { Heading(trueHeading: $0, timestamp: location.timestamp, source: .courseOverGround) }
    return stale ? .stale(location) : .fix(location, heading: shown)
}

import Foundation
import GeoTrackTesting
import Testing

/// What geotrack prints from a gpsd, checked against that gpsd's own client, gpspipe -w: every
/// TPV key and value (newer gpsd sends keys 3.22 did not know, and they pass through), the
/// satellites of its SKY, and its receiver. Shared by the suites below.
enum GPSDAgreement {
    /// The JSON objects of class `name` in `output`, in order, nested arrays and objects too
    /// (JSONSerialization gives Swift arrays of Any, which are not Hashable).
    static func objects(_ output: String, class name: String) throws -> [[String: AnyHashable]] {
        try output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{\"class\":\"\(name)\",") }.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(hashable(object) as? [String: AnyHashable], "not an object: \(line)")
        }
    }

    /// A JSON value as AnyHashable, arrays and objects included.
    static func hashable(_ value: Any) -> AnyHashable? {
        if let dictionary = value as? [String: Any] {
            var result: [String: AnyHashable] = [:]
            for (key, item) in dictionary {
                guard let converted = hashable(item) else { return nil }
                result[key] = converted
            }
            return result
        }
        if let array = value as? [Any] {
            let converted = array.compactMap(hashable)
            return converted.count == array.count ? converted : nil
        }
        return value as? AnyHashable
    }

    /// A log with satellites (GSV, GSA) as well as fixes, played once.
    static let log = SkyCommandTests.log

    /// Runs `binary` watch --json --sky beside `installation`'s gpspipe -w on one gpsfake run of
    /// the log, and checks that they agree.
    static func watchAgrees(binary: String, installation: GPSDInstallation, label: String) async throws {
        let home = try await WatchEndToEndTests.grantedHome()
        let environment = WatchEndToEndTests.environment(home)
        // The last time of day in the log, as geotrack's own decoder reads it: when both clients
        // have it, the log has played.
        let replay = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let lastTime = try #require(try objects(replay.stdout, class: "TPV")
            .compactMap { $0["time"] as? String }.last?.split(separator: "T").last)
        let gpsd = try await GPSFake(log: log, cycle: 0.02, gpsd: installation)
        let gpspipe = installation.command("gpspipe", ["-w", gpsd.address])
        let pipe = try ChildProcess(gpspipe.executable, gpspipe.arguments)
        let watch = try ChildProcess(binary, ["watch", "--gpsd", gpsd.address, "--json", "--sky"], environment: environment)
        try await WatchEndToEndTests.waitForOutput(pipe, "\(label): gpspipe's last fix") { $0.contains(lastTime) }
        try await WatchEndToEndTests.waitForOutput(watch, "\(label): watch's last fix") { $0.contains(lastTime) }
        watch.signal(SIGTERM)
        pipe.signal(SIGTERM)
        #expect(await watch.status(within: 3) == 0, "\(label): \(watch.stderr)")
        _ = await pipe.status(within: 3)

        let tpvKeys = try agree(gpsd: objects(pipe.stdout, class: "TPV"),
                                ours: objects(watch.stdout, class: "TPV"), label: "\(label): TPV")
        #expect(tpvKeys > 0, "\(label): no TPV key compared")
        // SKY: the satellites, each with gpsd's PRN, elevation, azimuth, signal and use, and the
        // dilutions. Only the SKYs that list satellites (gpsd also sends some with dilutions only).
        func skies(_ output: String) throws -> [[String: AnyHashable]] {
            try objects(output, class: "SKY").compactMap { sky in
                guard let list = sky["satellites"] as? [[String: AnyHashable]], !list.isEmpty else { return nil }
                var kept = sky.filter { ["hdop", "vdop", "pdop", "xdop", "ydop", "tdop", "gdop"].contains($0.key) }
                kept["satellites"] = list.map { $0.filter { ["PRN", "el", "az", "ss", "used"].contains($0.key) } } as AnyHashable
                return kept
            }
        }
        let skyKeys = try agree(gpsd: skies(pipe.stdout), ours: skies(watch.stdout), label: "\(label): SKY")
        #expect(skyKeys > 0, "\(label): no SKY with satellites compared")
    }

    /// Lines up gpsd's objects and ours where the most agree (either client may have connected
    /// a moment before the other, and some repeat word for word), checks that every object in
    /// between is in both, with every key and value gpsd gave; returns how many keys it compared.
    static func agree(gpsd theirs: [[String: AnyHashable]], ours: [[String: AnyHashable]], label: String) throws -> Int {
        let offsets = (-(ours.count - 1))...(theirs.count - 1)
        guard !ours.isEmpty, !theirs.isEmpty, let offset = offsets.max(by: { lhs, rhs in
            WatchEndToEndTests.agreement(theirs, ours, offset: lhs) < WatchEndToEndTests.agreement(theirs, ours, offset: rhs)
        }) else {
            Issue.record("\(label): gpspipe printed \(theirs.count), geotrack \(ours.count)")
            return 0
        }
        let pairs = ours.indices.compactMap { index in theirs.indices.contains(index + offset) ? (theirs[index + offset], ours[index]) : nil }
        // They connected and were stopped a moment apart: a few at either end may be one client's alone.
        #expect(pairs.count >= 3 && pairs.count >= min(ours.count, theirs.count) - 3,
                "\(label): overlap \(pairs.count) of \(ours.count) / \(theirs.count)")
        var keys = 0
        for (gpsdObject, ourObject) in pairs {
            for (key, value) in gpsdObject {
                keys += 1
                if ourObject[key] != value {
                    Issue.record("\(label): \(key) is \(String(describing: ourObject[key])), gpsd says \(value)")
                }
            }
        }
        return keys
    }

    /// `binary` devices --json lists the receiver `installation`'s gpspipe -w shows, with its path,
    /// driver, speed and cycle.
    static func devicesAgree(binary: String, installation: GPSDInstallation, label: String) async throws {
        let home = try TestSupport.temporaryDirectory()
        // A long log, so the receiver is still there while the test asks.
        let gpsd = try await GPSFake(log: TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/loop.nmea").path,
                                         once: false, gpsd: installation)
        // gpsd names the receiver's driver once it has recognised a sentence: wait until gpspipe
        // shows it, so both clients are asked about the same, settled receiver.
        var listed: [String: AnyHashable]?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let gpspipe = installation.command("gpspipe", ["-w", "-n", "3", gpsd.address])
            let pipe = try await TestSupport.run(gpspipe.executable, gpspipe.arguments)
            listed = try objects(pipe.stdout, class: "DEVICES").first
                .flatMap { ($0["devices"] as? [[String: AnyHashable]])?.first }
            if listed?["driver"] != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let expected = try #require(listed, "\(label): gpsd never listed gpsfake's receiver with a driver")
        let run = try await TestSupport.run(binary, ["devices", "--gpsd", gpsd.address, "--json"],
                                      environment: WatchEndToEndTests.environment(home))
        #expect(run.status == 0, "\(label): \(run.stderr)")
        let listedByUs = try objects(run.stdout, class: "DEVICE")
        #expect(listedByUs.count == 1, "\(label): \(run.stdout)")
        for key in ["path", "driver", "bps", "cycle"] {
            #expect(listedByUs.first?[key] == expected[key],
                    "\(label): DEVICE \(key) is \(String(describing: listedByUs.first?[key])), gpsd says \(String(describing: expected[key]))")
        }
    }
}

/// The build under test against the tests' gpsd (the system's 3.22, or the one
/// GEOTRACK_TEST_GPSD_PREFIX names: make test-gpsd-versions runs it against 3.25 and 3.27.5,
/// each with geotrack built against that version's gps.h and libgps).
@Suite("geotrack against the tests' gpsd version", .serialized)
struct GPSDVersionTests {
    static var label: String { "gpsd at \(GPSDInstallation.current.prefix ?? "/usr")" }

    @Test("watch --json --sky prints every TPV key and value gpspipe -w shows, and the same satellites")
    func watchAgrees() async throws {
        try await GPSDAgreement.watchAgrees(binary: TestSupport.binary, installation: .current, label: Self.label)
    }

    @Test("devices --json lists the receiver gpspipe -w shows")
    func devicesAgree() async throws {
        try await GPSDAgreement.devicesAgree(binary: TestSupport.binary, installation: .current, label: Self.label)
    }
}


import Foundation
import GeoTrackTesting
import Testing

/// `watch` through a real gpsd gives what gpsd gives, and the same events as `replay`.
extension WatchEndToEndTests {
    /// The JSON objects of one class in `output`, in order. gpsd ends its lines with CR LF, which
    /// Swift reads as one character: split on any newline.
    static func objects(_ output: String, class name: String) throws -> [[String: AnyHashable]] {
        try output.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{\"class\":\"\(name)\"") }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: AnyHashable])
        }
    }

    /// Polls until `condition` holds on the child's output (gpsfake plays the log at its own pace).
    static func waitForOutput(_ child: ChildProcess, timeout: Double = 90, _ what: String,
                              sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(child.stdout) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("never saw \(what); stdout: \(child.stdout.prefix(300)) stderr: \(child.stderr) exit: \(String(describing: await child.status(within: 0)))", sourceLocation: sourceLocation)
        throw TmuxSession.TmuxError.timeout(what)
    }

    /// What `gpspipe -w` and `geotrack watch --gpsd … OPTIONS` printed, side by side on one gpsd
    /// (gpsfake) playing the corpus log `name` once, each stopped once it has the log's last fix.
    static func watchBesideGPSPipe(log name: String, delay: Double, _ options: [String]) async throws -> (gpspipe: String, watch: String) {
        let log = try Corpus.path(name + ".nmea")
        let home = try await Self.grantedHome()
        // The last time of day in the log, as the decoder reads it: when both clients have it, the
        // log has played. (gpsd 3.22 moves dates older than itself 1024 weeks on; the time of day stays.)
        let replay = try await TestSupport.geotrack(["replay", log, "--json"], home: home)
        let lastTime = try #require(try Self.objects(replay.stdout, class: "TPV").compactMap { $0["time"] as? String }.last?.split(separator: "T").last)
        let gpsd = try await GPSFake(log: log, cycle: delay)
        let gpspipe = GPSDInstallation.current.command("gpspipe", ["-w", gpsd.address])
        let pipe = try ChildProcess(gpspipe.executable, gpspipe.arguments)
        let watch = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address] + options, environment: Self.environment(home))
        try await Self.waitForOutput(pipe, "gpspipe's last fix") { $0.contains(lastTime) }
        try await Self.waitForOutput(watch, "watch's last fix") { $0.contains(lastTime) }
        watch.signal(SIGTERM)
        pipe.signal(SIGTERM)
        #expect(await watch.status(within: 3) == 0, "\(watch.stderr)")
        _ = await pipe.status(within: 3)
        return (pipe.stdout, watch.stdout)
    }

    /// How many TPVs agree when `ours[i]` is put beside `theirs[i + offset]`.
    static func agreement(_ theirs: [[String: AnyHashable]], _ ours: [[String: AnyHashable]], offset: Int) -> Int {
        ours.indices.filter { theirs.indices.contains($0 + offset) && theirs[$0 + offset] == ours[$0] }.count
    }

    @Test("watch --json prints every TPV gpsd sends with every key and value gpspipe -w shows",
          arguments: [("haicom-305N", 0.05), ("ublox-neo-m9n-nmea", 0.02), ("garmin15x", 0.1)])
    func jsonIsGpsdsTPV(log name: String, delay: Double) async throws {
        let (gpspipe, watch) = try await Self.watchBesideGPSPipe(log: name, delay: delay, ["--json"])
        let theirs = try Self.objects(gpspipe, class: "TPV")
        let ours = try Self.objects(watch, class: "TPV")
        // Either client may have connected a moment after the other, and TPVs without a position
        // repeat word for word: line the two up where the most TPVs agree.
        let offsets = (-(ours.count - 1))...(theirs.count - 1)
        let offset = try #require(offsets.max { lhs, rhs in
            Self.agreement(theirs, ours, offset: lhs) < Self.agreement(theirs, ours, offset: rhs)
        })
        let pairs = ours.indices.compactMap { index in theirs.indices.contains(index + offset) ? (theirs[index + offset], ours[index]) : nil }
        #expect(pairs.count >= 5, "too little overlap: \(pairs.count) of \(ours.count) / \(theirs.count)")
        // They connected and were stopped a moment apart, so a few TPVs at either end may be one
        // client's alone; in between every TPV must be there in both (a lost one would shift the rest).
        #expect(pairs.count >= min(ours.count, theirs.count) - 3, "overlap \(pairs.count) of \(ours.count) / \(theirs.count)")
        var keys = 0, matched = 0
        for (gpsdTPV, ourTPV) in pairs {
            for (key, value) in gpsdTPV {
                keys += 1
                if ourTPV[key] == value { matched += 1 } else { Issue.record("\(name): \(key) is \(String(describing: ourTPV[key])), gpsd says \(value)") }
            }
        }
        #expect(keys > 0 && matched == keys, "\(matched) of \(keys) keys and values")
    }

    @Test("watch reports the same region and visit events, at the same fix times, as replay of the same log: JSON and status lines")
    func eventsMatchReplay() async throws {
        let home = try await Self.grantedHome()
        let config = home.appendingPathComponent("events.yaml").path
        try OnePipelineTests.eventConfiguration.write(toFile: config, atomically: true, encoding: .utf8)
        let replayJSON = try await TestSupport.geotrack(["replay", OnePipelineTests.walk, "--json", "--config", config], home: home)
        let replayed = OnePipelineTests.eventObjects(replayJSON.stdout)
        #expect(replayed.count == 4)

        let gpsd = try await GPSFake(log: OnePipelineTests.walk, cycle: 0.03)
        let json = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--json", "--config", config],
                                    environment: Self.environment(home))
        // Not a terminal: the status line becomes plain lines, with the event lines among them.
        let lines = try ChildProcess(TestSupport.binary, ["watch", "--gpsd", gpsd.address, "--config", config],
                                     environment: Self.environment(home))
        try await Self.waitForOutput(json, "the region exit in JSON") { $0.contains("\"regionExited\"") }
        try await Self.waitForOutput(lines, "the region exit on a line") { $0.contains("left region market") }
        json.signal(SIGTERM)
        lines.signal(SIGTERM)
        #expect(await json.status(within: 3) == 0, "\(json.stderr)")
        #expect(await lines.status(within: 3) == 0, "\(lines.stderr)")
        #expect(OnePipelineTests.eventObjects(json.stdout) == replayed)
        let eventLines = lines.stdout.split(separator: "\n").map(String.init).filter { line in
            OnePipelineTests.walkEventLines.contains { $0.dropFirst(10).prefix(8) == line.dropFirst(10).prefix(8) }
        }
        #expect(eventLines == OnePipelineTests.walkEventLines)
    }
}

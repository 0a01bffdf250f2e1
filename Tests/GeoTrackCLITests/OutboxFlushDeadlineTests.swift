import Foundation
import GeoTrackTesting
import Testing

/// `outbox flush --timeout` is one deadline for the whole flush: every destination is flushed
/// at once, not one after another each with its own timeout, and each that fails says so.
@Suite("outbox flush: one deadline, every destination at once, a line per failure", .serialized)
struct OutboxFlushDeadlineTests {
    static let devices = ["van1", "van2", "van3", "van4"]

    /// Queues the log's locations for `url` under four devices: four destinations.
    static func queueFour(_ url: String, home: URL) async throws {
        for device in devices {
            let run = try await TestSupport.geotrack(["replay", try PublishTests.log, "--publish", url, "--publish-user", "ann",
                                                "--publish-device", device, "--publish-wait", "0"], home: home)
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    @Test("four destinations on a broker that never answers: all four are connected to at once, before any timeout")
    func concurrently() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        // A "broker" that accepts and never answers the MQTT CONNECT: each flush waits on it.
        let silent = try HostileGPSD(.acceptThenSilence)
        defer { silent.stop() }
        try await Self.queueFour("mqtt://127.0.0.1:\(silent.port)", home: home)
        let before = silent.accepted
        let flush = try ChildProcess(TestSupport.binary, ["outbox", "flush", "--timeout", "600"],
                                     environment: ["HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                                                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path])
        // One after another, the second would connect only after the first's 600 s.
        let all = await waitUntil(timeout: .seconds(60)) { silent.accepted >= before + Self.devices.count }
        flush.signal(SIGINT)
        #expect(await flush.status(within: 30) == 0, "\(flush.stderr)")
        #expect(all, "connections: \(silent.accepted - before) of \(Self.devices.count)")
        #expect(flush.stdout.split(separator: "\n").count == Self.devices.count, "\(flush.stdout)")
    }

    @Test("a peer that takes the connection and never answers as a broker is 'not reachable', in replay's words and flush's alike")
    func silentPeerSameWords() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        // Plain MQTT to a port that answers nothing (a TLS port, a wrong service) gets no CONNACK.
        let (silent, url, run) = try await PublishTests.queueForSilentBroker(home: home, wait: "1")
        defer { silent.stop() }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("(the broker was not reachable)"), "\(run.stderr)")
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "2"], home: home)
        #expect(flush.status == 69, "\(flush.stderr)")
        #expect(flush.stderr.contains("the broker at \(url) was not reachable"), "\(flush.stderr)")
        #expect(!flush.stderr.contains("did not take them in time"), "\(flush.stderr)")
    }

    @Test("four destinations that refuse the connection: one stderr line for each, with its reason; 69")
    func linePerFailure() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        // Port 1 refuses at once: every message stays, and every flush fails with the reason.
        let url = "mqtt://127.0.0.1:1"
        try await Self.queueFour(url, home: home)
        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "3"], home: home)
        #expect(flush.status == 69, "\(flush.stderr)")
        let lines = flush.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == Self.devices.count, "\(flush.stderr)")
        for device in Self.devices {
            let line = lines.first { $0.contains("\(url)/owntracks/ann/\(device):") }
            #expect(line?.hasPrefix("geotrack: ") == true && line?.contains("cannot connect to \(url)") == true,
                    "\(device): \(flush.stderr)")
        }
    }
}

import Foundation
import GeoTrackTesting
import Testing

/// One process sends a destination's queue: a second `--publish` for the same device, or an
/// `outbox flush`, while a run sends it, would deliver every message twice (and over MQTT,
/// with one client id, the two would throw each other off the broker).
///
/// The run holding the queue is an `outbox flush` that waits on a "broker" which accepts and
/// never answers (HostileGPSD): a real mosquitto would take the messages at once, and the flush
/// would end before anything could be tried beside it.
@Suite("one process sends a destination's queue", .serialized)
struct OutboxClaimTests {
    @Test("a second publisher or flush for a destination being sent is refused with 75 (try later), the holder named with its command; a killed holder frees it")
    func secondSenderRefused() async throws {
        let home = try TestSupport.temporaryDirectory()
        try await TestSupport.grantAccess(home: home)
        let (silent, url, queued) = try await PublishTests.queueForSilentBroker(home: home, wait: "0.5")
        defer { silent.stop() }
        #expect(queued.status == 0, "\(queued.stderr)")
        let key = "\(url)/owntracks/ann/van"
        let count = try await Self.waiting(home: home)
        #expect(count > 0)

        let holder = try await PublishTests.flushHeldBy(silent, home: home)

        let flush = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "5"], home: home)
        #expect(flush.status == 75, "\(flush.stderr)")
        #expect(flush.stderr == "geotrack: \(count) messages for \(key) left alone: another geotrack (process \(holder.pid): outbox flush) is sending them now; it delivers them, or stop it and flush again\n")

        let log = try PublishTests.log
        let tracks = try TestSupport.temporaryDirectory()
        let publish = try await TestSupport.geotrack(["replay", log, "--gpx", tracks.appendingPathComponent("walk.gpx").path,
                                                "--publish", url, "--publish-user", "ann", "--publish-device", "van"], home: home)
        #expect(publish.status == 75, "\(publish.stderr)")
        #expect(publish.stderr.contains("--publish \(url): another geotrack (process \(holder.pid): outbox flush) already publishes ann/van there"), "\(publish.stderr)")
        #expect(publish.stdout.isEmpty)
        // The GPX track was made before publishing was refused: nothing of it is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: tracks.path) == [])
        // Refused before anything was queued: the outbox holds what it held.
        #expect(try await Self.waiting(home: home) == count)

        // Another device is another queue: it publishes beside the holder.
        let other = try await TestSupport.geotrack(["replay", log, "--publish", url, "--publish-user", "ann",
                                              "--publish-device", "car", "--publish-wait", "0.2"], home: home)
        #expect(other.status == 0, "\(other.stderr)")

        // The system drops the claim of a process killed outright: the queue is free again, and
        // the next flush tries the broker (which still does not answer: 69).
        holder.signal(SIGKILL)
        _ = await holder.waitForExit()
        let after = try await TestSupport.geotrack(["outbox", "flush", "mqtt://127.0.0.1:\(silent.port)/owntracks/ann/van", "--timeout", "1"], home: home)
        #expect(after.status == 69, "\(after.stderr)")
        #expect(after.stderr.contains("still wait for \(key): the broker at \(url) was not reachable"), "\(after.stderr)")
    }

    /// How many messages the outbox holds, as `outbox --json` says.
    static func waiting(home: URL) async throws -> Int {
        let run = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        let object = try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try #require(object["messages"] as? Int)
    }
}

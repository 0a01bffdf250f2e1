import Foundation
import GeoTrackTesting
import Testing

/// Positions queued in the outbox leave it only while precise location access is granted: a
/// `geotrack auth deny` after they were queued holds them, and so does an undecided or an
/// approximate access (a queued message does not record whether its position was snapped).
@Suite("outbox flush holds queued positions unless access is granted", .serialized)
struct OutboxAccessTests {
    @Test("denied, undecided, approximate: flush sends nothing and exits 77 saying why and what to do; granted, it sends them all")
    func heldWithoutAccess() async throws {
        let home = try TestSupport.temporaryDirectory()
        let broker = try await Mosquitto()
        try await broker.stop()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        // Queued while the broker is down: they wait in the outbox.
        let queued = try await TestSupport.geotrack(["replay", try PublishTests.log, "--publish", url, "--publish-user", "ann",
                                               "--publish-device", "van", "--publish-wait", "0.5"], home: home)
        #expect(queued.status == 0, "\(queued.stderr)")
        let count = try await OutboxClearTests.waiting(home: home)
        try #require(count > 0)
        try await broker.restart()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])

        let choices = "'geotrack outbox clear --all' drops them"
        let undecided = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10"], home: home)
        #expect(undecided.status == 77, "\(undecided.stdout) \(undecided.stderr)")
        #expect(undecided.stderr == "geotrack: \(count) queued messages are held because location access has not been decided: 'geotrack auth grant' sends them, \(choices)\n")
        #expect(undecided.stdout.isEmpty)

        let deny = try await TestSupport.geotrack(["auth", "deny"], home: home)
        #expect(deny.status == 0, "\(deny.stderr)")
        #expect(deny.stdout.hasSuffix("the outbox holds \(count) queued messages: held, never sent while access is denied; \(choices)\n"), "\(deny.stdout)")
        let denied = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10"], home: home)
        #expect(denied.status == 77, "\(denied.stdout) \(denied.stderr)")
        #expect(denied.stderr == "geotrack: \(count) queued messages are held because location access is denied: 'geotrack auth grant' sends them, \(choices)\n")

        let approximate = try await TestSupport.geotrack(["auth", "grant", "--approximate"], home: home)
        #expect(approximate.status == 0, "\(approximate.stderr)")
        let reduced = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "10"], home: home)
        #expect(reduced.status == 77, "\(reduced.stdout) \(reduced.stderr)")
        #expect(reduced.stderr == "geotrack: \(count) queued messages are held: only approximate locations are allowed, and queued positions may be precise; 'geotrack auth grant' (precise) sends them, \(choices)\n")
        // Held, not lost: all still wait, and none reached the broker (the grant below sends
        // exactly `count`, so an earlier leak would show as more).
        #expect(try await OutboxClearTests.waiting(home: home) == count)

        try await TestSupport.grantAccess(home: home)
        let granted = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "30"], home: home)
        #expect(granted.status == 0, "\(granted.stderr)")
        #expect(granted.stdout.contains("\(count) delivered, 0 waiting"), "\(granted.stdout)")
        #expect(await subscriber.waitForMessages(count))
        #expect(subscriber.messages().count == count, "nothing was sent while held")
    }

    @Test("a later run drains nothing queued before it unless access is granted: it sends only its own, and says the rest are held")
    func laterRunHolds() async throws {
        let home = try TestSupport.temporaryDirectory()
        let broker = try await Mosquitto()
        try await broker.stop()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let publish = ["--publish", url, "--publish-user", "ann", "--publish-device", "van", "--publish-wait", "10"]
        let first = try await TestSupport.geotrack(["replay", try PublishTests.log] + publish, home: home)
        #expect(first.status == 0, "\(first.stderr)")
        let earlier = try await OutboxClearTests.waiting(home: home)
        try #require(earlier > 0)
        try await broker.restart()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let deny = try await TestSupport.geotrack(["auth", "deny"], home: home)
        #expect(deny.status == 0, "\(deny.stderr)")

        // A replay needs no access for its own data; what an earlier run queued may be a watch's.
        let shortLog = HTTPPublishTests.shortLog
        let own = try await PublishTests.expectedFixes(shortLog, home: home).count
        let second = try await TestSupport.geotrack(["replay", shortLog] + publish, home: home)
        #expect(second.status == 0, "\(second.stderr)")
        let destination = "\(url)/owntracks/ann/van"
        #expect(second.stderr == "geotrack: \(earlier) messages queued before this run for \(destination) are held because location access is denied: 'geotrack auth grant' sends them, 'geotrack outbox clear \(destination)' drops them\n")
        #expect(await subscriber.waitForMessages(own))
        #expect(try await OutboxClearTests.waiting(home: home) == earlier, "the earlier ones stay, unsent")
        #expect(subscriber.messages().count == own, "only the run's own were sent")
    }
}

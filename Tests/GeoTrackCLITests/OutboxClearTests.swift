import Foundation
import GeoTrackTesting
import Testing

/// `outbox clear DESTINATION` and `outbox flush DESTINATION` for a destination the outbox does
/// not hold are a mistake to report (exit 66, naming what it holds), not a clear that deleted
/// nothing or a flush with nothing to send.
@Suite("outbox clear and flush name a destination it holds")
struct OutboxClearTests {
    @Test("without an outbox: 66, it is empty; --all still deletes nothing and succeeds")
    func noOutbox() async throws {
        let home = try TestSupport.temporaryDirectory()
        let run = try await TestSupport.geotrack(["outbox", "clear", "mqtt://nowhere/x"], home: home)
        #expect(run.status == 66)
        #expect(run.stderr == "geotrack: no destination 'mqtt://nowhere/x' in the outbox, which is empty\n")
        #expect(run.stdout.isEmpty)
        let flush = try await TestSupport.geotrack(["outbox", "flush", "mqtt://nowhere/x", "--timeout", "1"], home: home)
        #expect(flush.status == 66)
        #expect(flush.stderr == "geotrack: no destination 'mqtt://nowhere/x' in the outbox, which is empty\n")
        let all = try await TestSupport.geotrack(["outbox", "clear", "--all"], home: home)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout == "Deleted 0 messages: the outbox is empty.\n")
    }

    @Test("a typo is refused with 66 and the messages stay; the real name deletes them; then it is gone")
    func unknownDestination() async throws {
        let home = try TestSupport.temporaryDirectory()
        // Port 1 refuses at once: every message stays in the outbox.
        let queued = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                               "--publish-user", "ann", "--publish-device", "van", "--publish-wait", "0"],
                                              home: home)
        #expect(queued.status == 0, "\(queued.stderr)")
        let destination = "mqtt://127.0.0.1:1/owntracks/ann/van"
        let waiting = try await Self.waiting(home: home)
        #expect(waiting > 0)

        let typo = try await TestSupport.geotrack(["outbox", "clear", "mqtt://127.0.0.1:1/owntracks/ann/vna"], home: home)
        #expect(typo.status == 66)
        #expect(typo.stderr == "geotrack: no destination 'mqtt://127.0.0.1:1/owntracks/ann/vna' in the outbox; it holds '\(destination)' (see 'geotrack outbox list')\n")
        #expect(typo.stdout.isEmpty)
        #expect(try await Self.waiting(home: home) == waiting, "a refused clear deletes nothing")
        // The URL given to --publish, without the topic the outbox names its destination by.
        let flush = try await TestSupport.geotrack(["outbox", "flush", "mqtt://127.0.0.1:1", "--timeout", "1"], home: home)
        #expect(flush.status == 66, "\(flush.stdout) \(flush.stderr)")
        #expect(flush.stderr == "geotrack: no destination 'mqtt://127.0.0.1:1' in the outbox; it holds '\(destination)' (see 'geotrack outbox list')\n")
        #expect(flush.stdout.isEmpty)

        let clear = try await TestSupport.geotrack(["outbox", "clear", destination], home: home)
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(clear.stdout == "Deleted \(waiting) messages.\n")
        let again = try await TestSupport.geotrack(["outbox", "clear", destination], home: home)
        #expect(again.status == 66)
        #expect(again.stderr == "geotrack: no destination '\(destination)' in the outbox, which is empty\n")
    }

    /// How many messages `outbox --json` lists, over every destination.
    static func waiting(home: URL) async throws -> Int {
        let listed = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(listed.status == 0, "\(listed.stderr)")
        return try listed.stdout.split(separator: "\n").reduce(0) { sum, line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return sum + (try #require(object["messages"] as? Int))
        }
    }
}

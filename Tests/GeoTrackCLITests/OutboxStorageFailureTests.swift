import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// An outbox that cannot record a delivery: the broker acknowledged a message, and the outbox
/// cannot remove it (a full disk). The condition is real, not injected: `outbox flush` runs
/// under RLIMIT_FSIZE of one block (`ulimit -f 1`, SIGXFSZ ignored), so that the kernel refuses
/// any write that would grow a file, as a full file system does, while the reads it needs work.
/// The test keeps its own connection to the outbox open, so that SQLite's write-ahead log and
/// shared memory already exist when the flush opens it (creating them is a write too).
@Suite("outbox flush when the outbox cannot record a delivery", .serialized)
struct OutboxStorageFailureTests {
    @Test("acknowledged but not removable: flush stops sending at once, says why in one line, exit 74; nothing is lost")
    func flushOnAFullDisk() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let broker = try await Mosquitto()
        let subscriber = try await MosquittoSubscriber(broker: broker, topics: ["owntracks/#"])
        let folder = home.appendingPathComponent("state/geotrack")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder.appendingPathComponent("outbox.sqlite").path)
        defer { outbox.close() }
        let destination = "mqtt://127.0.0.1:\(broker.port)/owntracks/ann/van"
        // More than the sender's window (100): a sender that went on after the first failed
        // removal would send them all.
        let total = 300
        try outbox.enqueue(contentsOf: (0..<total).map { index in
            OutboxMessage(destination: destination, topic: "owntracks/ann/van",
                          payload: Array(#"{"_type":"location","lat":52.0,"lon":4.0,"tst":\#(1_700_000_000 + index)}"#.utf8),
                          retain: false, created: Date())
        })
        #expect(try outbox.summary(for: destination).count == total)

        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "HOME": home.path]
        let flush = try await TestSupport.run("/bin/sh", ["-c", "ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\"",
                                                    TestSupport.binary, "outbox", "flush", "--timeout", "30"],
                                        environment: environment)
        #expect(flush.status == 74, "\(flush.stdout) \(flush.stderr)")
        let line = try #require(flush.stdout.split(separator: "\n").first.map(String.init), "\(flush.stderr)")
        let counts = try #require(line.wholeMatch(of: /(.+): ([0-9]+) delivered, ([0-9]+) waiting/), "\(line)")
        #expect(String(counts.1) == destination)
        let delivered = try #require(Int(counts.2))
        #expect(Int(counts.3) == total, "nothing acknowledged could be removed: all still wait")
        #expect(delivered > 0 && delivered < total, "it stopped sending at the first removal that failed: \(delivered) of \(total)")
        let errors = flush.stderr.split(separator: "\n")
        #expect(errors.count == 1, "one line: \(flush.stderr)")
        let error = String(errors.first ?? "")
        #expect(error.hasPrefix("geotrack: \(delivered) delivered but could not be removed from the outbox ("), "\(error)")
        #expect(error.contains("they will be sent again") && error.contains("free space in \(folder.path)"), "\(error)")
        #expect(!error.contains("broker"), "the broker took them: \(error)")
        // The broker did take what was sent, and only that: nothing was lost, and the rest waits.
        #expect(await subscriber.waitForMessages(delivered))
        #expect(try outbox.summary(for: destination).count == total)
    }

    @Test("replay --publish on an outbox that cannot grow: the first message that cannot be queued ends the run with 74, saying why")
    func queueingOnAFullDisk() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder.appendingPathComponent("outbox.sqlite").path)
        defer { outbox.close() }
        _ = try outbox.summaries()
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "HOME": home.path]
        // Port 1: nothing would take the messages anyway; the point is that none can be kept.
        let run = try await TestSupport.run("/bin/sh", ["-c", "ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\"",
                                                  TestSupport.binary, "replay", try PublishTests.log, "--publish", "mqtt://127.0.0.1:1",
                                                  "--publish-wait", "0"],
                                      environment: environment)
        #expect(run.status == 74, "\(run.stderr)")
        let last = String(run.stderr.split(separator: "\n").last ?? "")
        #expect(last.hasPrefix("geotrack: queueing messages in \(folder.path)/outbox.sqlite failed: "), "\(run.stderr)")
        #expect(try outbox.summaries().isEmpty, "nothing half-queued")
    }
}

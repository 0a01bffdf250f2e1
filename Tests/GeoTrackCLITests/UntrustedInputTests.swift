import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// Numbers and names from the command line or from files are untrusted: each bad one is a
/// one-line error with its own exit status, never a trap or a misleading reason.
@Suite("untrusted numbers and names")
struct UntrustedInputTests {
    @Test("fleet --stale past a year (1e30 trapped in a multiplication), or not above 0, is a usage error, one line",
          arguments: ["1e30", "inf", "nan", "0", "-5", "31622401"])
    func hugeStale(value: String) async throws {
        // `--stale=-5`: a separate "-5" would be read as an option.
        let run = try await TestSupport.geotrack(["fleet", "mqtt://127.0.0.1:1", "--stale=" + value], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(value): \(run.stderr)")
        #expect(run.stderr.contains("--stale must be more than 0 and at most 31622400 seconds (got "), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("a name with a C1 control (U+0085) or a noncharacter is refused as the option it came in, not as 'out of memory'",
          arguments: [0x85, 0x9F, 0xFFFF, 0xFDD0, 0x1FFFE] as [UInt32])
    func controlInName(scalar: UInt32) async throws {
        let name = "d" + String(Character(try #require(Unicode.Scalar(scalar))))
        let home = try TestSupport.temporaryDirectory()
        let publish = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                                "--publish-device", name, "--publish-wait", "0"], home: home)
        #expect(publish.status == 64, "\(publish.stderr)")
        #expect(publish.stderr.contains("--publish-device must be a name of 1 to 256 bytes without /, +, # or control characters"))
        #expect(!publish.stderr.contains("out of memory"))
        let fleet = try await TestSupport.geotrack(["fleet", "mqtt://127.0.0.1:1", "--client-id", name], home: home)
        #expect(fleet.status == 64, "\(fleet.stderr)")
        #expect(fleet.stderr.contains("--client-id must be a name of 1 to 65535 bytes without control characters"))
    }

    @Test("TLS files that are not PEM are refused at the start, naming the option (64); a missing one is 66")
    func tlsFilesArePEM() async throws {
        let home = try TestSupport.temporaryDirectory()
        let log = try Corpus.path("haicom-305N.nmea")
        let base = ["replay", log, "--publish", "mqtts://127.0.0.1:1", "--publish-wait", "0"]
        let notPEM = try await TestSupport.geotrack(base + ["--publish-ca", log], home: home)
        #expect(notPEM.status == 64, "\(notPEM.stderr)")
        #expect(notPEM.stderr.contains("--publish-ca \(log): not a PEM file"), "\(notPEM.stderr)")
        #expect(notPEM.stderr.split(separator: "\n").count == 1, "\(notPEM.stderr)")
        // A key where the certificate should be, and the other way round.
        let key = home.appendingPathComponent("client.key").path
        try "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n".write(toFile: key, atomically: true, encoding: .utf8)
        let certificate = home.appendingPathComponent("client.crt").path
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: certificate, atomically: true, encoding: .utf8)
        let swapped = try await TestSupport.geotrack(base + ["--publish-cert", key, "--publish-key", certificate], home: home)
        #expect(swapped.status == 64 && swapped.stderr.contains("--publish-cert \(key): not a PEM file"), "\(swapped.stderr)")
        let missing = try await TestSupport.geotrack(base + ["--publish-ca", home.appendingPathComponent("none.pem").path], home: home)
        #expect(missing.status == 66 && missing.stderr.contains("cannot read it; check the path"), "\(missing.stderr)")
    }

    @Test("TLS files beside plain mqtt://, http:// or osmand:// alone are refused (64): they would be read and never used, the link unencrypted",
          arguments: [["replay", "LOG", "--publish", "mqtt://127.0.0.1:1", "--publish-wait", "0"],
                      ["replay", "LOG", "--publish", "osmand://127.0.0.1:1", "--publish-wait", "0"],
                      ["fleet", "mqtt://127.0.0.1:1"],
                      ["serve", "--replay", "LOG", "--fleet", "mqtt://127.0.0.1:1", "--listen", "127.0.0.1:0"]])
    func tlsFilesNeedTLS(arguments: [String]) async throws {
        let home = try TestSupport.temporaryDirectory()
        let ca = home.appendingPathComponent("ca.crt").path
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        let log = try Corpus.path("haicom-305N.nmea")
        let run = try await TestSupport.geotrack(arguments.map { $0 == "LOG" ? log : $0 } + ["--publish-ca", ca], home: home)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--publish-ca, --publish-cert and --publish-key are for TLS, and no"), "\(run.stderr)")
        #expect(run.stderr.contains("write mqtts://HOST (port 8883) or https://HOST"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
    }

    @Test("a name past its length limit is refused naming the limit, not rules it keeps")
    func nameTooLong() async throws {
        let home = try TestSupport.temporaryDirectory()
        let publish = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                                "--publish-device", String(repeating: "d", count: 257), "--publish-wait", "0"], home: home)
        #expect(publish.status == 64, "\(publish.stderr)")
        #expect(publish.stderr.contains("--publish-device must be a name of 1 to 256 bytes"), "\(publish.stderr)")
        let wait = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                             "--publish-wait", "1e9"], home: home)
        #expect(wait.status == 64, "\(wait.stderr)")
        #expect(wait.stderr.contains("--publish-wait must be 0 to 31622400 seconds (got 1000000000.0)"), "\(wait.stderr)")
    }

    @Test("outbox and outbox --json list an outbox whose created times are damaged: the count, no oldest, no trap")
    func damagedCreatedTime() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(contentsOf: [1e300, -1e300].map {
            OutboxMessage(destination: "mqtt://b:1883/owntracks/a/b", topic: "owntracks/a/b", payload: [1], retain: false,
                          created: Date(timeIntervalSince1970: $0))
        })
        outbox.close()
        let json = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["messages"] as? Int == 2)
        #expect(object["oldest"] == nil)
        let text = try await TestSupport.geotrack(["outbox"], home: home)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("mqtt://b:1883/owntracks/a/b  2 messages\n"), "\(text.stdout)")
    }

    @Test("messages the outbox's capacity dropped during a run are said at its end, with the limit")
    func droppedAreSaid() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // An outbox already at its capacity for the destination, as a long outage leaves it.
        let key = "mqtt://127.0.0.1:1/owntracks/ann/van"
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        let full = (0..<outbox.capacity).map { _ in
            OutboxMessage(destination: key, topic: "owntracks/ann/van", payload: [1], retain: false, created: Date())
        }
        _ = try outbox.enqueue(contentsOf: full)
        outbox.close()
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                            "--publish-user", "ann", "--publish-device", "van", "--publish-wait", "0"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try Outbox(path: folder + "/outbox.sqlite")
        let dropped = try after.summary(for: key).dropped
        after.close()
        #expect(dropped > 0)
        #expect(run.stderr.contains("\(dropped) of the oldest messages were dropped for \(key) in this run: the outbox holds at most 100000 for a destination"),
                "\(run.stderr)")
    }

    @Test("GEOTRACK_PUBLISH_PASSWORD is geotrack's own: no 'unknown environment variable' warning; the outbox is 0600")
    func passwordVariable() async throws {
        let home = try TestSupport.temporaryDirectory()
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://ann@127.0.0.1:1",
                                            "--publish-device", "van", "--publish-wait", "0"], home: home,
                                           environment: ["GEOTRACK_PUBLISH_PASSWORD": "secret"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("unknown environment variable"), "\(run.stderr)")
        var info = stat()
        #expect(lstat(home.appendingPathComponent("state/geotrack/outbox.sqlite").path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test("an outbox folder others may write to is refused with the reason, exit 73, and nothing is written there")
    func outboxFolderWritableByOthers() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(chmod(folder, 0o777) == 0)
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                            "--publish-device", "van", "--publish-wait", "0"], home: home)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("refusing the outbox in \(folder): others may write to the folder \(folder) (mode 777); run `chmod 700 \(folder)`"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/outbox.sqlite"))
    }

    @Test("outbox lists dead letters with their reason, in text and JSON; clear deletes them")
    func listsDeadLetters() async throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        let destination = "mqtt://b:1883/owntracks/a/b"
        let ids = try outbox.enqueue(contentsOf: ["#", "owntracks/a/b"].map {
            OutboxMessage(destination: destination, topic: $0, payload: [1], retain: false, created: Date(timeIntervalSince1970: 1_700_000_000))
        })
        try await outbox.setAside(ids[0], reason: "publishing to #: Invalid input.")
        outbox.close()
        let text = try await TestSupport.geotrack(["outbox"], home: home)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\(destination)  1 message, the oldest "), "\(text.stdout)")
        #expect(text.stdout.contains(", 1 set aside as undeliverable (publishing to #: Invalid input.; once that is mended, 'geotrack outbox retry' queues them again, 'geotrack outbox clear' deletes them)\n"),
                "\(text.stdout)")
        let json = try await TestSupport.geotrack(["outbox", "--json"], home: home)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["dead_letters"] as? Int == 1)
        #expect(object["dead_letter_reason"] as? String == "publishing to #: Invalid input.")
        let clear = try await TestSupport.geotrack(["outbox", "clear", destination], home: home)
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(try await TestSupport.geotrack(["outbox", "--json"], home: home).stdout.isEmpty)
    }

    @Test("--publish-interval outside 1 s to a year is a usage error", arguments: ["0", "-1", "31622401", "1.5"])
    func badInterval(value: String) async throws {
        let run = try await TestSupport.geotrack(["replay", try Corpus.path("haicom-305N.nmea"), "--publish", "mqtt://127.0.0.1:1",
                                            "--publish-interval=" + value], home: try TestSupport.temporaryDirectory())
        #expect(run.status == 64, "\(value): \(run.stderr)")
        #expect(run.stderr.contains("--publish-interval"), "\(run.stderr)")
    }

    @Test("an outbox folder another user owns is refused, exit 73, naming the owner; outbox lists refuse it too")
    func outboxFolderOwnedByAnother() async throws {
        try #require(geteuid() == 0, "giving a folder to another user needs root")
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://b:1883/owntracks/a/b", topic: "owntracks/a/b", payload: [1], retain: false,
                                         created: Date(timeIntervalSince1970: 1_700_000_000)))
        outbox.close()
        #expect(chown(folder, 65_534, 65_534) == 0)
        let listed = try await TestSupport.geotrack(["outbox"], home: home)
        #expect(listed.status == 73, "\(listed.stderr)")
        #expect(listed.stderr == "geotrack: refusing the outbox in \(folder): the folder \(folder) belongs to user 65534, not to you (0); use a folder of your own (XDG_STATE_HOME)\n")
        #expect(listed.stdout.isEmpty)
    }
}

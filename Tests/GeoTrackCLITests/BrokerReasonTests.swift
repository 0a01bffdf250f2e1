import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// Why a broker cannot be reached is named, in the same words wherever it is told.
@Suite("broker reasons named")
struct BrokerReasonTests {
    @Test("outbox flush to a host that does not resolve (.invalid) says so, exit 69")
    func flushHostNotFound() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://no-such-broker.invalid:1883/owntracks/ann/van", topic: "owntracks/ann/van",
                                         payload: Array("{}".utf8), retain: false, created: Date()))
        outbox.close()
        // --timeout is the wait's bound, not a claim on timing: the name fails at once here.
        let run = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "5"], home: home)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr == "geotrack: 1 message still wait for mqtt://no-such-broker.invalid:1883/owntracks/ann/van: cannot connect to mqtt://no-such-broker.invalid:1883: the broker's host name was not found: check the URL, and the network; then flush again\n")
    }

    @Test("outbox flush to a port nothing listens on says the connection was refused, exit 69")
    func flushRefused() async throws {
        let home = try TestSupport.temporaryDirectory()
        // outbox flush sends queued positions only while access is granted.
        try await TestSupport.grantAccess(home: home)
        let port = try GeoTrackTesting.GPSFake.freePort()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://127.0.0.1:\(port)/owntracks/ann/van", topic: "owntracks/ann/van",
                                         payload: Array("{}".utf8), retain: false, created: Date()))
        outbox.close()
        let run = try await TestSupport.geotrack(["outbox", "flush", "--timeout", "3"], home: home)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("cannot connect to mqtt://127.0.0.1:\(port): the broker's host refused the connection: check the URL's port, and that the broker runs"),
                "\(run.stderr)")
    }

    @Test("a broker that refuses the login is said to on every status line after, not 'unreachable' between its refused retries")
    func refusedOnTheStatusLine() async throws {
        let broker = try await Mosquitto(users: ["alice": "right"])
        let home = try TestSupport.temporaryDirectory()
        let password = home.appendingPathComponent("password").path
        try "wrong\n".write(toFile: password, atomically: true, encoding: .utf8)
        let walk = TestSupport.packageRoot.appendingPathComponent("Tests/GeoTrackCLITests/Logs/walk.nmea").path
        let run = try await TestSupport.geotrack(["replay", walk, "--speed", "20", "--count", "40", "--publish", "mqtt://alice@127.0.0.1:\(broker.port)",
                                            "--publish-password-file", password, "--publish-user", "alice", "--publish-device", "pi"],
                                           home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        let first = try #require(lines.firstIndex { $0.contains("broker refused the login") }, "\(run.stdout)")
        #expect(lines[first...].allSatisfy { $0.contains("queued, broker refused the login") }, "\(run.stdout)")
        #expect(run.stderr.contains("(the broker refused the login: not authorized"), "\(run.stderr)")
    }
}

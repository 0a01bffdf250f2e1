import Foundation
import GeoTrackTesting
import Outbox
import Testing

/// Why a broker cannot be reached is named, in the same words wherever it is told.
@Suite("broker reasons named")
struct BrokerReasonTests {
    @Test("outbox flush to a host that does not resolve (.invalid) says so, exit 69")
    func flushHostNotFound() throws {
        let home = try TestSupport.temporaryDirectory()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://no-such-broker.invalid:1883/owntracks/ann/van", topic: "owntracks/ann/van",
                                         payload: Array("{}".utf8), retain: false, created: Date()))
        outbox.close()
        // --timeout is the wait's bound, not a claim on timing: the name fails at once here.
        let run = try TestSupport.geotrack(["outbox", "flush", "--timeout", "5"], home: home)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr == "geotrack: 1 message still wait for mqtt://no-such-broker.invalid:1883/owntracks/ann/van: cannot connect to mqtt://no-such-broker.invalid:1883: the broker's host name was not found: check the URL, and the network; then flush again\n")
    }

    @Test("outbox flush to a port nothing listens on says the connection was refused, exit 69")
    func flushRefused() throws {
        let home = try TestSupport.temporaryDirectory()
        let port = try GeoTrackTesting.GPSFake.freePort()
        let folder = home.appendingPathComponent("state/geotrack").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let outbox = try Outbox(path: folder + "/outbox.sqlite")
        try outbox.enqueue(OutboxMessage(destination: "mqtt://127.0.0.1:\(port)/owntracks/ann/van", topic: "owntracks/ann/van",
                                         payload: Array("{}".utf8), retain: false, created: Date()))
        outbox.close()
        let run = try TestSupport.geotrack(["outbox", "flush", "--timeout", "3"], home: home)
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("cannot connect to mqtt://127.0.0.1:\(port): the broker's host refused the connection: check the URL's port, and that the broker runs"),
                "\(run.stderr)")
    }
}

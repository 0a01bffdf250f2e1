import Foundation
import GPSReports
import GeoTrackService
import Publishing
import Synchronization
import Testing
@testable import GeoTrackCLI

/// The rule for what the status line says of `--publish`, and how the status display shows it.
@Suite("Publishing on the status line: the rule and the drawing")
struct PublishingMonitorTests {
    /// Everything the monitor told, in order.
    final class Told: Sendable {
        let statuses = Mutex<[PublishingStatus?]>([])
        func record(_ status: PublishingStatus?) { statuses.withLock { $0.append(status) } }
        var all: [PublishingStatus?] { statuses.withLock { $0 } }
    }

    @Test("messages set aside as undeliverable (Traccar's 400) are on the line with the status, alone or after what waits")
    func setAsideOnTheLine() {
        let monitor = PublishingMonitor()
        monitor.start("t", waiting: 3, party: "server")
        monitor.sender("t", reported: .connected)
        #expect(monitor.status == nil)
        let reason = "the server answered 400 (Bad Request): it cannot take this message"
        monitor.sender("t", reported: .setAside(reason: reason))
        monitor.sender("t", reported: .setAside(reason: reason))
        #expect(monitor.status?.text == "2 set aside as undeliverable: the server answered 400 (Bad Request)")
        monitor.sender("t", reported: .unavailable(reason: "the server answered 503 (Service Unavailable): check the server's log"))
        #expect(monitor.status?.text == "1 queued, the server answered 503 (Service Unavailable); 2 set aside as undeliverable: the server answered 400 (Bad Request)")
    }

    @Test("no more are said to wait than the outbox keeps: past its limit it drops the oldest")
    func waitingStopsAtTheOutboxLimit() {
        let monitor = PublishingMonitor()
        monitor.start("b", waiting: 99_998, limit: 100_000)
        monitor.sender("b", reported: .unreachable)
        for _ in 0..<50 { monitor.queued(1, for: "b") }
        #expect(monitor.status?.text.hasPrefix("100000 queued") == true, "\(String(describing: monitor.status?.text))")
    }

    @Test("a named reason (a host not found) is what the line says, kept across the retries' losses until connected")
    func namedReason() {
        let monitor = PublishingMonitor()
        monitor.start("a", waiting: 2)
        monitor.sender("a", reported: .unreachable)
        // libmosquitto 2.0.11's code for a name getaddrinfo did not find (MOSQ_ERR_EAI).
        monitor.sender("a", reported: .failed(code: 15))
        #expect(monitor.status?.text == "2 queued, the broker's host name was not found")
        monitor.sender("a", reported: .unreachable)
        #expect(monitor.status?.text == "2 queued, the broker's host name was not found")
        monitor.sender("a", reported: .connected)
        #expect(monitor.status == nil)
        monitor.sender("a", reported: .unreachable)
        #expect(monitor.status?.text == "2 queued, broker unreachable")
    }

    @Test("a broker that refuses the login is said to, across the disconnect after each refused retry, until connected")
    func refusalKept() {
        let monitor = PublishingMonitor()
        monitor.start("m", waiting: 4)
        monitor.sender("m", reported: .refused(code: 5))
        #expect(monitor.status?.text == "4 queued, broker refused the login")
        monitor.sender("m", reported: .unreachable)
        #expect(monitor.status?.text == "4 queued, broker refused the login")
        monitor.sender("m", reported: .refused(code: 5))
        monitor.sender("m", reported: .unreachable)
        #expect(monitor.status?.text == "4 queued, broker refused the login")
        monitor.sender("m", reported: .connected)
        #expect(monitor.status == nil)
        monitor.sender("m", reported: .unreachable)
        #expect(monitor.status?.text == "4 queued, broker unreachable")
    }

    @Test("an HTTP server: the reason the sender names, cut before what to check; a refused login is the server's")
    func httpServer() {
        let monitor = PublishingMonitor()
        monitor.start("h", waiting: 3, party: "server")
        monitor.sender("h", reported: .unreachable)
        #expect(monitor.status?.text == "3 queued, server unreachable")
        monitor.sender("h", reported: .unavailable(reason: "the server's host refused the connection: check the URL's port, and that the server runs"))
        #expect(monitor.status?.text == "3 queued, the server's host refused the connection")
        monitor.sender("h", reported: .unreachable)
        #expect(monitor.status?.text == "3 queued, the server's host refused the connection")
        monitor.sender("h", reported: .refused(code: 401))
        #expect(monitor.status?.text == "3 queued, server refused the login")
        monitor.sender("h", reported: .connected)
        monitor.sender("h", reported: .delivered(3))
        #expect(monitor.status == nil)
    }

    @Test("nothing while the broker connects the first time or is connected; the backlog once it cannot be reached")
    func rule() {
        let monitor = PublishingMonitor()
        let told = Told()
        monitor.start("a", waiting: 2)
        monitor.observe { told.record($0) }
        monitor.queued(1, for: "a")
        #expect(monitor.status == nil, "connecting: the messages wait only for the round trip")
        monitor.sender("a", reported: .unreachable)
        #expect(monitor.status == PublishingStatus(queued: 3, problem: "broker unreachable"))
        monitor.queued(1, for: "a")
        #expect(monitor.status?.text == "4 queued, broker unreachable")
        monitor.sender("a", reported: .connected)
        #expect(monitor.status == nil)
        monitor.sender("a", reported: .delivered(3))
        monitor.sender("a", reported: .unreachable)
        #expect(monitor.status?.queued == 1)
        monitor.sender("a", reported: .delivered(5))
        #expect(monitor.status == nil, "nothing waits: nothing to say, and never a negative count")
        #expect(told.all == [nil, PublishingStatus(queued: 3, problem: "broker unreachable"),
                             PublishingStatus(queued: 4, problem: "broker unreachable"), nil,
                             PublishingStatus(queued: 1, problem: "broker unreachable"), nil])
    }

    @Test("two brokers: what waits for those that cannot take it, a refusal named first")
    func twoBrokers() {
        let monitor = PublishingMonitor()
        monitor.start("a", waiting: 0)
        monitor.start("b", waiting: 0)
        monitor.queued(5, for: "a")
        monitor.queued(5, for: "b")
        monitor.sender("a", reported: .connected)
        monitor.sender("b", reported: .unreachable)
        #expect(monitor.status == PublishingStatus(queued: 5, problem: "broker unreachable"))
        monitor.sender("a", reported: .refused(code: 5))
        #expect(monitor.status == PublishingStatus(queued: 10, problem: "broker refused the login"))
    }

    /// A display on a pipe, 80 columns, with a clock the test moves: the status display's own harness.
    static func screen() -> StatusDisplayTests.Harness {
        let harness = StatusDisplayTests.Harness()
        harness.columns.withLock { $0 = 80 }
        return harness
    }

    static let refused = TrackingStatus.unreachable(.connectionRefused(host: "localhost", port: 2947), retryingIn: nil)

    @Test("on a terminal, beside a gpsd problem at 80 columns, the reason and hint keep their room")
    func terminal() {
        let screen = Self.screen()
        let display = screen.display(.terminal, interval: 0.15)
        display.show(Self.refused)
        screen.seconds.withLock { $0 += 1 }
        display.showPublishing(PublishingStatus(queued: 55, problem: "broker unreachable"))
        screen.seconds.withLock { $0 += 1 }
        display.showPublishing(PublishingStatus(queued: 56, problem: "broker unreachable"))
        screen.seconds.withLock { $0 += 1 }
        display.showPublishing(nil)
        display.finish()
        let draws = StatusDisplayTests.draws(screen.output()).filter { $0.hasSuffix("\u{1B}[J") }
        // At 80 columns a gpsd problem's reason and hint come first: the backlog gives way, and
        // a line that reads the same is not written again.
        #expect(draws == ["gpsd unreachable: connection refused at localhost:2947 (is gpsd running?)\u{1B}[J"])
    }

    @Test("beside a fix, the backlog shows at 80 columns; a growing count is coalesced like fixes")
    func besideFix() {
        let screen = Self.screen()
        let display = screen.display(.terminal, interval: 0.15)
        display.show(StatusDisplayTests.fix(0))
        screen.seconds.withLock { $0 += 1 }
        display.showPublishing(PublishingStatus(queued: 1, problem: "broker unreachable"))
        // Within the redraw interval: held back, drawn at the end.
        display.showPublishing(PublishingStatus(queued: 2, problem: "broker unreachable"))
        display.finish()
        let draws = StatusDisplayTests.draws(screen.output()).filter { $0.hasSuffix("\u{1B}[J") }
        #expect(draws == ["3D  51.50000°N 0.12000°W  22:13:20Z\u{1B}[J",
                          "3D  51.50000°N 0.12000°W · 1 queued, broker unreachable  22:13:20Z\u{1B}[J",
                          "3D  51.50000°N 0.12000°W · 2 queued, broker unreachable  22:13:20Z\u{1B}[J"])
    }

    @Test("as plain lines, the broker's problem is a line; a count that grows waits for the next state")
    func lines() {
        let screen = Self.screen()
        let display = screen.display(.lines, interval: 0.15)
        display.show(StatusDisplayTests.fix(0))
        display.showPublishing(PublishingStatus(queued: 1, problem: "broker unreachable"))
        display.showPublishing(PublishingStatus(queued: 2, problem: "broker unreachable"))
        display.show(StatusDisplayTests.fix(1))
        display.finish()
        #expect(screen.output() == """
            3D  51.50000°N 0.12000°W  22:13:20Z
            3D  51.50000°N 0.12000°W · 1 queued, broker unreachable  22:13:20Z
            3D  51.50000°N 0.12000°W · 2 queued, broker unreachable  22:13:21Z

            """)
    }
}

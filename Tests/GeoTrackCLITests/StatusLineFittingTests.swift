import Foundation
import GPSReports
import GeoTrackService
import LocationKit
import Testing
@testable import GeoTrackCLI

/// A narrow line keeps the reason: the countdown and the least important parts give way first,
/// in the status line, the sky view's status and the fleet view's header alike.
@Suite("Status line fitting: the cause survives a narrow terminal")
struct StatusLineFittingTests {
    static let refused = TrackingStatus.unreachable(.connectionRefused(host: "localhost", port: 2947), retryingIn: .seconds(8))
    static let unknownHost = TrackingStatus.unreachable(.hostNotFound(host: "nohost.invalid", port: 2947), retryingIn: .seconds(8))

    static func line(_ status: TrackingStatus, publishing: PublishingStatus? = nil, width: Int?) -> String {
        StatusLine.render(status, publishing: publishing, width: width, options: RenderOptions())
    }

    @Test("gpsd refusing: the countdown goes first, then the command, the hint, the address; the reason stays", arguments: [
        (nil, "gpsd unreachable: connection refused at localhost:2947 (is gpsd running? sudo systemctl start gpsd)  retrying in 8s"),
        (200, "gpsd unreachable: connection refused at localhost:2947 (is gpsd running? sudo systemctl start gpsd)  retrying in 8s"),
        (100, "gpsd unreachable: connection refused at localhost:2947 (is gpsd running? sudo systemctl start gpsd)"),
        (80, "gpsd unreachable: connection refused at localhost:2947 (is gpsd running?)"),
        (74, "gpsd unreachable: connection refused at localhost:2947 (is gpsd running?)"),
        (73, "gpsd unreachable: connection refused at localhost:2947"),
        (60, "gpsd unreachable: connection refused at localhost:2947"),
        (40, "gpsd unreachable: connection refused"),
        (37, "gpsd unreachable: connection refused"),
        (30, "gpsd unreachable: connection…"),
    ] as [(Int?, String)])
    func refusedAtWidths(width: Int?, expected: String) {
        let line = Self.line(Self.refused, width: width)
        #expect(line == expected)
        if let width { #expect(line.count <= width - 1) }
    }

    @Test("an unknown host says the name does not resolve, at 80 columns and narrower", arguments: [
        (nil, "gpsd unreachable: host nohost.invalid does not resolve (check the host name)  retrying in 8s"),
        (80, "gpsd unreachable: host nohost.invalid does not resolve (check the host name)"),
        (60, "gpsd unreachable: host nohost.invalid does not resolve"),
        (40, "gpsd unreachable: host nohost.invalid…"),
    ] as [(Int?, String)])
    func unknownHostAtWidths(width: Int?, expected: String) {
        #expect(Self.line(Self.unknownHost, width: width) == expected)
    }

    @Test("an error without a short form keeps its whole message as the reason")
    func unstructuredError() {
        let status = TrackingStatus.unreachable(SourceError(.io, message: "the connection to gpsd was interrupted"),
                                                retryingIn: .seconds(2))
        #expect(Self.line(status, width: 80) == "gpsd unreachable: the connection to gpsd was interrupted  retrying in 2s")
        #expect(Self.line(status, width: 60) == "gpsd unreachable: the connection to gpsd was interrupted")
    }

    @Test("no answer and a lost connection keep their reason too")
    func otherReasons() {
        let noAnswer = TrackingStatus.unreachable(.noAnswer(host: "10.0.0.9", port: 2947, within: .seconds(5)), retryingIn: .seconds(4))
        #expect(Self.line(noAnswer, width: 80) == "gpsd unreachable: no answer in 5 s at 10.0.0.9:2947 (is gpsd listening there?)")
        let closed = TrackingStatus.unreachable(.connectionClosed(host: "localhost", port: 2947), retryingIn: .seconds(1))
        #expect(Self.line(closed, width: 80) == "gpsd unreachable: connection closed at localhost:2947  retrying in 1s")
    }

    @Test("publishing: the backlog follows a gpsd problem's hint and goes before it, after the countdown")
    func publishingBesideUnreachable() {
        let publishing = PublishingStatus(queued: 55, problem: "broker unreachable")
        #expect(Self.line(Self.refused, publishing: publishing, width: nil)
            == "gpsd unreachable: connection refused at localhost:2947 (is gpsd running? sudo systemctl start gpsd) · 55 queued, broker unreachable  retrying in 8s")
        #expect(Self.line(Self.refused, publishing: publishing, width: 120)
            == "gpsd unreachable: connection refused at localhost:2947 (is gpsd running?) · 55 queued, broker unreachable")
        // Short of room the backlog keeps its count, before the hint gives way.
        #expect(Self.line(Self.refused, publishing: publishing, width: 90)
            == "gpsd unreachable: connection refused at localhost:2947 (is gpsd running?) · 55 queued")
        #expect(Self.line(Self.refused, publishing: publishing, width: 80)
            == "gpsd unreachable: connection refused at localhost:2947 (is gpsd running?)")
    }

    @Test("publishing: with a fix, the backlog follows the accuracy and outlasts speed, altitude, heading, satellites and time")
    func publishingBesideFix() {
        let fix = fixStatus(StatusLineTests.sampleFix(), satellitesUsed: 8)
        let publishing = PublishingStatus(queued: 1, problem: "broker refused the login")
        #expect(Self.line(fix, publishing: publishing, width: nil)
            == "3D  51.50012°N 0.12346°W  ±4 m · 1 queued, broker refused the login  alt 45 m  36.0 km/h  275° W  8 sats  22:13:20.250Z")
        #expect(Self.line(fix, publishing: publishing, width: 80)
            == "3D  51.50012°N 0.12346°W  ±4 m · 1 queued, broker refused the login  36.0 km/h")
        #expect(Self.line(fix, publishing: publishing, width: 45) == "3D  51.50012°N 0.12346°W  ±4 m · 1 queued")
        #expect(Self.line(fix, publishing: publishing, width: 40) == "3D  51.50012°N 0.12346°W  ±4 m")
        #expect(Self.line(fix, publishing: nil, width: nil) == StatusLine.render(fix, width: nil, options: RenderOptions()))
    }

    @Test("publishing: on an 80-column terminal a long reason gives way, and the count stays")
    func publishingCountAt80Columns() {
        let fix = fixStatus(StatusLineTests.sampleFix(), satellitesUsed: 8)
        let publishing = PublishingStatus(queued: 20, problem: "the broker's host name was not found")
        #expect(Self.line(fix, publishing: publishing, width: 120)
            == "3D  51.50012°N 0.12346°W  ±4 m · 20 queued, the broker's host name was not found  alt 45 m  36.0 km/h  275° W  8 sats")
        #expect(Self.line(fix, publishing: publishing, width: 80) == "3D  51.50012°N 0.12346°W  ±4 m · 20 queued")
        // Messages set aside as undeliverable keep their count the same way, alone or beside a backlog.
        let aside = PublishingStatus(queued: 0, problem: "", setAside: 3, setAsideReason: "the server answered 400 (Bad Request)")
        #expect(Self.line(fix, publishing: aside, width: 80) == "3D  51.50012°N 0.12346°W  ±4 m · 3 set aside")
        let both = PublishingStatus(queued: 20, problem: "server unreachable", setAside: 3, setAsideReason: "the server answered 400 (Bad Request)")
        #expect(Self.line(fix, publishing: both, width: 80) == "3D  51.50012°N 0.12346°W  ±4 m · 20 queued; 3 set aside")
    }

    @Test("hostile text in an error's parts is made safe before the terminal")
    func hostileParts() {
        let error = SourceError(.io, message: "x", reason: "evil\u{1B}]0;pwned\u{07}", address: "h\u{1B}[2J:1")
        // Without a short reason the whole message is shown: it may carry a host name as given.
        let bare = SourceError(.io, message: "a\u{9B}b\u{1B}[2J")
        for status in [TrackingStatus.unreachable(error, retryingIn: nil), .unreachable(bare, retryingIn: nil), .failed(bare)] {
            let line = Self.line(status, width: nil)
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription)")
        }
    }

    @Test("the sky view wraps the reason on lines of its panel and shows no frozen countdown", arguments: [80, 60, 40])
    func skyStatus(width: Int) {
        var screen = SkyScreen(options: RenderOptions(sourceName: "gpsd at localhost:2947"))
        screen.apply(.status(Self.refused))
        let lines = screen.render(width: width, height: 24, color: false)
        let start = lines.firstIndex { $0.hasPrefix("Status") }
        #expect(start != nil)
        guard let start else { return }
        let panel = width >= SkyScreen.twoColumnMinimum ? SkyScreen.leftWidth : width - 1
        let values = lines[start...].prefix { $0.hasPrefix("Status") || $0.hasPrefix(String(repeating: " ", count: SkyScreen.labelWidth)) }
            .map { String($0.dropFirst(SkyScreen.labelWidth).prefix(panel - SkyScreen.labelWidth)).trimmingCharacters(in: .whitespaces) }
        let text = values.joined(separator: " ")
        #expect(text.hasPrefix("gpsd unreachable: connection refused at localhost:2947 (is gpsd running?"), "\(values)")
        #expect(!text.contains("retrying"), "\(values)")
        #expect(!text.contains("…"), "\(values)")
        #expect(lines.allSatisfy { $0.count <= width - 1 })
    }

    @Test("the sky view wraps a state wider than its panel at its spaces, never cutting the reason", arguments: [
        TrackingStatus.unreachable(.hostNotFound(host: "gps.harbour.example", port: 2947), retryingIn: nil),
        .noReceiver,
    ])
    func skyStatusWrapsLongParts(status: TrackingStatus) {
        var screen = SkyScreen(options: RenderOptions(sourceName: "gpsd at localhost:2947"))
        screen.apply(.status(status))
        let lines = screen.render(width: 80, height: 24, color: false)
        let start = lines.firstIndex { $0.hasPrefix("Status") } ?? 0
        let values = lines[start...].prefix { $0.hasPrefix("Status") || $0.hasPrefix(String(repeating: " ", count: SkyScreen.labelWidth)) }
            .map { String($0.dropFirst(SkyScreen.labelWidth).prefix(SkyScreen.leftWidth - SkyScreen.labelWidth)).trimmingCharacters(in: .whitespaces) }
        let text = values.joined(separator: " ")
        #expect(!text.contains("…"), "\(values)")
        #expect(text.contains("does not resolve") || text.contains("no GPS receiver attached to gpsd"), "\(values)")
        #expect(values.allSatisfy { $0.count <= SkyScreen.leftWidth - SkyScreen.labelWidth }, "\(values)")
    }

    @Test("fleet's header drops 'retrying', then the device count and the address, never the reason", arguments: [
        (nil, "fleet at mqtt://broker.example:1883 · 2 devices · not connected: connection refused, retrying"),
        (90, "fleet at mqtt://broker.example:1883 · 2 devices · not connected: connection refused"),
        (80, "fleet at mqtt://broker.example:1883 · not connected: connection refused"),
        (60, "not connected: connection refused"),
        (40, "not connected: connection refused"),
        (20, "not connected: con…"),
    ] as [(Int?, String)])
    func fleetHeader(width: Int?, expected: String) {
        let header = FleetScreen.header(broker: "mqtt://broker.example:1883", connected: false, devices: 2,
                                        problem: "connection refused", width: width)
        #expect(header == expected)
        if let width { #expect(header.count <= width - 1) }
    }

    @Test("fleet's header when connected: the count goes first, the address is cut, never dropped")
    func fleetHeaderConnected() {
        #expect(FleetScreen.header(broker: "mqtt://broker.example:1883", connected: true, devices: 2, width: 40)
            == "fleet at mqtt://broker.example:1883")
        #expect(FleetScreen.header(broker: "mqtt://broker.example:1883", connected: true, devices: 2, width: 20)
            == "fleet at mqtt://br…")
    }

    @Test("fleet's header: what to check goes before the count and the address, the reason after none", arguments: [
        (nil, "fleet at mqtts://b:8883 · 0 devices · not connected: the TLS handshake failed: check the CA, retrying"),
        (100, "fleet at mqtts://b:8883 · 0 devices · not connected: the TLS handshake failed: check the CA"),
        (80, "fleet at mqtts://b:8883 · 0 devices · not connected: the TLS handshake failed"),
        (70, "fleet at mqtts://b:8883 · not connected: the TLS handshake failed"),
        (45, "not connected: the TLS handshake failed"),
    ] as [(Int?, String)])
    func fleetHeaderAdvice(width: Int?, expected: String) {
        #expect(FleetScreen.header(broker: "mqtts://b:8883", connected: false, devices: 0,
                                   problem: "the TLS handshake failed: check the CA", width: width) == expected)
    }
}

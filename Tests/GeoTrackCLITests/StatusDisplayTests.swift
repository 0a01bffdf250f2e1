import Foundation
import GPSReports
import GeoTrackService
import LocationKit
import Synchronization
import Testing
@testable import GeoTrackCLI

@Suite("Status display: what reaches the terminal")
struct StatusDisplayTests {
    /// A pipe standing in for the terminal, and a clock the test moves.
    final class Harness: Sendable {
        let read: Int32
        let write: Int32
        let seconds = Mutex(100.0)
        let columns = Mutex<Int?>(40)

        init() {
            var fds: [Int32] = [0, 0]
            _ = pipe(&fds)
            read = fds[0]
            write = fds[1]
        }

        func display(_ mode: StatusDisplay.Mode, interval: Double = 0.05) -> StatusDisplay {
            StatusDisplay(mode: mode, options: RenderOptions(), descriptor: write,
                          width: { self.columns.withLock { $0 } }, now: { self.seconds.withLock { $0 } }, minimumRedrawInterval: interval)
        }

        /// Everything written so far.
        func output() -> String {
            close(write)
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = Foundation.read(read, &buffer, buffer.count)
                if count <= 0 { break }
                data += buffer[0..<count]
            }
            close(read)
            return String(decoding: data, as: UTF8.self)
        }

        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    /// The output cut at each carriage return, scalar by scalar: a `String` holds "\r\n" as one
    /// character, and a redraw ends with "\r" before the end's "\n".
    static func draws(_ output: String) -> [String] {
        output.unicodeScalars.split(separator: "\r", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }

    /// Whether `output` ends with `suffix`, byte for byte.
    static func endsWith(_ output: String, _ suffix: String) -> Bool {
        Array(output.utf8).suffix(suffix.utf8.count) == Array(suffix.utf8)
    }

    static func fix(_ second: Double) -> TrackingStatus {
        var fix = Fix(mode: .threeD, time: Date(timeIntervalSince1970: 1_700_000_000 + second))
        fix.latitude = 51.5
        fix.longitude = -0.12
        return fixStatus(fix)
    }

    @Test("beside JSON on stdout: one line on stderr per change of state, none per fix or per retry")
    func changesOnly() {
        let harness = Harness()
        let display = harness.display(.changes, interval: 0)
        let refused = SourceError.connectionRefused(host: "127.0.0.1", port: 9)
        display.show(.starting)
        for delay in [1, 2, 4, 8] {
            display.show(.unreachable(refused, retryingIn: nil))
            display.show(.unreachable(refused, retryingIn: .seconds(delay)))
            display.tick()
            harness.advance(1)
        }
        display.show(.unreachable(.timedOut(host: "127.0.0.1", port: 9), retryingIn: .seconds(8)))
        display.show(.searching(seen: 3, used: 0))
        display.show(.searching(seen: 5, used: 2))
        for second in 0..<5 { display.show(Self.fix(Double(second))) }
        display.event(.init(.disconnected(refused), at: Date(timeIntervalSince1970: 0)))
        display.show(.stale(nil))
        display.show(Self.fix(9))
        display.finish()
        let lines = harness.output().split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("geotrack: ") })
        #expect(lines.filter { $0.contains("connection refused") }.count == 1)
        #expect(lines.filter { $0.contains("no answer") }.count == 1)
        #expect(!lines.contains { $0.contains("retrying") && $0.contains("connection refused") && $0 != lines[1] })
        #expect(lines.filter { $0.contains("51.5") }.count == 2)
    }

    @Test("on a terminal: hidden cursor, each redraw from the line's start with clear-to-end-of-screen and back to its start, events above, cursor back at the end")
    func terminal() {
        let harness = Harness()
        let display = harness.display(.terminal)
        display.show(.searching(seen: 5, used: 0))
        harness.advance(1)
        display.show(Self.fix(0))
        display.event(TrackingEvent(.regionEntered("home"), at: Date(timeIntervalSince1970: 1_700_000_000)))
        display.finish()
        let expected = "\u{1B}[?25l"
            + "\rsearching  satellites: 5 seen, 0 used\u{1B}[J\r"
            + "\r3D  51.50000°N 0.12000°W  22:13:20Z\u{1B}[J\r"
            + "\r\u{1B}[J22:13:20Z entered region home\n"
            + "\r3D  51.50000°N 0.12000°W  22:13:20Z\u{1B}[J\r"
            + "\n\u{1B}[?25h"
        #expect(harness.output() == expected)
    }

    @Test("on a terminal, a replay's end keeps its last position on screen, the very last even if held back, and says the end below it")
    func endKeepsLastFix() {
        let harness = Harness()
        let display = harness.display(.terminal, interval: 0.2)
        display.show(Self.fix(0))
        // Within the redraw interval: held back, but it is where the replay ended.
        display.show(Self.fix(1))
        display.show(.finished)
        display.finish()
        let expected = "\u{1B}[?25l"
            + "\r3D  51.50000°N 0.12000°W  22:13:20Z\u{1B}[J\r"
            + "\r3D  51.50000°N 0.12000°W  22:13:21Z\u{1B}[J\r"
            + "\n"
            + "\rend of the source\u{1B}[J\r"
            + "\n\u{1B}[?25h"
        let output = harness.output()
        #expect(output == expected, "\(output.debugDescription)")
    }

    @Test("--quiet (changes): gpsd's return is a line of its own, even when the status stays the same; other events are not")
    func changesSayReconnection() {
        let harness = Harness()
        let display = harness.display(.changes)
        let refused = SourceError.connectionRefused(host: "localhost", port: 2947)
        display.show(.unreachable(refused, retryingIn: nil))
        display.event(TrackingEvent(.reconnected, at: Date(timeIntervalSince1970: 1_700_000_000)))
        display.event(TrackingEvent(.regionEntered("home"), at: Date(timeIntervalSince1970: 1_700_000_001)))
        display.finish()
        let lines = harness.output().split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last == "geotrack: 22:13:20Z reconnected to the source", "\(lines)")
    }

    @Test("not a terminal: one plain line per change, nothing repeated, no escape codes")
    func lines() {
        let harness = Harness()
        let display = harness.display(.lines)
        display.show(.searching(seen: 5, used: 0))
        display.show(.searching(seen: 5, used: 0))
        display.show(Self.fix(0))
        display.finish()
        #expect(harness.output() == "searching  satellites: 5 seen, 0 used\n3D  51.50000°N 0.12000°W  22:13:20Z\n")
    }

    @Test("a tick is due only for a held-back line or a countdown's next second; idle, none is")
    func nextTick() {
        let harness = Harness()
        let display = harness.display(.terminal, interval: 0.2)
        #expect(display.nextTick == nil)
        display.show(Self.fix(0))
        #expect(display.nextTick == nil)
        harness.advance(0.05)
        display.show(Self.fix(1))
        #expect(abs((display.nextTick ?? -1) - 0.15) < 1e-9)
        harness.advance(0.2)
        #expect(display.nextTick == 0)
        display.tick()
        #expect(display.nextTick == nil)
        display.show(.noReceiver)
        #expect(display.nextTick == nil)
        display.show(.unreachable(SourceError(.io, message: "refused"), retryingIn: .seconds(3)))
        #expect(display.nextTick == 1)
        harness.advance(0.25)
        #expect(abs((display.nextTick ?? -1) - 0.75) < 1e-9)
        harness.advance(2.75)
        #expect(display.nextTick == nil)
        display.show(.unreachable(SourceError(.io, message: "refused"), retryingIn: .seconds(2)))
        display.finish()
        #expect(display.nextTick == nil)
        _ = harness.output()
    }

    @Test("as plain lines nothing is ever held back or counted down")
    func nextTickAsLines() {
        let harness = Harness()
        let display = harness.display(.lines)
        display.show(Self.fix(0))
        display.show(Self.fix(1))
        display.show(.unreachable(SourceError(.io, message: "refused"), retryingIn: .seconds(3)))
        #expect(display.nextTick == nil)
        display.finish()
        _ = harness.output()
    }

    /// What a display in `mode` writes for gpsd unreachable with a retry in 3 s, ticked at 1.1 s and 2.1 s.
    static func countdownOutput(_ mode: StatusDisplay.Mode) -> String {
        let harness = Harness()
        // Wide enough for the countdown, which is the first thing a narrow line drops.
        harness.columns.withLock { $0 = 80 }
        let display = harness.display(mode)
        display.show(.unreachable(SourceError(.io, message: "refused"), retryingIn: .seconds(3)))
        harness.advance(1.1)
        display.tick()
        harness.advance(1)
        display.tick()
        display.finish()
        return harness.output()
    }

    @Test("the retry countdown counts down on a terminal; as plain lines it is said once, not once a second")
    func countdown() {
        let draws = Self.draws(Self.countdownOutput(.terminal)).dropFirst()
            .map { $0.replacingOccurrences(of: "\u{1B}[J", with: "") }
        for seconds in [3, 2, 1] {
            #expect(draws.contains { $0 == "gpsd unreachable: refused  retrying in \(seconds)s" }, "\(draws)")
        }
        #expect(Self.countdownOutput(.lines) == "gpsd unreachable: refused  retrying in 3s\n")
    }

    @Test("as plain lines, losing gpsd and the retry planned with it are one line per attempt; a loss with no plan is still said")
    func oneLinePerAttempt() {
        let refused = SourceError(.io, message: "refused")
        let harness = Harness()
        let display = harness.display(.lines)
        for delay in [1, 2, 4] {
            display.show(.unreachable(refused, retryingIn: nil))
            display.show(.unreachable(refused, retryingIn: .seconds(delay)))
            harness.advance(Double(delay))
            display.tick()
        }
        // A loss with no retry planned (the last attempt, or another failure): said once the
        // wait for a plan is over, before what comes next, or at the end.
        display.show(.unreachable(refused, retryingIn: nil))
        #expect(display.nextTick == StatusDisplay.retryPlanWait)
        harness.advance(StatusDisplay.retryPlanWait)
        display.tick()
        display.show(Self.fix(0))
        display.show(.unreachable(SourceError(.io, message: "closed"), retryingIn: nil))
        display.show(.finished)
        display.show(.unreachable(refused, retryingIn: nil))
        display.finish()
        let lines = harness.output().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(4)) == ["gpsd unreachable: refused  retrying in 1s", "gpsd unreachable: refused  retrying in 2s",
                                           "gpsd unreachable: refused  retrying in 4s", "gpsd unreachable: refused"])
        #expect(lines.count == 9, "\(lines)")
        #expect(lines[5] == "gpsd unreachable: closed")
        #expect(lines[7] == "gpsd unreachable: refused")
        #expect(lines.last == "")
    }

    @Test("a burst of fixes is coalesced on a terminal, and the last one is drawn at the end")
    func coalescing() {
        let harness = Harness()
        let display = harness.display(.terminal)
        for second in 0..<100 {
            display.show(Self.fix(Double(second)))
        }
        display.finish()
        let output = harness.output()
        // Two draws, each from the line's start and back to it.
        #expect(Self.draws(output).filter { $0.hasSuffix("\u{1B}[J") }.count == 2)
        #expect(Self.draws(output).count - 1 == 4)
        #expect(output.contains("22:14:59Z"))
    }

    @Test("a resize refits the line; suspend gives the terminal back and resume redraws")
    func resizeAndSuspend() {
        let harness = Harness()
        harness.columns.withLock { $0 = 80 }
        let display = harness.display(.terminal)
        display.show(.unreachable(SourceError(.io, message: "cannot connect to gpsd at localhost:2947: connection refused"),
                                  retryingIn: nil))
        harness.columns.withLock { $0 = 20 }
        display.resize()
        display.suspend()
        display.resume()
        display.finish()
        let output = harness.output()
        let draws = Self.draws(output).dropFirst()
        #expect(draws.contains { $0 == "gpsd unreachable: cannot connect to gpsd at localhost:2947: connection refused\u{1B}[J" })
        // Too narrow even for the reason: cut, and marked.
        #expect(draws.contains { $0 == "gpsd unreachable: …\u{1B}[J" })
        #expect(output.contains("\u{1B}[J\u{1B}[?25h\u{1B}[?25l"))
        #expect(Self.endsWith(output, "\n\u{1B}[?25h"))
    }
}

@Suite("Progress bar")
struct ProgressBarTests {
    @Test("fits the width and counts points")
    func render() {
        #expect(ProgressBar.render(done: 50, total: 200, width: 40) == "[####.............]  25%  50/200 points")
        #expect(ProgressBar.render(done: 200, total: 200, width: 40) == "[################] 100%  200/200 points")
        for width in [10, 20, 40, 80] {
            #expect(ProgressBar.render(done: 7, total: 9_999, width: width).count <= width - 1)
        }
    }
}

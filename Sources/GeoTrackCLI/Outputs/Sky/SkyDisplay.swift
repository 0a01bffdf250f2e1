import FoundationEssentials
import GPSReports
import GeoTrackService
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Shows the ``SkyScreen`` full screen, as cgps does: in the terminal's alternate screen,
/// redrawn in place and fitted to the window, with the terminal given back as it was on exit,
/// on Ctrl-Z and on Ctrl-C. Not on a terminal, it writes one snapshot of the screen at the end.
///
/// Layout is ``SkyScreen/render(width:height:color:hint:)``; this type decides when to draw
/// and writes only the rows that changed. Writes happen under its lock so that frames never
/// interleave.
package final class SkyDisplay: Sendable {
    /// Where the view goes.
    package enum Mode: Sendable, Equatable {
        /// A terminal: the alternate screen, redrawn in place.
        case terminal
        /// A file or a pipe: the last screen, once, when the run ends, `width` columns wide.
        case snapshot(width: Int)
    }

    private struct State {
        var screen: SkyScreen
        var size: (width: Int, height: Int)?
        var shown: [String] = []
        var lastDraw = -Double.infinity
        var pending = false
        var entered = false
        var suspended = false
        var finished = false
        var outputClosed = false
    }

    /// The mode chosen at start.
    package let mode: Mode
    private let descriptor: Int32
    private let color: Bool
    private let size: @Sendable () -> (width: Int, height: Int)?
    private let now: @Sendable () -> Double
    private let minimumRedrawInterval: Double
    private let terminalMode: TerminalMode?
    private let state: Mutex<State>

    static let hint = "Ctrl-C quits"

    /// Creates the display; on a terminal it takes the alternate screen at once.
    /// - Parameters:
    ///   - size: the window's columns and rows, asked at start and on every resize.
    ///   - minimumRedrawInterval: redraws closer together than this are held back until the
    ///     next update after it, the next tick or the end (a fast replay sends thousands a second).
    package init(mode: Mode, screen: SkyScreen, color: Bool, descriptor: Int32 = STDOUT_FILENO,
                 size: @escaping @Sendable () -> (width: Int, height: Int)? = SkyDisplay.windowSize(STDOUT_FILENO),
                 now: @escaping @Sendable () -> Double = MonotonicClock.seconds,
                 minimumRedrawInterval: Double = 0.1, terminalMode: TerminalMode? = nil) {
        self.mode = mode
        self.descriptor = descriptor
        self.color = color
        self.size = size
        self.now = now
        self.minimumRedrawInterval = minimumRedrawInterval
        self.terminalMode = mode == .terminal ? terminalMode : nil
        state = Mutex(State(screen: screen, size: mode == .terminal ? size() : nil))
        if mode == .terminal {
            state.withLock { enter(&$0) }
        }
    }

    /// The size of the terminal on `descriptor`, for ``init(mode:screen:color:descriptor:size:now:minimumRedrawInterval:terminalMode:)``.
    package static func windowSize(_ descriptor: Int32) -> @Sendable () -> (width: Int, height: Int)? {
        {
            guard let width = Terminal.columns(descriptor), let height = Terminal.rows(descriptor) else { return nil }
            return (width, height)
        }
    }

    /// Whether a write failed because nobody reads the output any more.
    package var isClosed: Bool { state.withLock { $0.outputClosed } }

    private func update(_ update: TrackingUpdate) {
        let now = now()
        state.withLock { state in
            guard !state.finished else { return }
            state.screen.apply(update)
            guard mode == .terminal else { return }
            if now - state.lastDraw < minimumRedrawInterval {
                state.pending = true
            } else {
                draw(&state, now: now)
            }
        }
    }

    private func enter(_ state: inout State) {
        terminalMode?.quiet()
        write(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen, &state)
        state.entered = true
        state.shown = []
    }

    private func leave(_ state: inout State) {
        guard state.entered else { return }
        write(ANSI.leaveAlternateScreen + ANSI.showCursor, &state)
        terminalMode?.restore()
        state.entered = false
    }

    /// Writes the rows that differ from what is on screen, each at its place.
    private func draw(_ state: inout State, now: Double) {
        guard state.entered, !state.suspended, let size = state.size else { return }
        state.pending = false
        state.lastDraw = now
        let lines = state.screen.render(width: size.width, height: size.height, color: color, hint: Self.hint)
        var text = ""
        for (row, line) in lines.enumerated() where row >= state.shown.count || state.shown[row] != line {
            text += ANSI.moveTo(row: row + 1, column: 1) + line + ANSI.clearToEndOfLine
        }
        // Rows the new frame no longer uses (the window got shorter) are cleared.
        for row in stride(from: lines.count, to: state.shown.count, by: 1) {
            text += ANSI.moveTo(row: row + 1, column: 1) + ANSI.clearToEndOfLine
        }
        state.shown = lines
        if !text.isEmpty { write(text, &state) }
    }

    private func write(_ text: String, _ state: inout State) {
        if !Terminal.write(text, to: descriptor) { state.outputClosed = true }
    }

    /// Seconds until ``tick()`` has something to draw (the frame held back by the redraw
    /// interval); `nil` while nothing is held back.
    package var nextTick: Double? {
        let now = now()
        return state.withLock { state -> Double? in
            guard state.pending, !state.finished, !state.suspended else { return nil }
            return max(0, state.lastDraw + minimumRedrawInterval - now)
        }
    }

    /// Draws what was held back.
    package func tick() {
        let now = now()
        state.withLock { state in
            guard state.pending else { return }
            draw(&state, now: now)
        }
    }

    /// Clears the screen and draws it again at the window's new size.
    package func resize() {
        guard mode == .terminal else { return }
        let size = size()
        let now = now()
        state.withLock { state in
            guard state.entered, !state.suspended else { return }
            state.size = size
            state.shown = []
            write(ANSI.clearScreen, &state)
            draw(&state, now: now)
        }
    }

    /// Gives the normal screen, the cursor and the terminal's settings back before the process stops.
    package func suspend() {
        guard mode == .terminal else { return }
        state.withLock { state in
            guard !state.finished, !state.suspended else { return }
            leave(&state)
            state.suspended = true
        }
    }

    /// Takes the alternate screen again and redraws, at the size the window has now.
    package func resume() {
        guard mode == .terminal else { return }
        let size = size()
        let now = now()
        state.withLock { state in
            guard !state.finished, state.suspended else { return }
            state.suspended = false
            state.size = size
            enter(&state)
            draw(&state, now: now)
        }
    }

    /// Restores the terminal. When the source ended by itself (a replay's end), its last screen
    /// is printed on the normal screen, where it stays; Ctrl-C leaves the terminal as it was.
    /// Not on a terminal, writes the snapshot.
    package func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            switch mode {
            case .terminal:
                leave(&state)
                guard case .finished = state.screen.status, let size = state.size else { return }
                // One row less than the window, for the shell's prompt after it.
                let lines = state.screen.render(width: size.width, height: max(1, size.height - 1), color: color)
                write(lines.joined(separator: "\n") + "\n", &state)
            case .snapshot(let width):
                let lines = state.screen.render(width: width, height: nil, color: false)
                write(lines.joined(separator: "\n") + "\n", &state)
            }
        }
    }
}

extension SkyDisplay: TrackerDisplay {
    /// Shows a new status.
    package func show(_ status: TrackingStatus) { update(.status(status)) }
    /// Notes the event on the screen.
    package func event(_ event: TrackingEvent) { update(.event(event)) }
    /// Takes in satellites and receivers.
    package func report(_ report: Report) { update(.report(report)) }
}

import FoundationEssentials
import GeoTrackService
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Shows the status line on a terminal, redrawn in place, with event lines printed above it;
/// or, when the output is not a terminal, as plain lines, one per change.
///
/// Rendering is ``StatusLine/render(_:width:options:)``; this type only decides when to draw
/// and writes. Its writes happen under its lock on purpose: the terminal must receive the
/// lines in the order the states were decided, and a redraw is one short `write(2)`.
package final class StatusDisplay: Sendable {
    /// Where the status goes.
    package enum Mode: Sendable, Equatable {
        /// A terminal: one line, redrawn in place, fitted to the width.
        case terminal
        /// A pipe or file: a plain line per change.
        case lines
        /// Nothing (stdout carries JSON, and nobody needs to hear of changes).
        case silent
        /// While stdout carries data (JSON lines), one plain line per change of state on this
        /// display's descriptor (stderr): a first fix, losing gpsd, a stale fix, the end. A
        /// fix after a fix, or another attempt while gpsd stays down, is no change.
        case changes
    }

    private struct State {
        var status: TrackingStatus?
        var publishing: PublishingStatus?
        var retryDeadline: Double?
        var width: Int?
        var lastLine: String?
        var lastDraw = -Double.infinity
        var pending = false
        /// As plain lines, a publishing count changed that no line has shown yet: the last line,
        /// at ``finish()``, shows it, so that it agrees with the notes printed after it.
        var publishingUnshown = false
        var drawn = false
        var suspended = false
        var finished = false
        /// A write failed: nobody reads the output any more.
        var outputClosed = false
        /// In ``Mode/changes``, the state last reported.
        var lastChange: String?
        /// As plain lines, when a "gpsd unreachable" with no retry planned yet is printed if no
        /// retry plan has replaced it by then.
        var heldUntil: Double?
    }

    /// The mode chosen at start.
    package let mode: Mode
    private let options: RenderOptions
    private let descriptor: Int32
    private let width: @Sendable () -> Int?
    private let now: @Sendable () -> Double
    private let state: Mutex<State>
    private let terminalMode: TerminalMode?
    /// On a terminal, fix-to-fix redraws closer together than this are coalesced: a fast replay
    /// would otherwise redraw thousands of times a second, and a 10 Hz receiver ten times, faster
    /// than anyone reads a line. The latest fix is drawn with the next one after the interval,
    /// on the next tick, or at the end, so what is on screen is at most one fix behind.
    private let minimumRedrawInterval: Double
    /// As plain lines, how long "gpsd unreachable" waits for the retry plan that follows it at
    /// once (the client says both together), so that a log gets one line per attempt, not two.
    static let retryPlanWait = 0.5

    /// Creates a display writing to `descriptor`; `width` is asked on start and on every resize.
    package init(mode: Mode, options: RenderOptions, descriptor: Int32 = STDOUT_FILENO,
                 width: @escaping @Sendable () -> Int? = { Terminal.columns(STDOUT_FILENO) },
                 now: @escaping @Sendable () -> Double = MonotonicClock.seconds,
                 minimumRedrawInterval: Double = 0.15, terminalMode: TerminalMode? = nil) {
        self.mode = mode
        self.minimumRedrawInterval = mode == .terminal ? minimumRedrawInterval : 0
        self.options = options
        self.descriptor = descriptor
        self.width = width
        self.now = now
        self.state = Mutex(State(width: mode == .terminal ? width() : nil))
        self.terminalMode = mode == .terminal ? terminalMode : nil
        if mode == .terminal {
            self.terminalMode?.quiet()
            Terminal.write(ANSI.hideCursor, to: descriptor)
        }
    }

    /// Whether a write failed because nobody reads the output any more (`… | head -1`).
    package var isClosed: Bool { state.withLock { $0.outputClosed } }

    /// Shows a new state.
    package func show(_ status: TrackingStatus) {
        let now = now()
        state.withLock { state in
            guard !state.finished else { return }
            if mode == .lines {
                if state.heldUntil != nil {
                    state.heldUntil = nil
                    // Replaced by the retry plan for the same failure: the held line goes unsaid.
                    if !Self.plansRetry(after: state.status, status) { draw(&state, now: now) }
                }
                if case .unreachable(_, nil) = status {
                    state.status = status
                    state.heldUntil = now + Self.retryPlanWait
                    return
                }
            }
            if mode == .terminal, case .finished = status, state.drawn, Self.showsPosition(state.status) {
                // A replay's end keeps its last position on screen, the one the replay ended at
                // (held back by the redraw interval or not): the end is said on the line below.
                if state.pending { draw(&state, now: now) }
                if !Terminal.write("\n", to: descriptor) { state.outputClosed = true }
                state.drawn = false
                state.lastLine = nil
            }
            let sameKind = Self.sameKind(state.status, status)
            state.status = status
            // Only a line redrawn in place counts down: as plain lines, a countdown would print
            // a line a second while gpsd is down.
            if mode == .terminal, case .unreachable(_, let retryingIn?) = status {
                state.retryDeadline = now + retryingIn.inSeconds
            } else {
                state.retryDeadline = nil
            }
            if sameKind, now - state.lastDraw < minimumRedrawInterval {
                state.pending = true
                return
            }
            draw(&state, now: now)
        }
    }

    /// Shows what waits for brokers that cannot take it, beside the status; nil hides it.
    package func showPublishing(_ publishing: PublishingStatus?) {
        let now = now()
        state.withLock { state in
            guard !state.finished, publishing != state.publishing else { return }
            let news = publishing?.problem != state.publishing?.problem
            state.publishing = publishing
            // Before the first status there is nothing to draw it beside.
            guard state.status != nil else { return }
            // A count that grows with each fix is no news: plain lines show it with the next
            // state, and a terminal coalesces it like a fix.
            if !news {
                if mode == .lines {
                    state.publishingUnshown = true
                    return
                }
                if now - state.lastDraw < minimumRedrawInterval {
                    state.pending = true
                    return
                }
            }
            draw(&state, now: now)
        }
    }

    /// Prints an event above the status line.
    package func event(_ event: TrackingEvent) {
        let line = EventLine.render(event, options: options)
        let now = now()
        state.withLock { state in
            guard !state.finished else { return }
            switch mode {
            case .silent:
                return
            case .changes:
                // gpsd back is said in so many words: the status alone may not change with it
                // (a receiver still silent), and a journal would end on "connection refused".
                // So is a receiver set aside, which a service's journal must show. The other
                // events are the tracker's, not changes of its state.
                switch event.kind {
                case .reconnected, .otherReceiver: _ = Terminal.write("geotrack: " + line + "\n", to: descriptor)
                default: return
                }
            case .lines:
                if !Terminal.write(line + "\n", to: descriptor) { state.outputClosed = true }
            case .terminal:
                // Clear the status line, print the event where it was, then draw the status below.
                if !Terminal.write("\r" + ANSI.clearToEndOfScreen + line + "\n", to: descriptor) { state.outputClosed = true }
                state.drawn = false
                state.lastLine = nil
                draw(&state, now: now)
            }
        }
    }

    /// Seconds until ``tick()`` has something to draw: the line held back by the redraw
    /// interval once that interval is over, or the countdown's next whole second. `nil` while
    /// nothing would change without a new status, so an idle tracker sleeps.
    package var nextTick: Double? {
        let now = now()
        return state.withLock { state -> Double? in
            guard !state.finished, !state.suspended else { return nil }
            var next: Double?
            if state.pending {
                next = max(0, state.lastDraw + minimumRedrawInterval - now)
            }
            if let held = state.heldUntil {
                next = min(next ?? .infinity, max(0, held - now))
            }
            if let deadline = state.retryDeadline, deadline > now {
                // The countdown shows whole seconds rounded up: it changes as the time left
                // crosses each whole second.
                let left = deadline - now
                let step = left - (left.rounded(.up) - 1)
                next = min(next ?? step, step)
            }
            return next
        }
    }

    /// Redraws what the redraw interval held back, and a countdown (when ``nextTick`` says).
    package func tick() {
        let now = now()
        state.withLock { state in
            if let held = state.heldUntil {
                guard now >= held else { return }
                state.heldUntil = nil
                draw(&state, now: now)
                return
            }
            guard state.retryDeadline != nil || state.pending else { return }
            draw(&state, now: now)
        }
    }

    /// The terminal was resized (SIGWINCH): fit the line again.
    package func resize() {
        guard mode == .terminal else { return }
        let columns = width()
        let now = now()
        state.withLock { state in
            state.width = columns
            state.lastLine = nil
            draw(&state, now: now)
        }
    }

    /// Before the process stops (SIGTSTP): clear the line and give the cursor back.
    package func suspend() {
        guard mode == .terminal else { return }
        state.withLock { state in
            guard !state.finished, !state.suspended else { return }
            state.suspended = true
            Terminal.write("\r" + ANSI.clearToEndOfScreen + ANSI.showCursor, to: descriptor)
            terminalMode?.restore()
            state.drawn = false
            state.lastLine = nil
        }
    }

    /// After the process continues (SIGCONT): hide the cursor and draw again.
    package func resume() {
        guard mode == .terminal else { return }
        let columns = width()
        let now = now()
        state.withLock { state in
            guard !state.finished, state.suspended else { return }
            state.suspended = false
            state.width = columns
            terminalMode?.quiet()
            Terminal.write(ANSI.hideCursor, to: descriptor)
            draw(&state, now: now)
        }
    }

    /// Leaves the last line on screen, ends it, and restores the cursor. Idempotent.
    package func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            if state.pending || state.heldUntil != nil || state.publishingUnshown {
                state.heldUntil = nil
                draw(&state, now: now())
            }
            state.finished = true
            if mode == .terminal {
                Terminal.write((state.drawn ? "\n" : "") + ANSI.showCursor, to: descriptor)
                terminalMode?.restore()
            }
        }
    }

    private func draw(_ state: inout State, now: Double) {
        guard mode != .silent, !state.suspended, var status = state.status else { return }
        state.pending = false
        state.publishingUnshown = false
        state.heldUntil = nil
        state.lastDraw = now
        if case .unreachable(let error, _) = status, let deadline = state.retryDeadline {
            status = .unreachable(error, retryingIn: .milliseconds(Int(max(0, deadline - now) * 1000)))
        }
        if mode == .changes {
            // The count of waiting messages changes with every fix; only the broker's problem is news.
            let change = Self.change(status) + (state.publishing.map { " " + $0.problem } ?? "")
            guard change != state.lastChange else { return }
            state.lastChange = change
            // stderr: a reader that went away there is no reason to stop recording.
            _ = Terminal.write("geotrack: " + StatusLine.render(status, publishing: state.publishing, width: nil,
                                                                 options: options) + "\n", to: descriptor)
            return
        }
        let line = StatusLine.render(status, publishing: state.publishing, width: mode == .terminal ? state.width : nil,
                                     options: options)
        guard line != state.lastLine else { return }
        state.lastLine = line
        switch mode {
        case .terminal:
            // The cursor is left at the start of the line. A terminal that narrows rewraps the
            // old, longer line onto the rows below its start and keeps the cursor at that start
            // (tmux, VTE): drawing from there and clearing to the end of the screen erases every
            // row the old line took, where a cursor left at its end would leave the rows above it.
            if !Terminal.write("\r" + line + ANSI.clearToEndOfScreen + "\r", to: descriptor) { state.outputClosed = true }
            state.drawn = true
        case .lines:
            if !Terminal.write(line + "\n", to: descriptor) { state.outputClosed = true }
        case .silent, .changes:
            break
        }
    }

    /// Whether `status` shows a position: a fix, or a stale one.
    static func showsPosition(_ status: TrackingStatus?) -> Bool {
        switch status {
        case .fix?, .stale(_?)?: true
        default: false
        }
    }

    /// What makes a state a change worth a line in ``Mode/changes``: its kind, and for an
    /// unreachable gpsd the reason (refused, then timing out, is news; the countdown is not).
    static func change(_ status: TrackingStatus) -> String {
        switch status {
        case .starting: "starting"
        case .waitingForAuthorization: "waiting"
        case .denied: "denied"
        case .restricted: "restricted"
        case .unreachable(let error, _): "unreachable " + (error?.message ?? "")
        case .noReceiver: "no receiver"
        case .searching: "searching"
        case .fix: "fix"
        case .stale: "stale"
        case .finished: "finished"
        case .failed(let error): "failed " + error.message
        }
    }

    /// Whether `new` is the retry plan for the failure `old` said, with no plan yet.
    static func plansRetry(after old: TrackingStatus?, _ new: TrackingStatus) -> Bool {
        guard case .unreachable(let failure, nil)? = old, case .unreachable(let again, _?) = new else { return false }
        return failure == again
    }

    /// Whether two states are the same kind (fix and fix, searching and searching): only those are coalesced.
    static func sameKind(_ old: TrackingStatus?, _ new: TrackingStatus) -> Bool {
        switch (old, new) {
        case (.fix?, .fix), (.searching?, .searching), (.stale?, .stale): true
        default: false
        }
    }
}

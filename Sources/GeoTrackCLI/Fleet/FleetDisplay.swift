import Synchronization

/// Draws the fleet view in place on a terminal: the lines drawn last time are overwritten, and
/// what is left of them below is cleared. The cursor is hidden while it runs.
///
/// Between draws the cursor waits at the start of the view's first line, as the status line's
/// does: a terminal that narrows rewraps the old lines below it, and the next draw, from there
/// to the end of the screen, leaves nothing of them.
package final class FleetDisplay: Sendable {
    private let descriptor: Int32
    private let state = Mutex(State())

    private struct State {
        var drawnLines = 0
        var last: [String] = []
        var finished = false
    }

    /// Draws on `descriptor` (a terminal).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Replaces the view with `lines`; nothing is written when they did not change.
    package func draw(_ lines: [String]) {
        let text = state.withLock { state -> String? in
            guard !state.finished, lines != state.last else { return nil }
            var text = (state.drawnLines == 0 ? ANSI.hideCursor : "") + Self.frame(lines)
            if lines.count > 1 { text += ANSI.cursorUp(lines.count - 1) }
            text += "\r"
            state.drawnLines = lines.count
            state.last = lines
            return text
        }
        if let text { Terminal.write(text, to: descriptor) }
    }

    /// Leaves the last view on screen, with the cursor shown again below it. Idempotent.
    package func finish() {
        let last = state.withLock { state -> [String]? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.drawnLines > 0 ? state.last : []
        }
        guard let last else { return }
        // Drawn once more, from the cursor at its start, so the cursor ends below it however
        // many rows the lines take now.
        Terminal.write(last.isEmpty ? ANSI.showCursor : Self.frame(last) + "\n" + ANSI.showCursor, to: descriptor)
    }

    /// The lines from the start of the first, each cleared first, then the rest of the screen cleared.
    private static func frame(_ lines: [String]) -> String {
        "\r" + lines.map { ANSI.clearLine + $0 }.joined(separator: "\n") + ANSI.clearToEndOfScreen
    }
}

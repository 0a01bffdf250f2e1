import Synchronization

/// Draws the fleet view in place on a terminal: the lines drawn last time are overwritten, and
/// what is left of them below is cleared. The cursor is hidden while it runs.
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
            var text = state.drawnLines == 0 ? "\u{1B}[?25l" : "\r"
            if state.drawnLines > 1 { text += "\u{1B}[\(state.drawnLines - 1)A" }
            text += lines.map { "\u{1B}[2K" + $0 }.joined(separator: "\n") + "\u{1B}[J"
            state.drawnLines = lines.count
            state.last = lines
            return text
        }
        if let text { Terminal.write(text, to: descriptor) }
    }

    /// Leaves the last view on screen, with the cursor shown again below it. Idempotent.
    package func finish() {
        let drawn = state.withLock { state -> Bool? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.drawnLines > 0
        }
        guard let drawn else { return }
        Terminal.write(drawn ? "\n\u{1B}[?25h" : "\u{1B}[?25h", to: descriptor)
    }
}

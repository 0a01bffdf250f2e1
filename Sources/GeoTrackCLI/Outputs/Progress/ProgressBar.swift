import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on stderr for long conversions (`replay FILE --gpx OUT`), redrawn at most ten times a second.
package final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var lastDraw = -Double.infinity
        var finished = false
    }

    private let total: Int
    private let descriptor: Int32
    private let width: Int
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    /// A bar for `total` steps, written to `descriptor`.
    package init(total: Int, descriptor: Int32 = STDERR_FILENO, width: Int? = nil,
                 now: @escaping @Sendable () -> Double = MonotonicClock.seconds) {
        self.total = max(1, total)
        self.descriptor = descriptor
        self.width = width ?? Terminal.columns(descriptor) ?? 80
        self.now = now
    }

    /// One more step done.
    package func advance() {
        let now = now()
        state.withLock { state in
            state.done += 1
            guard !state.finished, now - state.lastDraw >= 0.1 || state.done == total else { return }
            state.lastDraw = now
            Terminal.write("\r" + Self.render(done: state.done, total: total, width: width) + ANSI.clearToEndOfLine, to: descriptor)
        }
    }

    /// Draws the final state and ends the line.
    package func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            Terminal.write("\r" + Self.render(done: state.done, total: total, width: width) + ANSI.clearToEndOfLine + "\n", to: descriptor)
        }
    }

    /// `[#########.........]  45%  1234/2742 points`, fitted into `width - 1` columns.
    package static func render(done: Int, total: Int, width: Int) -> String {
        let fraction = min(1, Double(done) / Double(max(1, total)))
        let percent = Int((fraction * 100).rounded(.down))
        let tail = NumberText.printf(" %3d%%  %d/%d points", percent, min(done, total), total)
        let barWidth = max(0, width - 1 - tail.count - 2)
        guard barWidth >= 5 else { return String(tail.dropFirst().prefix(max(0, width - 1))) }
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + tail
    }
}

import FoundationEssentials
import GeoTrackService
#if canImport(Glibc)
import Glibc
#endif

/// The progress bar of an unpaced replay into GPX at a terminal: one step per location.
package final class ProgressOutput: BuiltInOutput {
    private let bar: ProgressBar

    /// Advances `bar`.
    package init(bar: ProgressBar) {
        self.bar = bar
    }

    /// Whether an unpaced replay records GPX.
    package static func isRequested(_ context: OutputContext) -> Bool {
        context.showsProgress && context.options.gpxPath != nil
    }

    /// The bar, when a replay records GPX from a regular file with stderr at a terminal that can
    /// redraw (not `TERM=dumb`, which would show its escape sequences as text): it counts the
    /// file's fixes first, which only a regular file can be read twice for (a pipe would be consumed).
    package static func make(_ context: OutputContext) throws(CLIError) -> (any RunOutput)? {
        guard isRequested(context), let path = context.input,
              Terminal.canRedraw(isTerminal: Terminal.isTerminal(STDERR_FILENO), environment: context.environment),
              isRegularFile(path) else { return nil }
        return ProgressOutput(bar: ProgressBar(total: try FastReplay.countFixes(path)))
    }

    package func handle(_ update: TrackingUpdate) {
        if case .location = update { bar.advance() }
    }

    package func finish() { bar.finish() }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

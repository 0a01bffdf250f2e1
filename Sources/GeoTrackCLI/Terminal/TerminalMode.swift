import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Turns the terminal's echo off while the status line is up, so keys typed (or the `^C` the
/// terminal would echo for Ctrl-C) never garble or wrap it; and puts it back exactly as it was.
///
/// Signals stay on (ISIG): Ctrl-C and Ctrl-Z still reach the process's lifecycle.
package final class TerminalMode: Sendable {
    private let descriptor: Int32
    private let saved: Mutex<termios?> = Mutex(nil)

    /// A mode switcher for `descriptor` (stdin by default); does nothing when it is not a terminal.
    package init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// Saves the current settings and turns echo off.
    package func quiet() {
        guard Terminal.isTerminal(descriptor) else { return }
        saved.withLock { saved in
            guard saved == nil else { return }
            var settings = termios()
            guard tcgetattr(descriptor, &settings) == 0 else { return }
            saved = settings
            settings.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            _ = tcsetattr(descriptor, TCSANOW, &settings)
        }
    }

    /// Restores the saved settings, if any.
    package func restore() {
        saved.withLock { saved in
            guard var settings = saved else { return }
            _ = tcsetattr(descriptor, TCSANOW, &settings)
            saved = nil
        }
    }
}

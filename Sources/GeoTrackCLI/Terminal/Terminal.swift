import FoundationEssentials
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Small facts about the process's terminal, and unbuffered writes to it.
package enum Terminal {
    /// Writes `line` and a newline to stderr in one call.
    package static func standardError(_ line: String) {
        write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to a descriptor (swift-system retries on EINTR and partial writes);
    /// returns false when it could not (a closed terminal or pipe is no reason to fail here; a
    /// failure on stdout is recorded in ``StandardOutput`` and ends the command with 74).
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Bool {
        // From the string's own UTF-8 storage: handed `text.utf8`, writeAll takes its generic
        // Sequence path, whose first use builds type metadata (a few percent of `auth status`).
        var text = text
        return text.withUTF8 { bytes in
            do throws(Errno) {
                // Given up at a terminating signal when the reader takes nothing (OutputWrite).
                try OutputWrite.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor,
                                         regularFile: OutputWrite.isRegularFile(descriptor))
                return true
            } catch {
                // Output lost on stdout ends the command with 74 (StandardOutput), whoever wrote
                // it; a write given up because the process is ending loses nothing worth a failure.
                if descriptor == STDOUT_FILENO, error != .interrupted { StandardOutput.record(error) }
                return false
            }
        }
    }

    /// `text` made safe for a terminal: control characters (C0, DEL and C1, the escape among
    /// them) become `\u{…}`, so a string from gpsd, a log or a configuration file can never move
    /// the cursor, recolour the screen or retitle the window. So do Unicode's bidirectional
    /// controls and its line and paragraph separators, so that such a string cannot reorder the
    /// rest of the line it is shown on (a right-to-left override in a device's name turning the
    /// figures after it around) or start a new one; and the characters that draw nothing, so
    /// that two names that differ look different.
    package static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        // The bidirectional formatting characters (Unicode's UAX #9): the Arabic letter mark,
        // the left-to-right and right-to-left marks, the embeddings, overrides and isolates.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        // The line and paragraph separators.
        case 0x2028, 0x2029: true
        // Characters that draw nothing and join nothing: the zero-width space, the word joiner,
        // the invisible operators and the byte order mark. With one, a foreign device "car\u{200B}"
        // would look like "car" in the fleet view. The zero-width (non-)joiners stay: emoji
        // sequences and Persian words need them.
        case 0x200B, 0x2060...0x2064, 0xFEFF: true
        default: false
        }
    }

    /// Whether the descriptor is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The terminal's width in columns, or nil when it is not a terminal. A terminal that does
    /// not say (0, as a serial console or a pseudo-terminal nobody sized reports) is taken to be
    /// `COLUMNS` wide, else 80, as curses programs (cgps) take it.
    package static func columns(_ descriptor: Int32) -> Int? {
        windowSize(descriptor).map { $0.ws_col > 0 ? Int($0.ws_col) : fallback("COLUMNS", 80) }
    }

    /// The terminal's height in rows, or nil when it is not a terminal; one that does not say is
    /// taken to be `LINES` tall, else 24.
    package static func rows(_ descriptor: Int32) -> Int? {
        windowSize(descriptor).map { $0.ws_row > 0 ? Int($0.ws_row) : fallback("LINES", 24) }
    }

    /// A size from the environment when it holds a sensible one, else `standard`.
    static func fallback(_ variable: String, _ standard: Int) -> Int {
        guard let text = getenv(variable).map({ String(cString: $0) }), let value = Int(text),
              (1...10_000).contains(value) else { return standard }
        return value
    }

    private static func windowSize(_ descriptor: Int32) -> winsize? {
        var size = winsize()
        return ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 ? size : nil
    }

    /// Whether output on a terminal may be redrawn in place (the cursor hidden and moved, the
    /// line cleared, the alternate screen): not when TERM is "dumb" (Emacs' shell, an editor's
    /// console), which shows those escape sequences as text. Such a terminal gets what a pipe
    /// gets: a plain line per change, or the sky view's last screen.
    package static func canRedraw(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && environment["TERM"] != "dumb"
    }

    /// Colour only on a terminal, and never when NO_COLOR is set to anything non-empty (no-color.org),
    /// or when TERM is "dumb".
    package static func colorAllowed(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

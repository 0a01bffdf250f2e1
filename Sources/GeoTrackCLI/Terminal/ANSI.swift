/// The terminal's control sequences (ECMA-48, and xterm's for the cursor and the alternate
/// screen), named once for every screen that draws: the status line, the sky view, event lines,
/// the progress bar and the fleet view.
package enum ANSI {
    /// The escape character every sequence starts with.
    package static let escape: Character = "\u{1B}"

    /// The colours and weights a line is drawn in (SGR); `plain` writes nothing.
    package enum Style: String, Sendable {
        case plain = ""
        case bold = "\u{1B}[1m"
        case green = "\u{1B}[32m"
        case yellow = "\u{1B}[33m"
        case red = "\u{1B}[31m"
        case cyan = "\u{1B}[36m"
        case dim = "\u{1B}[2m"
    }

    /// Back to plain text.
    package static let reset = "\u{1B}[0m"
    /// Clears from the cursor to the end of its line.
    package static let clearToEndOfLine = "\u{1B}[K"
    /// Clears the cursor's whole line.
    package static let clearLine = "\u{1B}[2K"
    /// Clears from the cursor to the end of the screen.
    package static let clearToEndOfScreen = "\u{1B}[J"
    /// Clears the whole screen.
    package static let clearScreen = "\u{1B}[2J"
    /// Hides the cursor while a screen is drawn in place.
    package static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor again.
    package static let showCursor = "\u{1B}[?25h"
    /// Switches to the alternate screen, leaving the shell's screen as it was.
    package static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Back to the shell's screen.
    package static let leaveAlternateScreen = "\u{1B}[?1049l"

    /// Moves the cursor up `lines` lines.
    package static func cursorUp(_ lines: Int) -> String { "\u{1B}[\(lines)A" }

    /// Moves the cursor to `row` and `column`, counted from 1.
    package static func moveTo(row: Int, column: Int) -> String { "\u{1B}[\(row);\(column)H" }
}

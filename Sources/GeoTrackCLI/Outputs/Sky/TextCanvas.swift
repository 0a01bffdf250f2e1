/// A grid of character cells, each with a style, and a braille layer of 2×4 dots per cell:
/// what the sky view is laid out on before it becomes lines of text.
///
/// Every scalar is taken to be one column wide, so a line never holds more than ``width``
/// columns; text from outside (gpsd, file names) is made safe for the terminal on the way in.
struct TextCanvas {
    /// Columns.
    let width: Int
    /// Rows.
    let height: Int
    private var scalars: [Unicode.Scalar]
    private var styles: [ANSI.Style]
    private var dots: [UInt8]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let count = self.width * self.height
        scalars = Array(repeating: " ", count: count)
        styles = Array(repeating: .plain, count: count)
        dots = Array(repeating: 0, count: count)
    }

    /// Writes `text` from (`row`, `column`), cut to `limit` columns and to the canvas, a cut
    /// marked with `…`; returns the columns written.
    @discardableResult
    mutating func put(_ text: String, row: Int, column: Int, style: ANSI.Style = .plain, limit: Int? = nil) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let end = min(width, limit.map { column + max(0, $0) } ?? width)
        var position = column
        for scalar in Terminal.safe(text).unicodeScalars {
            guard position < end else {
                if position > max(0, column) { scalars[row * width + position - 1] = "…" }
                break
            }
            if position >= 0 {
                scalars[row * width + position] = scalar
                styles[row * width + position] = style
            }
            position += 1
        }
        return max(0, position - column)
    }

    /// Sets one braille dot; `x` counts dot columns (two per cell), `y` dot rows (four per cell).
    mutating func dot(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width * 2, y < height * 4 else { return }
        // Unicode's braille bits: dots 1-2-3-7 down the left column, 4-5-6-8 down the right.
        let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        dots[(y / 4) * width + x / 2] |= bits[x % 2][y % 4]
    }

    /// The rows as text, trailing blanks removed; with `color`, styled runs in ANSI colours.
    /// A cell holding text hides the braille dots beneath it, which are drawn dim.
    func lines(color: Bool) -> [String] {
        (0..<height).map { row in
            var cells: [(Unicode.Scalar, ANSI.Style)] = (0..<width).map { column in
                let index = row * width + column
                if scalars[index] == " ", dots[index] != 0, let braille = Unicode.Scalar(0x2800 + UInt32(dots[index])) {
                    return (braille, .dim)
                }
                return (scalars[index], styles[index])
            }
            while let last = cells.last, last.0 == " " { cells.removeLast() }
            return Self.paint(cells, color: color)
        }
    }

    private static func paint(_ cells: [(Unicode.Scalar, ANSI.Style)], color: Bool) -> String {
        var text = ""
        var current = ANSI.Style.plain
        for (scalar, style) in cells {
            if color, style != current {
                if current != .plain { text += ANSI.reset }
                text += style.rawValue
                current = style
            }
            text.unicodeScalars.append(scalar)
        }
        if color, current != .plain { text += ANSI.reset }
        return text
    }
}

extension ConfigFile {
    /// A line with content: its number, its indentation in spaces, and the text after the indentation.
    struct Line {
        /// The line's number, counted from 1.
        let number: Int
        /// Leading spaces.
        let indent: Int
        /// Everything after them, comment included.
        let text: [Unicode.Scalar]

        /// Whether the line is a list item: `-` alone or followed by a blank.
        var isListItem: Bool {
            text.first == "-" && (text.count == 1 || Self.isBlank(text[1]))
        }

        /// Whether `scalar` separates words: YAML's blanks are spaces and tabs.
        static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t"
        }

        /// Nil when `text` is not the document marker `marker`; else whether nothing but a comment follows it.
        static func marker(_ marker: String, in text: [Unicode.Scalar]) -> Bool? {
            let mark = Array(marker.unicodeScalars)
            guard text.starts(with: mark), text.count == mark.count || isBlank(text[mark.count]) else { return nil }
            let rest = text.dropFirst(mark.count).drop(while: isBlank)
            return rest.isEmpty || rest.first == "#"
        }
    }

    /// Reads ``Line``s into flattened entries: block structure by indentation, flow collections
    /// by brackets, which may run over several lines.
    struct Parser {
        private let lines: [Line]
        /// The line being read.
        private var index = 0
        /// The position in that line's text.
        private var column = 0
        /// The indentation of the mapping whose value is being read: a flow collection's later
        /// lines must be indented more (but for a closing bracket of its own), so an unclosed
        /// bracket is reported where it opens rather than at the next key.
        private var valueIndent = 0
        /// The flattened keys so far.
        private(set) var entries: [Entry] = []
        /// The line on which each key path, leaf or not, was first given.
        private var defined: [String: Int] = [:]

        /// Prepares to read `lines`.
        init(lines: [Line]) {
            self.lines = lines
        }

        /// Reads the whole document, which must be a mapping (or nothing).
        mutating func parseDocument() throws(Problem) {
            guard let first = lines.first else { return }
            if first.isListItem { throw problem("the file must be a mapping of keys to values, not a list") }
            try parseMapping(indent: first.indent, path: [])
            if index < lines.count { throw problem("the indentation matches no key above") }
        }

        // MARK: Block structure

        private mutating func parseMapping(indent: Int, path: [String]) throws(Problem) {
            while index < lines.count {
                let line = lines[index]
                if line.indent < indent { return }
                if line.indent > indent { throw problem("unexpected indentation: the key above already has a value") }
                if line.isListItem { throw problem("a list item where a key was expected") }
                column = 0
                let keyPath = path + [try parseKey(flow: false)]
                try define(keyPath)
                if atLineEnd() {
                    index += 1
                    try parseBlock(under: indent, path: keyPath)
                } else {
                    valueIndent = indent
                    try parseValue(path: keyPath, flow: false)
                    guard atLineEnd() else { throw problem("unexpected text after the value") }
                    index += 1
                }
            }
        }

        /// What follows `key:` with nothing after it: a more indented block, a list at the key's
        /// own indentation (`key:` then `- a`, as many files write it), or no value.
        private mutating func parseBlock(under indent: Int, path: [String]) throws(Problem) {
            guard index < lines.count else { return add(path, .null) }
            let next = lines[index]
            if next.indent > indent {
                if next.isListItem {
                    try parseBlockList(indent: next.indent, path: path, compact: false)
                } else {
                    try parseMapping(indent: next.indent, path: path)
                }
                if index < lines.count, lines[index].indent > indent {
                    throw problem("the indentation matches no key above")
                }
            } else if next.indent == indent, next.isListItem {
                try parseBlockList(indent: indent, path: path, compact: true)
            } else {
                add(path, .null)
            }
        }

        private mutating func parseBlockList(indent: Int, path: [String], compact: Bool) throws(Problem) {
            var items: [String] = []
            while index < lines.count {
                let line = lines[index]
                if line.indent < indent { break }
                if line.indent > indent { throw problem("a list may only hold plain values, one per line") }
                guard line.isListItem else {
                    // A compact list ends where its parent mapping's next key begins.
                    if compact { break }
                    throw problem("expected a list item '- value' like the lines above")
                }
                column = 1
                if atLineEnd() {
                    items.append("")
                } else {
                    items.append(try parseListItem(flow: false))
                    guard atLineEnd() else { throw problem("unexpected text after the value") }
                }
                index += 1
            }
            add(path, .list(items))
        }

        /// A mapping's key and its ':'. In a `{ }` mapping (`flow`) the ':' may touch what follows
        /// and the messages name the text read; on a line of its own the ':' needs a space after it.
        private mutating func parseKey(flow: Bool) throws(Problem) -> String {
            let key: String
            switch current {
            case "\"", "'":
                key = try parseQuoted()
                skipBlanks()
            case "[", "{":
                throw problem("a key in [ ] or { } is not supported" + (flow ? "" : "; write 'key: value'"))
            default:
                try refuseIndicator()
                let (text, colon) = scanPlain(flow: flow)
                guard colon else {
                    let spaced = text.contains(":")
                    if flow {
                        throw problem(spaced ? "expected ':' after '\(text)', with a space after it" : "expected ':' after '\(text)'")
                    }
                    throw problem(spaced ? "expected 'key: value', with a space after the ':'" : "expected 'key: value'")
                }
                key = text
            }
            guard current == ":", flow || isBlankOrEnd(peek(1)) else { throw problem("expected ':' after the key") }
            column += 1
            guard !key.isEmpty else { throw problem("a key is missing before ':'") }
            return key
        }

        /// The value after `key: `: on the same line of a block mapping, or inside `{ }` when
        /// `flow`, where `,` or `}` right after the key leaves the value empty.
        private mutating func parseValue(path: [String], flow: Bool) throws(Problem) {
            switch current {
            case "{":
                try parseFlowMapping(path: path)
            case "[":
                add(path, .list(try parseFlowList()))
            case "," where flow, "}" where flow:
                add(path, .null)
            case "\"", "'":
                add(path, .scalar(try parseQuoted()))
            case "-" where isBlankOrEnd(peek(1)):
                throw problem(flow ? "'- ' cannot start a value in { }"
                                   : "a list cannot start on the line of its key; put each '- item' on a line of its own")
            default:
                try refuseIndicator()
                let (text, colon) = scanPlain(flow: flow)
                if colon {
                    throw problem(flow ? "a value cannot hold ': ' unless quoted"
                                       : "a value cannot hold ': ' unless quoted; nested keys go on lines of their own")
                }
                add(path, Self.isNull(text) ? .null : .scalar(text))
            }
        }

        // MARK: Flow collections

        private mutating func parseFlowMapping(path: [String]) throws(Problem) {
            let opened = lines[index].number
            column += 1
            var empty = true
            while true {
                try skipFlowSpace(closing: "}", opened: opened)
                if current == "}" { break }
                let keyPath = path + [try parseKey(flow: true)]
                try define(keyPath)
                try skipFlowSpace(closing: "}", opened: opened)
                try parseValue(path: keyPath, flow: true)
                empty = false
                try skipFlowSpace(closing: "}", opened: opened)
                if current == "}" { break }
                guard current == "," else { throw problem("expected ',' or '}' in the { } mapping") }
                column += 1
            }
            column += 1
            if empty { add(path, .null) }
        }

        private mutating func parseFlowList() throws(Problem) -> [String] {
            let opened = lines[index].number
            column += 1
            var items: [String] = []
            while true {
                try skipFlowSpace(closing: "]", opened: opened)
                if current == "]" { break }
                if current == "," { throw problem("an empty item in a [ ] list") }
                items.append(try parseListItem(flow: true))
                try skipFlowSpace(closing: "]", opened: opened)
                if current == "]" { break }
                guard current == "," else { throw problem("expected ',' or ']' in the [ ] list") }
                column += 1
            }
            column += 1
            return items
        }

        /// One item of a list, `- item` or `[item]`: a plain or quoted value, nothing nested.
        private mutating func parseListItem(flow: Bool) throws(Problem) -> String {
            switch current {
            case "[", "{":
                throw problem("a list may only hold plain values")
            case "-" where isBlankOrEnd(peek(1)):
                throw problem("a list may only hold plain values")
            case "\"", "'":
                let item = try parseQuoted()
                skipBlanks()
                if current == ":" { throw problem("a list may only hold plain values") }
                return item
            default:
                try refuseIndicator()
                let (text, colon) = scanPlain(flow: flow)
                if colon { throw problem("a list may only hold plain values") }
                return Self.isNull(text) ? "" : text
            }
        }

        /// Moves past blanks, comments and line ends inside a flow collection.
        private mutating func skipFlowSpace(closing: Unicode.Scalar, opened: Int) throws(Problem) {
            while atLineEnd() {
                index += 1
                column = 0
                guard index < lines.count, lines[index].indent > valueIndent
                        || lines[index].indent == valueIndent && lines[index].text.first == closing
                else {
                    let opening = closing == "}" ? "{" : "["
                    throw Problem(line: opened, message: "the '\(opening)' opened on this line is not closed by a '\(closing)'")
                }
            }
        }

        // MARK: Scalars

        /// A plain scalar from the current position: up to a comment or the line's end, or in
        /// a flow collection up to `, [ ] { }`; `colon` says it stopped at a key's `: `.
        private mutating func scanPlain(flow: Bool) -> (text: String, colon: Bool) {
            var text = String.UnicodeScalarView()
            var colon = false
            while let scalar = current {
                if scalar == ":" {
                    let next = peek(1)
                    if isBlankOrEnd(next) || (flow && next.map(Self.isFlowIndicator) == true) {
                        colon = true
                        break
                    }
                }
                if flow && Self.isFlowIndicator(scalar) { break }
                if scalar == "#", column > 0, Line.isBlank(lines[index].text[column - 1]) { break }
                text.append(scalar)
                column += 1
            }
            while let last = text.last, Line.isBlank(last) { text.removeLast() }
            return (String(text), colon)
        }

        /// A single- or double-quoted scalar, which must end on its line.
        private mutating func parseQuoted() throws(Problem) -> String {
            let quote = current
            column += 1
            var text = String.UnicodeScalarView()
            while let scalar = current {
                column += 1
                if scalar == quote {
                    // In single quotes, '' is a quote; anything else ends the value.
                    guard quote == "'", current == "'" else { return String(text) }
                    column += 1
                    text.append("'")
                } else if scalar == "\\", quote == "\"" {
                    text.append(try parseEscape())
                } else {
                    text.append(scalar)
                }
            }
            let kind = quote == "'" ? "single" : "double"
            throw problem("unterminated \(kind) quote; a quoted value must end on its line")
        }

        /// The character of an escape in double quotes; the backslash is read.
        private mutating func parseEscape() throws(Problem) -> Unicode.Scalar {
            guard let escape = current else {
                throw problem("unterminated double quote; a quoted value must end on its line")
            }
            column += 1
            switch escape {
            case "\"", "\\", "/": return escape
            case "n": return "\n"
            case "t": return "\t"
            case "u":
                let code = try parseHex()
                switch code {
                case 0xD800..<0xDC00:
                    // JSON-style UTF-16: a high surrogate needs a low one straight after it.
                    guard current == "\\", peek(1) == "u" else { break }
                    column += 2
                    let low = try parseHex()
                    guard (0xDC00..<0xE000).contains(low),
                          let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
                    else { break }
                    return scalar
                default:
                    if let scalar = Unicode.Scalar(code) { return scalar }
                }
                throw problem("an invalid \\u escape in a double-quoted value")
            default:
                throw problem("the escape '\\\(escape)' is not supported; use \\\" \\\\ \\/ \\n \\t or \\uXXXX")
            }
        }

        private mutating func parseHex() throws(Problem) -> UInt32 {
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let scalar = current, let digit = Character(scalar).hexDigitValue else {
                    throw problem("\\u needs four hexadecimal digits")
                }
                code = code << 4 | UInt32(digit)
                column += 1
            }
            return code
        }

        /// Refuses what starts with a YAML indicator this reader does not support, naming it.
        private func refuseIndicator() throws(Problem) {
            guard let scalar = current else { return }
            switch scalar {
            case "&": throw problem("anchors (&) are not supported")
            case "*": throw problem("aliases (*) are not supported")
            case "!": throw problem("tags (!) are not supported")
            case "|", ">": throw problem("block scalars (| and >) are not supported; write the value on one line, quoted if need be")
            case "?" where isBlankOrEnd(peek(1)): throw problem("complex keys (?) are not supported")
            case "@", "`", "%": throw problem("'\(scalar)' cannot start a plain value; quote it")
            case ",", "]", "}", "#": throw problem("unexpected '\(scalar)'")
            default: return
            }
        }

        private static func isNull(_ text: String) -> Bool {
            ["", "~", "null", "Null", "NULL"].contains(text)
        }

        private static func isFlowIndicator(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "," || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}"
        }

        // MARK: Position

        private var current: Unicode.Scalar? { peek(0) }

        private func peek(_ offset: Int) -> Unicode.Scalar? {
            guard index < lines.count else { return nil }
            let text = lines[index].text
            return column + offset < text.count ? text[column + offset] : nil
        }

        private func isBlankOrEnd(_ scalar: Unicode.Scalar?) -> Bool {
            scalar.map(Line.isBlank) ?? true
        }

        private mutating func skipBlanks() {
            while let scalar = current, Line.isBlank(scalar) { column += 1 }
        }

        /// Whether nothing but blanks and a comment is left on the line.
        private mutating func atLineEnd() -> Bool {
            skipBlanks()
            guard current == "#" else { return current == nil }
            return column == 0 || Line.isBlank(lines[index].text[column - 1])
        }

        // MARK: Results

        /// Records a key path, refusing one given twice (`gpsd:` twice, or `a.b:` next to `a: {b: }`).
        private mutating func define(_ path: [String]) throws(Problem) {
            let key = path.joined(separator: ".")
            if let first = defined[key] { throw problem("duplicate key '\(key)' (first on line \(first))") }
            defined[key] = lines[index].number
        }

        private mutating func add(_ path: [String], _ value: Value) {
            entries.append(Entry(key: path.joined(separator: "."), value: value))
        }

        private func problem(_ message: String) -> Problem {
            Problem(line: index < lines.count ? lines[index].number : lines.last?.number, message: message)
        }
    }
}

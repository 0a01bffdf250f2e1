/// A JSON object written field by field, for the page's events: strings escaped whole (quotes,
/// backslashes, every control character), numbers that JSON cannot hold (NaN, infinity) as null.
struct ServeJSON {
    private var text = "{"
    private var first = true

    /// An empty object.
    init() {}

    private mutating func key(_ name: String) {
        text += first ? "" : ","
        first = false
        text += Self.quoted(name) + ":"
    }

    /// A string field.
    mutating func add(_ name: String, _ value: String?) {
        key(name)
        text += value.map(Self.quoted) ?? "null"
    }

    /// A number field, rounded to `decimals` places.
    mutating func add(_ name: String, _ value: Double?, decimals: Int = 7) {
        key(name)
        text += value.map { Self.number($0, decimals: decimals) } ?? "null"
    }

    /// An integer field.
    mutating func add(_ name: String, _ value: Int?) {
        key(name)
        text += value.map(String.init) ?? "null"
    }

    /// A boolean field.
    mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// A field whose value is JSON already (an object or an array).
    mutating func add(_ name: String, raw value: String) {
        key(name)
        text += value
    }

    /// The object.
    var json: String { text + "}" }

    /// A JSON array of values that are JSON already.
    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// `value` rounded to `decimals` places, or null when it is not finite.
    static func number(_ value: Double, decimals: Int = 7) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 12)) { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard rounded.isFinite else { return "null" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// A JSON string: every control character, quote and backslash escaped; `<` too, so that
    /// no text can close an element if the JSON were ever placed in a page.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

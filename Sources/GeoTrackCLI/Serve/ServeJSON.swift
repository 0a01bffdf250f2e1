import GPSReports

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

    /// `value` with `decimals` places, as every JSON GeoTrack writes prints it (GPSReports'
    /// `JSONWriter`, printf's rounding), or null when it is not finite.
    static func number(_ value: Double, decimals: Int = 7) -> String {
        guard value.isFinite else { return "null" }
        var writer = JSONWriter(capacity: 32)
        writer.fixed(value, decimals: decimals)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// A JSON string, escaped as every JSON GeoTrack writes escapes it (GPSReports'
    /// `JSONWriter`: quotes, backslashes and every control character). The page only ever sets
    /// it as text.
    static func quoted(_ value: String) -> String {
        var writer = JSONWriter(capacity: value.utf8.count + 8)
        writer.string(value)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

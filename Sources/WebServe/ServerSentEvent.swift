/// One Server-Sent Event: a name, and data on one line (the stream's framing, `event:` and
/// `data:` then a blank line, is added when it is sent).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's name, which the page listens for.
    public let name: String
    /// The data: JSON, one line.
    public let data: String

    /// An event; line breaks in `name` or `data` are removed, since they would end the field.
    public init(name: String, data: String) {
        self.name = Self.oneLine(name)
        self.data = Self.oneLine(data)
    }

    /// The event as the stream carries it.
    public var encoded: [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.filter { !$0.isNewline })
    }
}

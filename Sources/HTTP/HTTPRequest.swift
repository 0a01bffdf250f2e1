/// One request to send: a POST of `body`, or a GET, to a URL, with extra headers.
public struct HTTPRequest: Sendable {
    /// The whole URL, query included (see ``HTTPEndpoint/url(query:)``).
    public var url: String
    /// POST (true) or GET.
    public var post: Bool
    /// What a POST sends.
    public var body: [UInt8]
    /// Extra headers, as names and values.
    public var headers: [(name: String, value: String)]

    /// Creates a request.
    public init(url: String, post: Bool = true, body: [UInt8] = [], headers: [(name: String, value: String)] = []) {
        self.url = url
        self.post = post
        self.body = body
        self.headers = headers
    }

    /// The headers as libcurl's lines, each ending in a line feed; a header whose name or value
    /// holds a line break (which would start another header) is left out.
    var headerLines: String {
        headers.filter { !($0.name + $0.value).contains(where: { $0 == "\n" || $0 == "\r" }) }
            .map { "\($0.name): \($0.value)\n" }.joined()
    }
}
